// A game's rules (GET /v1/rulesets/{name}/rules, Markdown) rendered as a page: headings, paragraphs,
// lists, tables, quotes and code, with the text inserted as text (never as HTML), so a rules document
// cannot inject anything into the page.  The document opens with "How to play", written for players;
// everything after it (rulings, reconstructed data, the command reference: for developers and rules
// lawyers) is folded, one section per heading, under the players' part.
import { api, ruleset } from "./api.js";
import { h, replace, focusableScrolls } from "./dom.js";

export async function showRules(main, name) {
  const [rs, text] = await Promise.all([ruleset(name), api(`/v1/rulesets/${encodeURIComponent(name)}/rules`, { text: true })]);
  document.title = `Rules — ${rs.title}`;
  replace(main, h("p", {}, h("a", { href: "#/" }, "Lobby")), h("article", { class: "rules" }, rulesPage(text)));
  focusableScrolls(main, "Table, scrolls sideways");
  return () => { document.title = "Tabletop Cartel"; };
}

// The title, "How to play" open, and each later "## " section folded (the text between the players'
// part and the first later section, the developers' introduction, folded as "About these rules").
export function rulesPage(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const title = /^# /.test(lines[0]) ? lines.shift() : null;
  const start = lines.findIndex((l) => /^## How to play\s*$/.test(l));
  const out = [];
  // "Kingpin (2nd edition) — ruleset `kingpin`": the ruleset's API name is for developers
  if (title) out.push(h("h1", {}, inline(title.replace(/^# /, "").replace(/\s+—\s+ruleset `[^`]+`\s*$/, ""))));
  let rest = lines;
  if (start >= 0) {
    const end = lines.findIndex((l, i) => i > start && (/^---\s*$/.test(l) || /^## /.test(l)));
    const stop = end < 0 ? lines.length : end;
    out.push(h("section", { class: "how-to-play", "aria-labelledby": "how-to-play" },
      h("h2", { id: "how-to-play" }, "How to play"), markdown(lines.slice(start + 1, stop).join("\n"))));
    rest = [...lines.slice(0, start), ...lines.slice(/^---/.test(lines[stop] || "") ? stop + 1 : stop)];
  }
  const sections = [];
  let current = { title: "About these rules", lines: [] };
  for (const line of rest) {
    if (/^## /.test(line)) { sections.push(current); current = { title: line.replace(/^## /, ""), lines: [] }; } else current.lines.push(line);
  }
  sections.push(current);
  const folded = sections.filter((sec) => sec.lines.some((l) => l.trim()));
  if (folded.length) {
    out.push(h("h2", { class: "rulings-h" }, start >= 0 ? "Rulings, reconstructions and the command reference" : "Rules"),
      folded.map((sec) => h("details", { class: "rules-section" }, h("summary", {}, inline(sec.title)), markdown(sec.lines.join("\n")))));
  }
  return out;
}

export function markdown(text) {
  const out = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const code = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) code.push(lines[i]);
      out.push(h("pre", { class: "scroll", "aria-label": "Code, scrolls sideways" }, h("code", {}, code.join("\n"))));
      i++;
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, line.match(/^#+/)[0].length); // the document's "# " is the page's h1 (rulesPage)
      out.push(h(`h${level}`, {}, inline(line.replace(/^#+ /, ""))));
      i++;
    } else if (/^\s*\|/.test(line)) {
      const rows = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(lines[i]);
      out.push(table(rows));
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const block = [];
      for (; i < lines.length && (/^\s*([-*]|\d+\.) /.test(lines[i]) || (/^\s{2,}\S/.test(lines[i]) && block.length)); i++) block.push(lines[i]);
      out.push(list(block));
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

// A list, its items' continuation lines joined, and items indented under an item as a list inside it.
function list(block) {
  const indent = (l) => l.match(/^\s*/)[0].length;
  const base = indent(block[0]), ordered = /^\s*\d+\. /.test(block[0]);
  const items = [];
  for (const line of block) {
    if (indent(line) <= base && /^\s*([-*]|\d+\.) /.test(line)) items.push({ text: line.replace(/^\s*([-*]|\d+\.) /, ""), sub: [] });
    else if (/^\s*([-*]|\d+\.) /.test(line) || items[items.length - 1].sub.length) items[items.length - 1].sub.push(line);
    else items[items.length - 1].text += " " + line.trim();
  }
  return h(ordered ? "ol" : "ul", {}, items.map((item) => h("li", {}, inline(item.text), item.sub.length ? list(item.sub) : null)));
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
