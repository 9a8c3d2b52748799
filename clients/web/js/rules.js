// A game's rules and rulings (GET /v1/rulesets/{name}/rules, Markdown) rendered as a page: headings,
// paragraphs, lists, tables, quotes and code, with the text inserted as text (never as HTML), so a
// rules document cannot inject anything into the page.
import { api, ruleset } from "./api.js";
import { h, replace } from "./dom.js";

export async function showRules(main, name) {
  const [rs, text] = await Promise.all([ruleset(name), api(`/v1/rulesets/${encodeURIComponent(name)}/rules`, { text: true })]);
  document.title = `Rules — ${rs.title}`;
  replace(main, h("p", {}, h("a", { href: "#/" }, "Lobby")), h("article", { class: "rules" }, markdown(text)));
  return () => { document.title = "Tabletop Cartel"; };
}

export function markdown(text) {
  const out = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const code = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) code.push(lines[i]);
      out.push(h("pre", {}, h("code", {}, code.join("\n"))));
      i++;
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, line.match(/^#+/)[0].length + 1); // the page's own h1 is the site's
      out.push(h(`h${level}`, {}, inline(line.replace(/^#+ /, ""))));
      i++;
    } else if (/^\s*\|/.test(line)) {
      const rows = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(lines[i]);
      out.push(table(rows));
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\. /.test(line), items = [];
      for (; i < lines.length && (/^\s*([-*]|\d+\.) /.test(lines[i]) || (/^\s{2,}\S/.test(lines[i]) && items.length)); i++) {
        if (/^\s*([-*]|\d+\.) /.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.) /, ""));
        else items[items.length - 1] += " " + lines[i].trim();
      }
      out.push(h(ordered ? "ol" : "ul", {}, items.map((item) => h("li", {}, inline(item)))));
    } else if (/^> ?/.test(line)) {
      const quoted = [];
      for (; i < lines.length && /^> ?/.test(lines[i]); i++) quoted.push(lines[i].replace(/^> ?/, ""));
      out.push(h("blockquote", {}, inline(quoted.join(" "))));
    } else if (!line.trim()) {
      i++;
    } else {
      const paragraph = [];
      for (; i < lines.length && lines[i].trim() && !/^(#{1,6} |```|\s*\||\s*([-*]|\d+\.) |> ?)/.test(lines[i]); i++) paragraph.push(lines[i]);
      out.push(h("p", {}, inline(paragraph.join(" "))));
    }
  }
  return out;
}

function table(rows) {
  const cells = (row) => row.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  const body = rows.filter((row) => !/^\s*\|[\s:|-]+\|\s*$/.test(row));
  const [head, ...rest] = body;
  return h("div", { class: "scroll" }, h("table", {},
    h("thead", {}, h("tr", {}, cells(head).map((c) => h("th", { scope: "col" }, inline(c))))),
    h("tbody", {}, rest.map((row) => h("tr", {}, cells(row).map((c) => h("td", {}, inline(c))))))));
}

// `code`, **bold**, *italic* and [links](url) (http(s) and in-page links only), as nodes.
function inline(text) {
  const parts = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0, match;
  while ((match = pattern.exec(text))) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [, code, bold, italic, label, href] = match;
    if (code !== undefined) parts.push(h("code", {}, code));
    else if (bold !== undefined) parts.push(h("strong", {}, bold));
    else if (italic !== undefined) parts.push(h("em", {}, italic));
    else parts.push(/^(https?:|#)/.test(href) ? h("a", { href, rel: "noopener" }, label) : label);
    last = pattern.lastIndex;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
