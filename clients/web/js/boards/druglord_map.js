// Where things go on Druglord's world map: a pure layout from the board's data (no DOM).  The Regions'
// reconstructed longitude/latitude crowd Europe and the US East Coast into a few pixels and leave the
// oceans empty, so the globe is first warped (piecewise linear: the crowded bands of longitude and
// latitude get more room, the open oceans less), then every Region's spot-and-name, each zone's name
// and the oceans' names are boxes pushed apart until none overlaps, a spring keeping each near its
// place.  Computed once per data: the page redraws the board on every event.

const NAME_PX = 16, ZONE_PX = 14, SEA_PX = 18; // font sizes (SVG units); style.css draws them the same
const GAP = 3; // room left between two boxes
const ROUNDS = 300;
// longitude -> x and latitude -> y, by breakpoints: the Americas and Europe wide, the Atlantic narrow
const LON = [[-180, -50], [-150, 0], [-125, 50], [-60, 380], [-45, 410], [-18, 450], [45, 740], [75, 840], [145, 1050], [180, 1100]];
const LAT = [[90, -150], [68, 0], [48, 150], [25, 320], [0, 530], [-40, 720], [-90, 950]];
// the oceans a port lies on, named where a player looks for them (longitude, latitude)
const SEAS = [
  { text: "Atlantic Ocean", lon: -33, lat: 22 },
  { text: "Pacific Ocean", lon: -138, lat: 12 },
  { text: "Pacific Ocean", lon: 150, lat: 10 },
  { text: "Indian Ocean", lon: 75, lat: -14 },
  { text: "Caspian", lon: 51, lat: 41.5, small: true },
];
const cache = new WeakMap();

// A name short enough to sit under its spot: "Southern California" -> "S. California".
export function shortName(name) {
  if (name.length <= 13) return name;
  const short = name.replace(/^(North|South|East|West)(ern)? /, (_, d) => `${d[0]}. `);
  return short.length <= 13 ? short : short.replace(/ Mountains$/, " Mtns").replace(/ Northwest$/, " NW").replace(/California$/, "Calif.");
}

const warp = (table, v) => {
  const asc = table[0][0] < table[1][0];
  for (let i = 1; i < table.length; i++) {
    const [a, ya] = table[i - 1], [b, yb] = table[i];
    if (asc ? v <= b : v >= b) return ya + (yb - ya) * (v - a) / (b - a);
  }
  return table[table.length - 1][1];
};

// the width of a text in SVG units, near enough for the sans-serif the page uses
const textWidth = (text, px, wide = 0.58) => text.length * px * wide;

export function layoutMap(data) {
  if (cache.has(data)) return cache.get(data);
  const regions = data.regions;
  const zones = [...new Set(regions.map((r) => r.zone))];
  const X = (lon) => warp(LON, lon), Y = (lat) => warp(LAT, lat);
  const members = Object.fromEntries(zones.map((z) => [z, regions.filter((r) => r.zone === z).map((r) => r.id)]));

  const items = [];
  for (const r of regions) {
    items.push(item("region", r.id, X(r.x), Y(r.y), Math.max(17, textWidth(shortName(r.name), NAME_PX) / 2), -17, 36, 0.06));
  }
  const zoneText = (zone) => (data.zones?.[zone] || zone).toUpperCase();
  for (const zone of zones) {
    const mine = regions.filter((r) => r.zone === zone);
    // above the zone's northernmost Regions, over their middle
    const x = mine.reduce((n, r) => n + X(r.x), 0) / mine.length, y = Math.min(...mine.map((r) => Y(r.y))) - 26;
    items.push(item("zone", zone, x, y, textWidth(zoneText(zone), ZONE_PX, 0.7) / 2, -ZONE_PX, 3, 0.06));
  }
  for (const [i, sea] of SEAS.entries()) {
    const px = sea.small ? NAME_PX : SEA_PX;
    items.push(item("sea", i, X(sea.lon), Y(sea.lat), textWidth(sea.text, px, 0.56) / 2, -px, 4, 0.15, 0.3));
  }
  relax(items);

  const spots = {}, zoneLabels = [], seaLabels = [];
  for (const it of items) {
    if (it.kind === "region") spots[it.key] = { x: it.x, y: it.y };
    else if (it.kind === "zone") zoneLabels.push({ zone: it.key, text: zoneText(it.key), x: it.x, y: it.y });
    else seaLabels.push({ text: SEAS[it.key].text, small: !!SEAS[it.key].small, x: it.x, y: it.y });
  }
  const pad = 14;
  const x0 = Math.min(...items.map((i) => i.x + i.l)) - pad, x1 = Math.max(...items.map((i) => i.x + i.r)) + pad;
  const y0 = Math.min(...items.map((i) => i.y + i.t)) - pad, y1 = Math.max(...items.map((i) => i.y + i.b)) + pad;

  const zoneOf = Object.fromEntries(regions.map((r) => [r.id, r.zone]));
  const seen = new Set(), borders = [], inside = Object.fromEntries(zones.map((z) => [z, []]));
  for (const r of regions) {
    for (const other of r.borders || []) {
      const key = [r.id, other].sort().join("-");
      if (seen.has(key) || !spots[other]) continue;
      seen.add(key);
      borders.push([r.id, other]);
      if (zoneOf[other] === r.zone) inside[r.zone].push([r.id, other]);
    }
  }
  // a zone's colours: hues a golden angle apart, so zones side by side differ
  const zoneStyle = Object.fromEntries(zones.map((z, i) => {
    const hue = Math.round((i * 137.508 + 30) % 360);
    return [z, { fill: `hsl(${hue} 55% 80%)`, spot: `hsl(${hue} 60% 94%)`, ink: `hsl(${hue} 70% 23%)` }];
  }));
  const map = {
    spots, zoneLabels, seaLabels, members, borders, inside, zoneStyle,
    box: { x: Math.floor(x0), y: Math.floor(y0), w: Math.ceil(x1 - x0), h: Math.ceil(y1 - y0) },
  };
  cache.set(data, map);
  return map;
}

// a box: what it is, where it belongs (anchor), where it is, and its extent round where it is
function item(kind, key, x, y, half, top, bottom, spring, mobility = 1) {
  return { kind, key, ax: x, ay: y, x, y, l: -half, r: half, t: top, b: bottom, spring, mobility };
}

// Push overlapping boxes apart along the shorter way out, then pull each back toward its anchor.
function relax(items) {
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i], b = items[j];
        const ox = Math.min(a.x + a.r, b.x + b.r) - Math.max(a.x + a.l, b.x + b.l) + GAP;
        const oy = Math.min(a.y + a.b, b.y + b.b) - Math.max(a.y + a.t, b.y + b.t) + GAP;
        if (ox <= 0 || oy <= 0) continue;
        const total = a.mobility + b.mobility;
        if (ox < oy) {
          const dir = a.x + (a.l + a.r) / 2 <= b.x + (b.l + b.r) / 2 ? -1 : 1;
          a.x += dir * ox * a.mobility / total; b.x -= dir * ox * b.mobility / total;
        } else {
          const dir = a.y + (a.t + a.b) / 2 <= b.y + (b.t + b.b) / 2 ? -1 : 1;
          a.y += dir * oy * a.mobility / total; b.y -= dir * oy * b.mobility / total;
        }
      }
    }
    if (round < ROUNDS - 40) { // the last rounds only separate, so no overlap is left to spring back into
      for (const it of items) { it.x += (it.ax - it.x) * it.spring; it.y += (it.ay - it.y) * it.spring; }
    }
  }
}
