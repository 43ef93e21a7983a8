// Draws one write map (the JSON note of `vx check --map --error-format=json`: the window's cells,
// each with its element index, the pass that writes it first, its block, and whether two passes
// that run at the same time both write it) as an SVG grid: a colour per block (no two blocks of
// one map share a colour), colliding cells crossed in red, and a <title> tooltip on every cell
// naming its element and its pass.
const SVG = "http://www.w3.org/2000/svg";
const CELL_W = 46, CELL_H = 22, PER_ROW = 32;

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Distinct colours for the blocks used: hues spread evenly over the used blocks only.
function palette(blocks) {
  const colours = new Map();
  blocks.forEach((b, i) => {
    const hue = (i * 360) / Math.max(blocks.length, 1);
    const light = blocks.length > 12 && i % 2 ? 78 : 86;
    colours.set(b, `hsl(${hue.toFixed(1)}, 70%, ${light}%)`);
  });
  return colours;
}

function passWords(label, form) {
  // `0:8` under `b:t` reads "block 0, lane 8"; other forms are given as they are.
  if (form === "b:t") {
    const [b, t] = label.split(":");
    return `block ${b}, lane ${t}`;
  }
  return `pass ${label} (${form})`;
}

export function drawMap(note) {
  const d = note.data;
  const figure = document.createElement("figure");
  figure.className = "write-map";
  const caption = document.createElement("figcaption");
  caption.textContent = `${note.message} (line ${note.spans[0].line_start})`;
  figure.append(caption);
  if (d.unmappable) {
    const p = document.createElement("p");
    p.textContent = `No map: ${d.unmappable}`;
    figure.append(p);
    return figure;
  }
  const window = d.window;
  const twoD = window.length === 2;
  const cols = twoD ? window[1] : Math.min(PER_ROW, window[0] || 1);
  const count = d.cells.length;
  const rows = Math.ceil(count / cols);
  const left = 40, top = 18;
  const svg = el("svg", {
    width: left + cols * CELL_W + 4,
    height: top + rows * CELL_H + 4,
    class: "map",
    role: "img",
  });
  const blocks = [...new Set(d.cells.filter((c) => c.pass !== null).map((c) => c.block))].sort(
    (a, b) => a - b,
  );
  const colours = palette(blocks);
  for (let c = 0; c < cols; ++c)
    svg.append(el("text", { x: left + c * CELL_W + CELL_W / 2, y: 12, class: "axis" }, twoD ? c : c));
  d.cells.forEach((cell, k) => {
    const r = Math.floor(k / cols), c = k % cols;
    const x = left + c * CELL_W, y = top + r * CELL_H;
    if (c === 0)
      svg.append(el("text", { x: 4, y: y + 15, class: "axis" }, twoD ? cell.index[0] : cell.index[0]));
    const g = el("g", {
      class: `cell${cell.collides ? " collides" : ""}${cell.pass === null ? " blank" : ""}`,
      "data-index": cell.index.join(","),
    });
    const where = `element [${cell.index.join("][")}]`;
    const title =
      cell.pass === null
        ? `${where}: no pass writes it`
        : cell.collides
          ? `${where}: written by ${passWords(cell.pass, d.label)} and by another pass at the same time (a race)`
          : `${where}: written by ${passWords(cell.pass, d.label)}`;
    g.append(el("title", {}, title));
    g.append(
      el("rect", {
        x,
        y,
        width: CELL_W - 2,
        height: CELL_H - 2,
        fill: cell.pass === null ? "#ffffff" : colours.get(cell.block),
        stroke: cell.collides ? "#b71c1c" : "#bbbbbb",
        "stroke-width": cell.collides ? 2 : 1,
      }),
    );
    if (cell.collides)
      g.append(el("path", { d: `M${x} ${y}L${x + CELL_W - 2} ${y + CELL_H - 2}`, stroke: "#b71c1c" }));
    if (cell.pass !== null)
      g.append(el("text", { x: x + (CELL_W - 2) / 2, y: y + 15, class: "label" }, cell.pass));
    svg.append(g);
  });
  figure.append(svg);
  const legend = document.createElement("div");
  legend.className = "legend";
  for (const b of blocks) {
    const key = document.createElement("span");
    key.className = "key";
    key.style.background = colours.get(b);
    key.textContent = `block ${b}`;
    legend.append(key);
  }
  figure.append(legend);
  const facts = document.createElement("p");
  facts.className = "map-facts";
  facts.textContent = [
    `${d.tensor}: shape [${d.shape.join(", ")}], passes labelled ${d.label}`,
    d.collided ? `${d.collided} element(s) written by two passes at once; first: ${d.first_collision}` : "no element is written twice",
    ...(d.notes || []),
  ].join(" · ");
  figure.append(facts);
  return figure;
}
