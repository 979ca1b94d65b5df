// The Drowned Earth table: draws the board and the models as SVG from the server's views,
// offers the person's legal actions the way a player thinks (pick a model, see where it can
// go and whom it can hit with the odds, answer reactions along the enemy's declared path),
// and steps through watched or recorded games. Plain JavaScript, no libraries, no network
// beyond this server.
"use strict";

const TOKEN = document.querySelector('meta[name="tde-token"]').content;
const MODE = document.body.dataset.mode;
const CELL = 20;
const SIDE_NAMES = ["A", "B", "AI"];
const SIDE_COLOURS = ["#2563eb", "#dc2626", "#15803d"]; // A, B, the AI dinosaurs
const SVG = "http://www.w3.org/2000/svg";

let fixed = null; // board, profiles, cards, scenario
let view = null; // the latest view from the server
let selection = null; // {kind: "model"|"cell"|"point", id|x,y|point}
let busy = false;
let running = false;
let timer = null;

// ---- talking to the server -------------------------------------------------------------

async function api(path, body) {
  const init = { headers: { "x-tde-token": TOKEN } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(message) {
  const box = document.getElementById("decision");
  const p = el("p", { class: "error" }, message);
  box.prepend(p);
}

async function load(at) {
  const query = at === undefined ? "" : `?at=${at}`;
  setView(await api(`/api/state${query}`));
}

async function choose(index) {
  if (busy || !view || !view.decision) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    selection = null;
    setView(await api("/api/action", { version: view.version, index }));
  } catch (e) {
    // Show the game as it is now, then say why the click was refused (kept until the next step).
    await load().catch(() => {});
    showError(`Not taken: ${e.message}`);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

async function askAdvice() {
  const box = document.getElementById("advice");
  const asked = view.version;
  box.dataset.version = asked;
  box.replaceChildren(el("p", { class: "muted" }, "The bot is thinking…"));
  try {
    const advice = await api("/api/advice", { version: asked });
    // An answer about a decision the page no longer shows is dropped.
    if (!view || view.version !== asked) return;
    renderAdvice(advice);
  } catch (e) {
    if (view && view.version === asked) box.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

// The risk of an option with the enemy's answers, asked of the server when it is picked.
const riskCache = new Map(); // "version:index" -> risk or error text
async function askRisk(o) {
  const key = `${view.version}:${o.i}`;
  if (riskCache.has(key) || MODE !== "play") return;
  riskCache.set(key, null);
  try {
    riskCache.set(key, await api("/api/risk", { version: view.version, index: o.i }));
  } catch (e) {
    riskCache.set(key, { error: e.message });
  }
  if (view && `${view.version}:${o.i}` === key) {
    renderDecision();
    renderThreats();
  }
}

// ---- small helpers ---------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  if (parent) parent.append(node);
  return node;
}

// The nodes given, without the absent ones (replaceChildren would write "null").
const present = (...nodes) => nodes.filter((n) => n !== null && n !== undefined);
const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const pct = (p) => `${Math.round(p * 100)}%`;
const num = (x) => (Math.round(x * 100) / 100).toFixed(2);
const centre = ([x, y]) => [x * CELL + CELL / 2, y * CELL + CELL / 2];
// "your side (A)" and "the bot's side (B)" when a person plays; "side A" otherwise.
const sideName = (s) => {
  if (s === null || s === undefined) return "";
  if (MODE === "play" && view && view.you !== null && s < 2) return s === view.you ? `your side (${SIDE_NAMES[s]})` : `the bot's side (${SIDE_NAMES[s]})`;
  return `side ${SIDE_NAMES[s]}`;
};
const modelById = (id) => view.models.find((m) => m.id === id);
const sameCell = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

// Who sits at a side, short enough for the status bar (the whole spec is the pill's title).
function who(side) {
  if (view.you === side) return "you";
  const spec = view.seats[side];
  return spec.length > 22 ? `${spec.split(",")[0].slice(0, 20)}…` : spec;
}

// ---- the whole view --------------------------------------------------------------------

function setView(v) {
  const changed = !view || view.version !== v.version;
  view = v;
  window.tdeView = v; // read by the browser test
  renderStatus();
  renderBoard();
  renderDecision();
  renderOver();
  renderLog();
  renderCard();
  renderScenario();
  renderControls();
  const advice = document.getElementById("advice");
  document.getElementById("advice-bar").hidden = !(MODE === "play" && v.decision);
  if (changed) {
    cardModel = null;
    renderCard();
    renderSight();
    // Advice is about one decision: a new step clears it, and asks again when kept on.
    advice.replaceChildren();
    delete advice.dataset.version;
    if (v.decision && keepAdvising()) askAdvice();
    // A new prompt is read from its title.
    if (v.decision) document.getElementById("side").scrollTop = 0;
  }
}

const keepAdvising = () => document.getElementById("keep-advising")?.checked === true;

function renderStatus() {
  const s = fixed.scenario;
  document.getElementById("title").textContent = `${s.title} · ${fixed.board.name}`;
  const toAct =
    view.to_act === "over" ? "game over"
    : view.to_act === "dice" ? "dice rolling"
    : view.you === view.to_act ? "your decision"
    : `${sideName(view.to_act)} (${view.seats[view.to_act]}) decides`;
  const parts = [
    el("span", { class: "pill" }, `turn ${view.turn}/${fixed.max_turns}`),
    el("span", { class: "pill" }, `initiative ${SIDE_NAMES[view.initiative]}`),
    ...[0, 1].map((s) =>
      el("span", { class: `pill side${s}`, title: view.seats[s] },
        `${SIDE_NAMES[s]} · ${who(s)} · ${view.vp[s]} VP · ${view.pass_tokens[s]} pass`)),
    el("span", { class: "pill now" }, toAct),
  ];
  if (view.record) {
    const file = view.record.split(/[\\/]/).pop();
    parts.push(el("span", { class: "muted small", title: view.record }, `saved as ${file}`));
  }
  document.getElementById("status").replaceChildren(...parts);
}

// ---- the board -------------------------------------------------------------------------

// A model's base radius on the board, to scale: a cell is an inch (25.4 mm).
const baseRadius = (p) => Math.max(8, Math.min(CELL, (p.base_mm / 25.4) * CELL / 2));

function terrainColour(i) {
  const h = fixed.board.height[i];
  switch (fixed.board.terrain[i]) {
    case "w": return `hsl(205, 60%, ${Math.max(40, 62 - h * 2)}%)`;
    case "r": return `hsl(75, 25%, ${Math.max(30, 52 - h * 3)}%)`;
    case "x": return "#3f3f46";
    default: return `hsl(38, ${30 + Math.min(h, 9) * 3}%, ${Math.max(40, 86 - h * 5)}%)`;
  }
}

let boardLayers = null;

function buildBoard() {
  const b = fixed.board;
  const board = document.getElementById("board");
  // Room around the board for the largest base, its rings, AP pips and wound bar.
  const pad = Math.ceil(Math.max(...fixed.profiles.map(baseRadius), 8) + 9);
  board.setAttribute("viewBox", `${-pad} ${-pad} ${b.width * CELL + 2 * pad} ${b.depth * CELL + 2 * pad}`);
  board.replaceChildren();
  const ground = svg("g", { class: "ground" }, board);
  for (let y = 0; y < b.depth; y++) {
    for (let x = 0; x < b.width; x++) {
      const i = x + y * b.width;
      svg("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: terrainColour(i), class: "cell",
        "data-x": x, "data-y": y, onclick: (e) => { e.stopPropagation(); selectCell(x, y); },
        onmouseenter: () => hoverSight(x, y) }, ground);
      const h = b.height[i];
      const sameLeft = x > 0 && b.height[i - 1] === h && b.terrain[i - 1] !== "x";
      const sameUp = y > 0 && b.height[i - b.width] === h && b.terrain[i - b.width] !== "x";
      if (h > 0 && b.terrain[i] !== "x" && !sameLeft && !sameUp) {
        svg("text", { x: x * CELL + 2, y: y * CELL + 9, class: "height" }, ground).textContent = `${h}"`;
      }
      const cover = b.cover[i];
      if (cover === "s") {
        svg("circle", { cx: x * CELL + 7, cy: y * CELL + 12, r: 4, class: "soft" }, ground);
        svg("circle", { cx: x * CELL + 13, cy: y * CELL + 9, r: 4, class: "soft" }, ground);
      } else if (cover === "h") {
        svg("rect", { x: x * CELL + 4, y: y * CELL + 9, width: 12, height: 7, class: "hard" }, ground);
      }
    }
  }
  // Cliffs: a dark line wherever neighbouring cells differ in height by more than an inch.
  const cliffs = svg("g", { class: "cliffs" }, board);
  for (let y = 0; y < b.depth; y++) {
    for (let x = 0; x < b.width; x++) {
      const i = x + y * b.width;
      if (x + 1 < b.width && Math.abs(b.height[i] - b.height[i + 1]) > 1) {
        svg("line", { x1: (x + 1) * CELL, y1: y * CELL, x2: (x + 1) * CELL, y2: (y + 1) * CELL }, cliffs);
      }
      if (y + 1 < b.depth && Math.abs(b.height[i] - b.height[i + b.width]) > 1) {
        svg("line", { x1: x * CELL, y1: (y + 1) * CELL, x2: (x + 1) * CELL, y2: (y + 1) * CELL }, cliffs);
      }
    }
  }
  svg("rect", { x: 0, y: 0, width: b.width * CELL, height: b.depth * CELL, class: "edge" }, board);
  boardLayers = {
    zones: svg("g", { class: "zones" }, board),
    options: svg("g", { class: "options" }, board),
    sequence: svg("g", { class: "sequence" }, board),
    markers: svg("g", { class: "markers" }, board),
    models: svg("g", { class: "models" }, board),
    sight: svg("g", { class: "sight" }, board),
    threats: svg("g", { class: "threats" }, board),
    preview: svg("g", { class: "preview" }, board),
  };
  board.addEventListener("mouseleave", () => hoverSight(null));
  document.getElementById("legend").replaceChildren(
    el("span", { class: "key open" }, "open ground (darker: higher; number: height in inches)"),
    el("span", { class: "key water" }, "water"),
    el("span", { class: "key rough" }, "rough ground"),
    el("span", { class: "key block" }, "impassable"),
    el("span", { class: "key soft" }, "soft cover"),
    el("span", { class: "key hard" }, "hard cover"),
    el("span", { class: "key cliff" }, "drop over 1\""),
    el("span", { class: "key zone0" }, "side A's deployment zone"),
    el("span", { class: "key zone1" }, "side B's deployment zone"),
  );
}

// Options that are places on the board (clicked as cells).
const CELL_KINDS = new Set(["move", "deploy", "dodge_move", "template", "dismount", "remount"]);
const isCellOption = (o) => Boolean(o.cell) && CELL_KINDS.has(o.kind);

function options() {
  return view.decision ? view.decision.options : [];
}

function renderBoard() {
  for (const layer of Object.values(boardLayers)) layer.replaceChildren();
  renderZones();
  renderSequence();
  renderOptionsOnBoard();
  renderMarkers();
  renderModels();
  renderThreats();
  renderSight();
}

// For the picked option, a dashed red line from every enemy model that answered it in the
// samples to where the option goes (or to the mover): the threat to that place.
function renderThreats() {
  boardLayers.threats.replaceChildren();
  const focus = options().filter(selected);
  for (const o of focus) {
    const r = riskCache.get(`${view.version}:${o.i}`);
    if (!r || !r.reactors) continue;
    const to = o.cell || modelById(o.model)?.at;
    if (!to) continue;
    const [x2, y2] = centre(to);
    for (const x of r.reactors) {
      const m = modelById(x.model);
      if (!m || !m.on_table) continue;
      const [x1, y1] = centre(m.at);
      const line = svg("line", { x1, y1, x2, y2, class: "threat" }, boardLayers.threats);
      svg("title", {}, line).textContent = `${x.name} answered in ${pct(x.answered)} of the samples`;
    }
  }
}

// ---- sight, cover and threat of a cell ----------------------------------------------------

// What the enemy sees of a cell and could do there, asked of the server (cached per step).
const sightCache = new Map(); // "version:x,y:model" -> overlay, null while asked, or {error}
let sightHover = null; // [x, y] under the pointer
let sightTimer = null;

// The person's model imagined on the cell: the picked model when it is theirs, else the
// server's choice (the model acting now, else their first).
function sightFigure() {
  if (selection && selection.kind === "model") {
    const m = modelById(selection.id);
    if (m && view.you !== null && m.side === view.you) return m.id;
  }
  return null;
}

// The cell the overlay is about: the one under the pointer, else the picked one.
function sightCell() {
  if (sightHover) return sightHover;
  if (selection && selection.kind === "cell") return [selection.x, selection.y];
  return null;
}

function sightKey(cell) {
  return `${view.at}:${cell[0]},${cell[1]}:${sightFigure() ?? ""}`;
}

function hoverSight(x, y) {
  sightHover = x === null ? null : [x, y];
  clearTimeout(sightTimer);
  if (!view) return;
  const cell = sightCell();
  if (!cell || sightCache.has(sightKey(cell))) return renderSight();
  // Asked once the pointer rests a moment on the cell.
  sightTimer = setTimeout(renderSight, 60);
}

async function askSight(cell) {
  const key = sightKey(cell);
  sightCache.set(key, null);
  const body = { version: view.at, x: cell[0], y: cell[1] };
  const figure = sightFigure();
  if (figure !== null) body.model = figure;
  try {
    sightCache.set(key, await api("/api/sight", body));
  } catch (e) {
    sightCache.set(key, { error: e.message });
  }
  // Drawn if the cell is still the one shown.
  if (view && sightCell() && sightKey(sightCell()) === key) renderSight();
}

// "Marksmanship 7, soft cover −1 = 6".
function modifiedText(name, base, attr, modifiers) {
  if (!modifiers || !modifiers.length) return `${name} ${attr}`;
  const items = modifiers.map((m) => `${m.why} ${m.by < 0 ? "−" : "+"}${Math.abs(m.by)}`);
  return `${name} ${base}, ${items.join(", ")} = ${attr}`;
}

function shotText(s) {
  return `${s.weapon} (${s.band} range): ${modifiedText("Marksmanship", s.base, s.attr, s.modifiers)}, needs ${s.needed}: ${pct(s.success)}`;
}

function renderSight() {
  if (!boardLayers || !view) return;
  const layer = boardLayers.sight;
  layer.replaceChildren();
  const box = document.getElementById("sight");
  const cell = sightCell();
  if (!cell) { box.replaceChildren(el("span", { class: "muted" }, "Point at (or tap) any cell: which enemy models would see your model there, from cover or not, and which could shoot or charge it.")); return; }
  const key = sightKey(cell);
  if (!sightCache.has(key)) askSight(cell);
  const data = sightCache.get(key);
  const [tx, ty] = centre(cell);
  svg("rect", { x: cell[0] * CELL, y: cell[1] * CELL, width: CELL, height: CELL, class: "sight-cell" }, layer);
  if (!data) { box.replaceChildren(el("span", { class: "muted" }, `(${cell[0]},${cell[1]}): looking…`)); return; }
  if (data.error) { box.replaceChildren(el("span", { class: "error" }, data.error)); return; }
  const lines = [];
  for (const e of data.enemies) {
    const m = modelById(e.id);
    if (!m || !m.on_table) continue;
    const [x1, y1] = centre(m.at);
    const kind = e.shots.length ? "shoot" : e.charge ? "charge" : "sees";
    const line = svg("line", { x1, y1, x2: tx, y2: ty, class: `sight-line ${kind}${e.cover && e.cover !== "no cover" ? " covered" : ""}`, "data-model": e.id }, layer);
    const best = e.shots.reduce((a, s) => (a && a.success >= s.success ? a : s), null);
    const tag = best ? `shoot ${pct(best.success)}` : e.charge ? "charge" : e.cover === "no cover" ? "sees" : "sees (cover)";
    svg("title", {}, line).textContent = `${e.name}: ${tag}`;
    svg("text", { x: (x1 * 2 + tx) / 3, y: (y1 * 2 + ty) / 3 - 2, class: `sight-label ${kind}` }, layer).textContent = tag;
    const does = [];
    does.push(e.sees ? `sees it${e.cover === "no cover" ? " in the open" : ` past ${e.cover}`}` : "cannot see it");
    for (const s of e.shots) does.push(`could shoot: ${shotText(s)}`);
    if (e.charge) does.push("could charge it");
    lines.push(el("li", { class: `sight-${kind}` }, el("b", {}, `${e.name} (${e.ap} AP, ${num(e.distance)}" away)`), `: ${does.join(" · ")}`));
  }
  const head = el("div", {}, el("b", {}, `(${cell[0]},${cell[1]}), ${data.height}" high, for ${data.figure.name}: `), data.summary);
  if (lines.length) box.replaceChildren(head, el("ul", { class: "sight-list" }, lines));
  else box.replaceChildren(head);
}

// Deployment zones while models are still to be deployed: each side's cells in its colour.
function renderZones() {
  const zones = view.zones;
  document.getElementById("legend").classList.toggle("deploying", Boolean(zones));
  if (!zones) return;
  const w = fixed.board.width;
  zones.forEach((cells, side) => {
    for (let i = 0; i < cells.length; i++) {
      if (cells[i] !== "1") continue;
      svg("rect", { x: (i % w) * CELL, y: Math.floor(i / w) * CELL, width: CELL, height: CELL, class: `zone zone${side}` }, boardLayers.zones);
    }
  });
}

function renderSequence() {
  const seq = view.sequence;
  if (!seq) return;
  const layer = boardLayers.sequence;
  const points = [seq.origin, ...seq.path.map((p) => [p[0], p[1]])];
  if (points.length > 1) {
    svg("polyline", { points: points.map(centre).map((c) => c.join(",")).join(" "), class: "declared" }, layer);
    const reactionPoints = new Set(options().filter((o) => o.point !== undefined && o.point !== null).map((o) => o.point));
    points.forEach((p, k) => {
      const [cx, cy] = centre(p);
      const offered = reactionPoints.has(k);
      const chosen = selection && selection.kind === "point" && selection.point === k;
      const dot = svg("circle", { cx, cy, r: offered ? 6 : 3.5,
        class: `pt${offered ? " offered" : ""}${k <= seq.reached ? " reached" : ""}${chosen ? " chosen" : ""}`,
        "data-point": k }, layer);
      if (offered) dot.addEventListener("click", (e) => { e.stopPropagation(); selectPoint(k); });
      if (offered || k === points.length - 1) {
        // Below the point on the top row, where a label above would leave the board.
        svg("text", { x: cx + 6, y: cy < CELL ? cy + 12 : cy - 6, class: "ptlabel" }, layer).textContent = k;
      }
    });
  }
  for (const r of seq.rolls) {
    if (r.target === null || r.kind === "dodge") continue;
    const from = r.role === "main" || r.role === "nested" || r.role === "firefight"
      ? points[Math.min(r.point, points.length - 1)] : modelById(r.model)?.at;
    const target = r.role === "reaction" ? points[Math.min(r.point, points.length - 1)] : modelById(r.target)?.at;
    if (!from || !target) continue;
    const [x1, y1] = centre(from);
    const [x2, y2] = centre(target);
    svg("line", { x1, y1, x2, y2, class: `attack ${r.cancelled ? "cancelled" : ""}` }, layer);
  }
}

function renderOptionsOnBoard() {
  const layer = boardLayers.options;
  const byCell = new Map();
  for (const o of options()) {
    if (o.cell) {
      const key = o.cell.join(",");
      if (!byCell.has(key)) byCell.set(key, []);
      byCell.get(key).push(o);
    }
    if (o.zone) renderZone(o);
  }
  for (const [key, list] of byCell) {
    const [x, y] = key.split(",").map(Number);
    const picked = selection && selection.kind === "cell" && selection.x === x && selection.y === y;
    const kinds = new Set(list.map((o) => o.kind));
    const cls = kinds.has("charge") ? "charge" : kinds.has("deploy") ? "deploy" : kinds.has("template") ? "aim" : "dest";
    const dynamic = list.some((o) => o.dynamic);
    const rect = svg("rect", { x: x * CELL + 1, y: y * CELL + 1, width: CELL - 2, height: CELL - 2,
      class: `target-cell ${cls}${dynamic ? " dynamic" : ""}${picked ? " picked" : ""}`, "data-x": x, "data-y": y,
      "data-options": list.map((o) => o.i).join(" ") }, layer);
    rect.addEventListener("mouseenter", () => { previewPath(list[0]); hoverSight(x, y); });
    rect.addEventListener("mouseleave", () => boardLayers.preview.replaceChildren());
    rect.addEventListener("click", (e) => { e.stopPropagation(); selectCell(x, y); });
  }
  if (selection && selection.kind === "cell") {
    const o = options().find((o) => sameCell(o.cell, [selection.x, selection.y]));
    if (o) previewPath(o);
  }
}

function renderZone(o) {
  const layer = boardLayers.options;
  const b = fixed.board;
  const w = b.width * CELL, d = b.depth * CELL;
  let shape;
  if (o.zone.edge !== undefined) {
    const lines = [[0, 0, w, 0], [0, d, w, d], [0, 0, 0, d], [w, 0, w, d]];
    const [x1, y1, x2, y2] = lines[o.zone.edge];
    shape = svg("line", { x1, y1, x2, y2, class: "zone-choice" }, layer);
  } else {
    const [cx, cy] = centre(o.zone.corner);
    shape = svg("circle", { cx, cy, r: CELL * 2, class: "zone-choice" }, layer);
  }
  shape.addEventListener("click", (e) => { e.stopPropagation(); choose(o.i); });
  shape.append(svg("title", {}));
  shape.lastChild.textContent = o.text;
}

function previewPath(o) {
  const layer = boardLayers.preview;
  layer.replaceChildren();
  if (!o || !o.path) return;
  const actor = modelById(o.model);
  const start = actor ? actor.at : null;
  const points = (start ? [start] : []).concat(o.path);
  svg("polyline", { points: points.map(centre).map((c) => c.join(",")).join(" "), class: `path ${o.dynamic ? "dynamic" : ""}` }, layer);
  const [ex, ey] = centre(o.cell);
  const label = `${o.length}"${o.test ? ` · ${o.test.name} ${o.test.attr}: ${pct(o.test.success)}` : ""}`;
  svg("text", { x: ex + 8, y: ey < CELL ? ey + 14 : ey - 8, class: "pathlabel" }, layer).textContent = label;
}

function renderMarkers() {
  const layer = boardLayers.markers;
  for (const m of view.scenario.markers) {
    if (!m.loose) continue;
    const [cx, cy] = centre(m.at);
    const g = svg("g", { class: "marker" }, layer);
    const cls = m.kind.startsWith("objective") || m.kind.startsWith("prize") ? `own${m.kind.endsWith("A") ? 0 : 1}` : "neutral";
    svg("polygon", { points: `${cx},${cy - 9} ${cx + 9},${cy} ${cx},${cy + 9} ${cx - 9},${cy}`, class: `marker-shape ${cls}` }, g);
    const label = m.kind === "numbered" ? (m.number ?? "?") : m.kind === "central" ? "C" : m.kind.startsWith("prize") ? "P" : "O";
    svg("text", { x: cx, y: cy + 3.5, class: "marker-label" }, g).textContent = label;
    const t = svg("title", {}, g);
    t.textContent = `marker ${m.index + 1}: ${m.kind}${m.number ? `, number ${m.number}` : ""}${m.controller !== null ? `, held by ${sideName(m.controller)}` : ""}`;
  }
  // Ambush markers: enemies not seen yet, passive (?) or active (!).
  for (const a of view.ambush || []) {
    const [cx, cy] = centre(a.at);
    const g = svg("g", { class: "marker" }, layer);
    svg("circle", { cx, cy, r: 8, class: `marker-shape ambush${a.active ? " active" : ""}` }, g);
    svg("text", { x: cx, y: cy + 3.5, class: "marker-label" }, g).textContent = a.active ? "!" : "?";
    svg("title", {}, g).textContent = `ambush marker ${a.index + 1}: ${a.active ? "active" : "passive"}`;
  }
}

function renderModels() {
  const layer = boardLayers.models;
  const actionable = new Map(); // model id -> options about it
  for (const o of options()) {
    for (const id of [o.model, o.target]) {
      if (id === null || id === undefined) continue;
      if (!actionable.has(id)) actionable.set(id, []);
      actionable.get(id).push(o);
    }
  }
  for (const m of view.models) {
    if (!m.on_table) continue;
    const [cx, cy] = centre(m.at);
    const g = svg("g", { class: `model side${m.side}${m.activated ? " activated" : ""}`, "data-model": m.id }, layer);
    const targeted = options().some((o) => o.target === m.id);
    // The base to scale: a cell is an inch (25.4 mm).
    const r = baseRadius(fixed.profiles[m.profile]);
    const active = view.activating === m.id;
    if (actionable.has(m.id)) svg("circle", { cx, cy, r: r + 3.5, class: targeted ? "ring target" : "ring mine" }, g);
    if (selection && selection.kind === "model" && selection.id === m.id) svg("circle", { cx, cy, r: r + 5, class: "ring selected" }, g);
    if (active) svg("circle", { cx, cy, r: r + 2, class: "ring active" }, g);
    const down = m.health !== "conscious";
    const fill = down ? "#71717a" : SIDE_COLOURS[m.side];
    if (m.stance === "prone" || down) svg("ellipse", { cx, cy, rx: r + 1, ry: r * 0.65, fill, class: "body" }, g);
    else svg("circle", { cx, cy, r, fill, class: `body${m.stealth ? " stealth" : ""}` }, g);
    // Clicks on a model land within its own cell, so that the cells around a large base stay
    // clickable.
    svg("circle", { cx, cy, r: CELL * 0.45, class: "hit" }, g);
    svg("text", { x: cx, y: cy + r * 0.42, class: "letter", "font-size": r * 1.2 }, g).textContent = down ? "✕" : m.letter;
    // Wounds: a bar under the base, with the count.
    const frac = m.wounds_max ? m.wounds / m.wounds_max : 0;
    const bw = Math.max(2 * r, 18);
    svg("rect", { x: cx - bw / 2, y: cy + r + 1, width: bw, height: 5, rx: 1, class: "wbar-bg" }, g);
    svg("rect", { x: cx - bw / 2, y: cy + r + 1, width: bw * frac, height: 5, rx: 1, class: "wbar", fill: `hsl(${frac * 120}, 70%, 40%)` }, g);
    svg("text", { x: cx + bw / 2 + 1.5, y: cy + r + 6, class: "wtext" }, g).textContent = `${m.wounds}W`;
    // AP: pips over the base (filled: AP left).
    for (let k = 0; k < m.ap_max; k++) {
      svg("circle", { cx: cx - (m.ap_max - 1) * 3.5 + k * 7, cy: cy - r - 4, r: 3, class: k < m.ap ? "ap on" : "ap" }, g);
    }
    const badges = [];
    if (m.stance === "swimming") badges.push("swim");
    if (m.stance === "climbing") badges.push("climb");
    if (m.stance === "prone") badges.push("prone");
    if (m.fire) badges.push(`fire ${m.fire}`);
    if (m.blind) badges.push("blind");
    if (m.slow[0] || m.slow[1]) badges.push("slow");
    if (m.jammed.length) badges.push("jammed");
    if (m.carries.length) badges.push("◆ carries");
    if (m.z > fixed.board.height[m.at[0] + m.at[1] * fixed.board.width]) badges.push(`${m.z}" up`);
    if (badges.length) {
      // Near the right edge the badges go to the left of the base, so that none is cut off.
      const left = cx > fixed.board.width * CELL - 90;
      svg("text", { x: left ? cx - r - 1 : cx + r + 1, y: cy - r + 2, class: "badge", "text-anchor": left ? "end" : "start" }, g).textContent = badges.join(" · ");
    }
    g.addEventListener("mouseenter", (e) => showTip(m, e));
    g.addEventListener("mousemove", (e) => moveTip(e));
    g.addEventListener("mouseleave", hideTip);
    g.addEventListener("click", (e) => { e.stopPropagation(); selectModel(m.id); });
  }
}

// ---- selection ---------------------------------------------------------------------------

function selectModel(id) {
  const m = modelById(id);
  // The enemy's mover stands on the start of its path: during a reaction prompt, clicking it
  // picks that point (reactions "at the start").
  const seq = view.sequence;
  if (seq && seq.actor === id && options().some((o) => o.kind === "react" && o.point === 0)) return selectPoint(0);
  // A model standing on a cell that is itself a choice (a dodge move staying put, a template
  // aimed at it): the click is about that cell.
  if (m && m.on_table && options().some((o) => isCellOption(o) && sameCell(o.cell, m.at))) return selectCell(m.at[0], m.at[1]);
  const about = options().filter((o) => o.model === id || o.target === id);
  selection = { kind: "model", id };
  renderBoard();
  renderDecision();
  renderCard();
  // A single option about this model (activating it) is taken with one click.
  if (about.length === 1 && (about[0].kind === "activate" || about[0].kind === "nominate")) choose(about[0].i);
}

// The options about cell (x, y): those that go there, and those aimed at the model standing there.
function optionsAt(x, y) {
  const model = view.models.find((m) => m.on_table && sameCell(m.at, [x, y]));
  return options().filter((o) => sameCell(o.cell, [x, y]) || (model && o.target === model.id));
}

function selectCell(x, y) {
  const here = options().filter((o) => sameCell(o.cell, [x, y]));
  const model = view.models.find((m) => m.on_table && sameCell(m.at, [x, y]));
  if (!here.length && model) {
    selection = { kind: "model", id: model.id };
    renderBoard();
    renderDecision();
    renderCard();
    return;
  }
  // The first click (tap) on a place shows its options and odds; a second one on the same
  // place takes the option when it is the only one there.
  const again = selection && selection.kind === "cell" && selection.x === x && selection.y === y;
  selection = here.length ? { kind: "cell", x, y } : null;
  renderBoard();
  renderDecision();
  hoverSight(x, y);
  const all = optionsAt(x, y);
  if (again && all.length === 1) choose(all[0].i);
}

function selectPoint(k) {
  selection = { kind: "point", point: k };
  renderBoard();
  renderDecision();
}

function selected(o) {
  if (!selection) return false;
  switch (selection.kind) {
    case "model": return o.model === selection.id || o.target === selection.id;
    case "cell": return optionsAt(selection.x, selection.y).includes(o);
    case "point": return o.point === selection.point;
    default: return false;
  }
}

// ---- the decision panel ----------------------------------------------------------------

// Decisions whose options start or change an action the enemy may answer.
const RISKY = new Set(["action", "nested", "firefight"]);

const STEP_HELP = {
  initiative: "You lost the roll-off: keep the initiative or hand it over.",
  activation: "Click one of your models to activate it (ringed in green), or discard a pass token.",
  action: "Green cells: where it can move (hover to see the path; amber cells need a movement test). Red rings: whom it can shoot or charge. Click (tap) once to see the odds and the enemy's likely answers, again to do it.",
  reaction: "The enemy declared its action. Pick a reacting model or a point of its path (numbered circles) to see your reactions there, with the odds at that point.",
  nested: "You may nest a shoot or dodge at a point of your path, for one more AP.",
  firefight: "A model reacted to your move: you may answer it with a firefight.",
  fall_point: "The mover blundered: choose the path point it falls from.",
  mid_air: "Stopped mid-leap: rest back at the last resting point, or fall.",
  dodge_move: "Choose where the dodge move ends.",
  setup: "Set-up: the cells, edges or corners ringed in colour are yours to choose; hover a model, or use the Profile cards buttons, for its card.",
  card: "You may play a card now.",
  command: "Your leader may give a command order.",
};

// The engine's prompt names the side ("side B: ..."); the person reads it as theirs.
function promptText(prompt) {
  const mine = `your side (${SIDE_NAMES[view.you]}): `;
  return prompt.startsWith(mine) ? `Your decision: ${prompt.slice(mine.length)}` : capitalised(prompt);
}

// "Marksmanship 7, soft cover −1 = 6, needs Nailed It (long range): 12%".
function testText(t) {
  const attr = modifiedText(t.name, t.base, t.attr, t.modifiers);
  const why = t.why ? ` (${t.why})` : "";
  return `${attr}, needs ${t.needed}${why}: ${pct(t.success)}`;
}

function oddsText(o) {
  const parts = [];
  if (o.test) parts.push(testText(o.test));
  if (o.odds) {
    const step = view.decision.step;
    if (o.odds.dealt > 0.005) parts.push(`deals ${num(o.odds.dealt)} W`);
    if (o.odds.taken > 0.005) parts.push(`takes ${num(o.odds.taken)} W`);
    if (step === "reaction" && o.odds.active_hit > 0.0005) parts.push(`mover hit ${pct(o.odds.active_hit)}`);
    if (step !== "reaction" && o.odds.active_hit > 0.0005) parts.push(`you are hit ${pct(o.odds.active_hit)}`);
    if (o.odds.active_down > 0.0005) parts.push(`mover down ${pct(o.odds.active_down)}`);
  }
  return parts.join(" · ");
}

// The option's outcome with the enemy's answers, once the server has worked it out.
function riskLine(o) {
  const r = riskCache.get(`${view.version}:${o.i}`);
  if (r === undefined) return null;
  if (r === null) return el("span", { class: "risk muted" }, "with their answers: working it out…");
  if (r.error) return el("span", { class: "risk error" }, r.error);
  const parts = [];
  if (r.reactors.length) {
    parts.push(`may answer: ${r.reactors.map((x) => `${x.name} (${x.ap} AP${x.answered > 0 ? `, answered in ${pct(x.answered)}` : ""})`).join(", ")}`);
  } else {
    parts.push("no enemy answered");
  }
  parts.push(`your models take ${num(r.taken)} W`);
  if (r.dealt > 0.005) parts.push(`deal ${num(r.dealt)} W`);
  if (r.mover_down > 0.0005) parts.push(`${r.mover} down or out ${pct(r.mover_down)}`);
  return el("span", { class: "risk" }, el("b", {}, `With their answers (${r.method}): `), parts.join(" · "),
    el("span", { class: "muted" }, ` (${r.how})`));
}

function optionButton(o) {
  const odds = oddsText(o);
  return el("button", { class: "opt", "data-i": o.i, "data-kind": o.kind, onclick: () => choose(o.i),
    onmouseenter: () => previewPath(o), onmouseleave: () => boardLayers.preview.replaceChildren() },
    el("span", { class: "opt-text" }, o.text), odds ? el("span", { class: "odds" }, odds) : null,
    o.downed ? el("span", { class: "downed" }, o.downed) : null,
    o.card ? el("span", { class: "card-text" }, o.card) : null, riskLine(o));
}

function renderDecision() {
  const box = document.getElementById("decision");
  box.replaceChildren();
  if (!view.decision) {
    if (view.to_act !== "over" && MODE === "play") box.append(el("p", { class: "muted" }, `Waiting: ${view.node}`));
    if (MODE !== "play") {
      box.append(el("p", {}, el("b", {}, "Now: "), view.node));
      if (view.next) box.append(el("p", {}, el("b", {}, "Next: "), view.next));
    }
    return;
  }
  const d = view.decision;
  box.append(el("h2", {}, promptText(d.prompt)));
  if (STEP_HELP[d.step]) box.append(el("p", { class: "help" }, STEP_HELP[d.step]));
  if (d.step === "setup") {
    // Set-up choices (the courier, a grudge) come before the models stand on the table: each
    // model the options name has its profile card a click (tap) away.
    const named = [...new Set(d.options.flatMap((o) => [o.model, o.target]))].map((id) => (id === null || id === undefined ? null : modelById(id))).filter(Boolean);
    if (named.length) {
      box.append(el("div", { class: "cardlinks" }, el("span", { class: "small" }, "Profile cards: "),
        named.map((m) => el("button", { class: `cardlink side${m.side}`, "data-model": m.id, onclick: () => showCard(m.id) }, `${m.name} [${m.letter}]`))));
    }
  }
  if (d.step === "reaction" && view.sequence) {
    box.append(el("p", { class: "declared-text" }, `Declared: ${view.sequence.declared}`));
  }
  const all = d.options;
  const focus = all.filter(selected);
  if (focus.length) {
    const title = selection.kind === "point" ? `At path point ${selection.point}` :
      selection.kind === "cell" ? `At (${selection.x},${selection.y})` : `${modelById(selection.id)?.name ?? "Model"}`;
    if (RISKY.has(d.step)) focus.filter((o) => o.kind !== "end_activation").slice(0, 8).forEach(askRisk);
    box.append(el("h3", {}, title), el("div", { class: "opts focus" }, focus.map(optionButton)),
      el("button", { class: "link", onclick: () => { selection = null; renderBoard(); renderDecision(); } }, "clear selection"));
  }
  // Everything else, grouped: cell choices are summarised (they are on the board).
  const cells = all.filter(isCellOption);
  const rest = all.filter((o) => !isCellOption(o) && !focus.includes(o));
  if (rest.length) box.append(el("h3", {}, focus.length ? "Other options" : "Options"), el("div", { class: "opts" }, rest.map(optionButton)));
  if (cells.length) {
    box.append(el("details", { class: "cells" }, el("summary", {}, `${cells.length} places on the board (the coloured cells), or pick from this list`),
      el("div", { class: "opts" }, cells.map(optionButton))));
  }
}

function renderAdvice(advice) {
  const box = document.getElementById("advice");
  const label = advice.kind === "search" ? `share of its search (${advice.total} visits in all)` : advice.kind === "network" ? "network probability" : "its choice";
  const rows = advice.candidates.map((c) => {
    const o = options()[c.i];
    const reasons = [];
    if (o && oddsText(o)) reasons.push(oddsText(o));
    if (c.playouts) reasons.push(`played on ${c.playouts.n}×: you win ${pct(c.playouts.win)}, VP ${c.playouts.vp >= 0 ? "+" : ""}${num(c.playouts.vp)}, wounds you take ${num(c.playouts.taken)} / deal ${num(c.playouts.dealt)}`);
    return el("li", { onmouseenter: () => { if (o) previewPath(o); } },
      el("span", { class: "bar", style: `width:${Math.round(c.share * 100)}%` }),
      el("span", {}, `${pct(c.share)} · ${c.text}`), advice.kind === "search" ? el("span", { class: "muted" }, ` (${Math.round(c.weight)} visits)`) : null,
      reasons.length ? el("span", { class: "why" }, reasons.join(" · ")) : null);
  });
  box.replaceChildren(el("h3", {}, `The bot would play (step ${view.version})`), el("p", { class: "muted small" }, label +
    (advice.value !== null ? ` · its value for you: ${num(advice.value)}` : "") + `. ${advice.playouts_how}`), el("ol", { class: "advice" }, rows));
}

function renderOver() {
  const box = document.getElementById("over");
  if (!view.over) { box.hidden = true; return; }
  box.hidden = false;
  const w = view.over.winner;
  const verdict = w === null ? "A draw" : view.you === w ? "You win!" : view.you === null ? `Side ${SIDE_NAMES[w]} wins` : "The bot wins";
  box.replaceChildren(...present(el("h2", {}, verdict), el("p", {}, `${capitalised(view.over.reason)}. VP: A ${view.over.vp[0]}, B ${view.over.vp[1]}.`),
    view.record ? el("p", { class: "small" }, `The game is saved in ${view.record} (tde replay, tde view).`) : null));
}

function renderLog() {
  const log = document.getElementById("log");
  const items = view.log.map((e) => {
    const level = /: (Blunder|Fail|Pass|Nailed It|Feat)/i.exec(e.text);
    return el("li", { class: `log-${e.kind}${e.side !== null ? ` side${e.side}` : ""}${level ? ` lvl-${level[1].toLowerCase().replace(" ", "")}` : ""}` }, e.text);
  });
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
}

// ---- the scenario --------------------------------------------------------------------

function renderScenario() {
  const s = fixed.scenario;
  const sc = view.scenario;
  const name = (id) => { const m = modelById(id); return m ? `${m.name} [${m.letter}]` : `model ${id}`; };
  const lines = [];
  sc.grudges.forEach((g, side) => {
    if (g) lines.push(`${sideName(side)}'s grudge: ${name(g.holder)} against ${name(g.target)}${g.complete ? " (done)" : ""}${g.revealed ? "" : " (secret)"}`);
  });
  sc.couriers.forEach((c, side) => { if (c !== null) lines.push(`${sideName(side)}'s courier: ${name(c)}`); });
  sc.sought.forEach((n, side) => { if (n !== null) lines.push(`${sideName(side)} seeks number ${n}`); });
  for (const m of sc.markers) {
    if (!m.placed && m.holder === null) continue;
    const where = m.holder !== null ? `carried by ${name(m.holder)}` : m.off_table ? "off the table" : `at (${m.at[0]},${m.at[1]})`;
    const number = m.kind === "numbered" ? (m.number === null ? ", number unknown to you" : `, number ${m.number}`) : "";
    const held = m.controller !== null ? `, controlled by ${sideName(m.controller)}` : "";
    lines.push(`marker ${m.index + 1} (${m.kind}) ${where}${number}${held}`);
  }
  document.getElementById("scenario").replaceChildren(...present(
    el("h3", {}, `${s.title} (p.${s.page})`), el("p", { class: "small" }, s.summary),
    el("p", { class: "small" }, `The scenario's player A is ${sideName(sc.player_a)}.`),
    lines.length ? el("ul", { class: "small" }, lines.map((l) => el("li", {}, l))) : null));
}

// ---- profile cards -----------------------------------------------------------------------

function cardFor(m) {
  const p = fixed.profiles[m.profile];
  const stats = [["AP", `${m.ap}/${p.ap_max} (+${p.ap_gain})`], ["Speed", `${p.speed[0]}/${p.speed[1]}"`],
    ["Wounds", `${m.wounds}/${p.wounds}`], ["CC", p.cc], ["Ag", p.agility], ["Ms", p.marksmanship],
    ["Int", p.intelligence], ["T", p.toughness], ["Arm", p.armour]];
  const state = [m.health, m.stance, m.activated ? "activated" : "not yet activated"];
  if (m.fire) state.push(`${m.fire} fire token(s)`);
  if (m.blind) state.push("blinded");
  if (m.slow[0] || m.slow[1]) state.push(`slowed ${m.slow[0]}/${m.slow[1]}`);
  if (m.stealth) state.push("stealthed");
  if (m.jammed.length) state.push(`jammed: ${m.jammed.join(", ")}`);
  if (m.broken.length) state.push(`broken: ${m.broken.join(", ")}`);
  if (m.carries.length) state.push(`carries marker ${m.carries.map((i) => i + 1).join(", ")}`);
  if (m.leader_rule) state.push(`covered by the leader's rule "${m.leader_rule.name}": ${m.leader_rule.text}`);
  return el("div", { class: `profile side${m.side}` },
    el("h3", {}, `${m.name} [${m.letter}]`, el("span", { class: "muted small" }, ` ${sideName(m.side)} · ${p.faction} · ${p.type} ${p.role} · ${p.points} pts`)),
    el("table", { class: "stats" }, el("tr", {}, stats.map(([k]) => el("th", {}, k))), el("tr", {}, stats.map(([, v]) => el("td", {}, v)))),
    el("table", { class: "weapons" }, el("tr", {}, el("th", {}, "weapon"), el("th", {}, "range"), el("th", {}, "damage"), el("th", {}, "properties")),
      p.weapons.map((w) => el("tr", {}, el("td", {}, w.name), el("td", {}, w.range ? `${w.range[0]}/${w.range[1]}"` : "close"),
        el("td", {}, `${w.damage[0]}/${w.damage[1]}`), el("td", {}, w.properties.join(", "))))),
    p.skills.length ? el("p", { class: "small" }, `Skills: ${p.skills.join(", ")}`) : null,
    el("p", { class: "small" }, `Now: ${state.join(", ")} · ${m.on_table ? `at (${m.at[0]},${m.at[1]}), height ${m.z}"` : "not on the table"}`));
}

// The model whose card a "Profile cards" button opened, until the next step.
let cardModel = null;

function showCard(id) {
  cardModel = id;
  renderCard();
  document.getElementById("card").scrollIntoView({ block: "nearest" });
}

function renderCard() {
  const box = document.getElementById("card");
  const id = selection && selection.kind === "model" ? selection.id : cardModel;
  const m = id === null ? null : modelById(id);
  box.replaceChildren(m ? cardFor(m) : el("p", { class: "muted small" }, "Hover over a model for its profile card; click it to keep the card here."));
}

function showTip(m, e) {
  const tip = document.getElementById("tip");
  tip.replaceChildren(cardFor(m));
  tip.hidden = false;
  moveTip(e);
}

function moveTip(e) {
  const tip = document.getElementById("tip");
  tip.style.left = `${Math.min(e.clientX + 16, window.innerWidth - tip.offsetWidth - 8)}px`;
  tip.style.top = `${Math.min(e.clientY + 16, window.innerHeight - tip.offsetHeight - 8)}px`;
}

function hideTip() {
  document.getElementById("tip").hidden = true;
}

// ---- watching and viewing ----------------------------------------------------------------

function renderControls() {
  if (MODE === "play") return;
  document.getElementById("controls").hidden = false;
  const scrub = document.getElementById("scrub");
  scrub.max = view.version;
  scrub.value = view.at;
  document.getElementById("where").textContent = `step ${view.at} of ${view.version}${view.over && view.at === view.version ? " (end)" : ""}`;
  document.getElementById("run").textContent = running ? "⏸ pause" : "▶ play";
}

async function stepTo(at) {
  if (busy) return;
  busy = true;
  try {
    if (MODE === "watch" && at > view.version && !view.over) setView(await api("/api/advance", {}));
    else await load(Math.max(0, Math.min(at, view.version)));
  } catch (e) {
    showError(e.message);
    running = false;
  } finally {
    busy = false;
  }
}

function tick() {
  if (!running) return;
  const atEnd = view.at >= view.version && (MODE === "view" || view.over);
  if (atEnd) {
    running = false;
    renderControls();
    return;
  }
  stepTo(view.at + 1).then(() => { timer = setTimeout(tick, Number(document.getElementById("speed").value)); });
}

function wireControls() {
  const on = (id, f) => document.getElementById(id).addEventListener("click", f);
  on("first", () => stepTo(0));
  on("back", () => stepTo(view.at - 1));
  on("forward", () => stepTo(view.at + 1));
  on("last", () => stepTo(view.version));
  on("run", () => {
    running = !running;
    clearTimeout(timer);
    renderControls();
    tick();
  });
  document.getElementById("scrub").addEventListener("change", (e) => stepTo(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") stepTo(view.at + 1);
    if (e.key === "ArrowLeft") stepTo(view.at - 1);
  });
}

// ---- start -------------------------------------------------------------------------------

async function start() {
  try {
    fixed = await api("/api/fixed");
    buildBoard();
    if (MODE !== "play") wireControls();
    document.getElementById("ask").addEventListener("click", askAdvice);
    document.getElementById("keep-advising").addEventListener("change", (e) => { if (e.target.checked && view && view.decision) askAdvice(); });
    document.getElementById("board").addEventListener("click", () => {
      selection = null;
      renderBoard();
      renderDecision();
      renderCard();
    });
    await load(MODE === "play" ? undefined : 0);
  } catch (e) {
    document.getElementById("decision").replaceChildren(el("p", { class: "error" }, `Cannot load the game: ${e.message}`));
  }
}

start();
