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
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    serverGone();
    throw new Error("the table's server is not answering");
  }
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    if (data.reload) staleSession();
    throw new Error(data.error || response.statusText);
  }
  return data;
}

// A notice above the decision, in plain words: why a click was not taken, what the page is
// doing. `calm` ones are information, the others a refusal; each stays until the next step.
function notice(text, calm) {
  if (reloading && !calm) return; // the page is about to reload, and says so
  const box = document.getElementById("notice");
  box.textContent = text;
  box.classList.toggle("calm", Boolean(calm));
  box.hidden = false;
  box.dataset.version = view ? view.version : "";
}

// This page is from an earlier start of the server (its session token is no longer valid):
// it reloads itself to join the server as it is now, once; the reloaded page says why.
let reloading = false;
function staleSession() {
  if (reloading) return;
  const last = Number(sessionStorage.getItem("tde-reloaded") || 0);
  if (Date.now() - last < 20000) {
    notice("This page belongs to an earlier start of the table, and reloading it did not help: reload the page yourself.");
    return;
  }
  reloading = true;
  sessionStorage.setItem("tde-reloaded", String(Date.now()));
  notice("The table was restarted since this page was opened: reloading the page to join it…", true);
  setTimeout(() => location.reload(), 1200);
}

// The server stopped answering: say so, and reload the page once it answers again.
let serverAway = false;
function serverGone() {
  if (serverAway) return;
  serverAway = true;
  notice("The table is not answering: was tde play stopped? Start it again (the same command goes on with the saved game) and this page reconnects by itself.");
  const retry = async () => {
    try {
      const r = await fetch("/", { cache: "no-store" });
      if (r.ok) {
        sessionStorage.setItem("tde-reloaded", String(Date.now()));
        location.reload();
        return;
      }
    } catch (e) { /* still away */ }
    setTimeout(retry, 2000);
  };
  setTimeout(retry, 2000);
}

function showError(message) {
  notice(message);
}

async function load(at) {
  const query = at === undefined ? "" : `?at=${at}`;
  setView(await api(`/api/state${query}`));
}

// Why a click cannot be taken now, in words, or null when it can.
function notNow() {
  if (!view) return "The game is still loading; this click was not taken.";
  if (busy) return "Your last choice is still being played; this click was not taken.";
  if (view.thinking) return `The bot is thinking (${thinkingWords(view.thinking.on)}); this click was not taken. Choose again once it has moved.`;
  if (view.over) return "The game is over; nothing more can be chosen.";
  if (!view.decision) return `It is not your decision now (${view.node}); this click was not taken.`;
  return null;
}

async function choose(index) {
  const why = notNow();
  if (why) { notice(why); return; }
  busy = true;
  document.body.classList.add("busy", "waiting");
  closePicker();
  renderDecision();
  // While the choice is played and the bot answers, the page shows what the bot is thinking.
  const poll = setInterval(pollWhileBusy, 350);
  try {
    selection = null;
    const next = await api("/api/action", { version: view.version, index });
    busy = false;
    setView(next);
  } catch (e) {
    busy = false;
    // Show the game as it is now, then say why the click was refused (kept until the next step).
    await load().catch(() => {});
    notice(`Not taken: ${e.message}`);
  } finally {
    clearInterval(poll);
    busy = false;
    document.body.classList.remove("busy", "waiting");
    renderStatus();
    renderDecision();
  }
}

// The game as it is while the page waits for its choice to be played: the bot at work.
let polling = false;
async function pollWhileBusy() {
  if (polling || !busy) return;
  polling = true;
  try {
    const v = await api("/api/state");
    if (busy && (!view || v.version >= view.version)) setView(v);
  } catch (e) { /* the answer to the choice says what went wrong */ }
  polling = false;
}

// A view that says the bot is thinking is followed until it has moved (a page opened or
// reloaded while it thinks).
let followTimer = null;
function followThinking() {
  clearTimeout(followTimer);
  if (!view || !view.thinking || busy || MODE !== "play") return;
  followTimer = setTimeout(() => load().catch(() => {}), 400);
}

// What the bot is deciding, as its own work ("choosing the action of Nix"), from the server.
const thinkingWords = (on) => on;

let advising = false;
async function askAdvice() {
  const box = document.getElementById("advice");
  const ask = document.getElementById("ask");
  if (advising) { notice("The bot is already working out its advice: one question at a time.", true); return; }
  const why = notNow();
  if (why) { notice(why); return; }
  advising = true;
  ask.disabled = true;
  const asked = view.version;
  box.dataset.version = asked;
  box.replaceChildren(el("p", { class: "muted" }, "The bot is thinking about your decision…"));
  try {
    const advice = await api("/api/advice", { version: asked });
    // An answer about a decision the page no longer shows is dropped.
    if (view && view.version === asked) renderAdvice(advice);
  } catch (e) {
    if (view && view.version === asked) box.replaceChildren(el("p", { class: "error" }, e.message));
  } finally {
    advising = false;
    ask.disabled = false;
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

// Who sits at a side, for the status bar: "you", "the bot (strongest)", or a watched agent's
// name (the whole spec is the pill's title).
function who(side) {
  if (view.you === side) return "you";
  if (MODE === "play") return view.bot_level ? `the bot (${view.bot_level})` : "the bot";
  const spec = view.seats[side];
  return spec.length > 22 ? `${spec.split(/[:,]/)[0]}…` : spec;
}

// ---- the whole view --------------------------------------------------------------------

function setView(v) {
  const changed = !view || view.version !== v.version;
  const before = view ? view.version : null;
  view = v;
  window.tdeView = v; // read by the browser test
  const box = document.getElementById("notice");
  if (changed && box.dataset.version !== undefined && box.dataset.version !== String(v.version)) box.hidden = true;
  document.body.classList.toggle("waiting", busy || Boolean(v.thinking));
  renderStatus();
  renderBoard();
  renderDecision();
  renderOver();
  renderLog(before);
  renderCard();
  renderScenario();
  renderControls();
  renderUnfinished();
  if (v.decision) askLaterOdds();
  const advice = document.getElementById("advice");
  document.getElementById("advice-bar").hidden = !(MODE === "play" && v.decision);
  if (changed) {
    cardModel = null;
    closePicker();
    renderCard();
    renderSight();
    // Advice is about one decision: a new step clears it, and asks again when kept on.
    advice.replaceChildren();
    delete advice.dataset.version;
    if (v.decision && keepAdvising()) askAdvice();
    // A new prompt is read from its title; the log below stays where it is, in sight.
    if (v.decision) document.getElementById("panel").scrollTop = 0;
  }
  followThinking();
}

// Other unfinished games, offered at the start of a new one: how to go on with each.
let unfinishedClosed = false;
function renderUnfinished() {
  const box = document.getElementById("unfinished");
  const list = (fixed && fixed.unfinished) || [];
  if (MODE !== "play" || !list.length || unfinishedClosed) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren(
    el("b", {}, list.length === 1 ? "You have an unfinished game." : `You have ${list.length} unfinished games.`),
    " This is a new one. To go on with another, stop this server (Ctrl-C where tde play runs) and start it with the command shown:",
    ...list.map((u) => el("div", { class: "unfinished-game" }, el("span", {}, u.about), el("code", {}, u.command))),
    el("button", { class: "link", onclick: () => { unfinishedClosed = true; renderUnfinished(); } }, "hide this"));
}

const keepAdvising = () => document.getElementById("keep-advising")?.checked === true;

function renderStatus() {
  const s = fixed.scenario;
  document.getElementById("title").textContent = `${s.title} · ${fixed.board.name}`;
  const toAct =
    view.to_act === "over" ? "game over"
    : view.thinking ? "the bot is thinking…"
    : busy ? "playing your choice…"
    : view.to_act === "dice" ? "dice rolling"
    : view.you === view.to_act ? "your decision"
    : `${sideName(view.to_act)} decides`;
  const parts = [
    el("span", { class: "pill" }, `turn ${view.turn}/${fixed.max_turns}`),
    el("span", { class: "pill" }, `Initiative: ${SIDE_NAMES[view.initiative]}`),
    ...[0, 1].map((s) =>
      el("span", { class: `pill side${s}`, title: view.seats[s] },
        `${SIDE_NAMES[s]} · ${who(s)} · ${view.vp[s]} VP · ${view.pass_tokens[s]} pass`)),
    el("span", { class: `pill now${view.thinking || busy ? " thinking-pill" : ""}` }, toAct),
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
        "data-x": x, "data-y": y, onclick: (e) => { e.stopPropagation(); selectCell(x, y, e); },
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
    labels: svg("g", { class: "labels" }, board),
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
    rect.addEventListener("click", (e) => { e.stopPropagation(); selectCell(x, y, e); });
    // A choice under a model (a dropped marker's square, a dodge staying put) is outlined
    // above the models too, so that it is never hidden.
    if (view.models.some((m) => m.on_table && sameCell(m.at, [x, y]))) {
      svg("rect", { x: x * CELL + 0.5, y: y * CELL + 0.5, width: CELL - 1, height: CELL - 1, class: `target-outline ${cls}` }, boardLayers.labels);
    }
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

// Whether another model stands within a cell of `m`: in such a crowd every model is drawn
// within its own cell, so that no base, letter, AP pip or wound bar covers another's.
function crowded(m) {
  return view.models.some((o) => o.id !== m.id && o.on_table && Math.abs(o.at[0] - m.at[0]) <= 1 && Math.abs(o.at[1] - m.at[1]) <= 1);
}

// A model's state in words, for its title and the menu at a crowded spot.
function modelWords(m) {
  const bits = [`${m.name} [${m.letter}], ${sideName(m.side)}`, `${m.wounds}/${m.wounds_max} wounds`, `${m.ap} AP`];
  if (m.health !== "conscious") bits.push(m.health);
  if (m.stance !== "standing") bits.push(m.stance);
  if (m.fire) bits.push(`${m.fire} fire`);
  if (m.blind) bits.push("blinded");
  if (m.carries.length) bits.push("carries a marker");
  return bits.join(", ");
}

function renderModels() {
  const layer = boardLayers.models;
  const labels = boardLayers.labels;
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
    const down = m.health !== "conscious";
    const g = svg("g", { class: `model side${m.side}${m.activated ? " activated" : ""}${down ? " down" : ""}`, "data-model": m.id }, layer);
    svg("title", {}, g).textContent = modelWords(m);
    const targeted = options().some((o) => o.target === m.id);
    const tight = crowded(m);
    // The base to scale (a cell is an inch, 25.4 mm), within its own cell in a crowd.
    const r = tight ? Math.min(baseRadius(fixed.profiles[m.profile]), CELL / 2 - 1.5) : baseRadius(fixed.profiles[m.profile]);
    const ring = tight ? 1.2 : 3.5;
    const active = view.activating === m.id;
    if (actionable.has(m.id)) svg("circle", { cx, cy, r: r + ring, class: targeted ? "ring target" : "ring mine" }, g);
    if (selection && selection.kind === "model" && selection.id === m.id) svg("circle", { cx, cy, r: r + ring + 1, class: "ring selected" }, g);
    if (active) svg("circle", { cx, cy, r: r + 1, class: "ring active" }, g);
    // Down or taken out: lying (an ellipse) in its side's colour, faded, with its letter.
    const fill = SIDE_COLOURS[m.side];
    if (m.stance === "prone" || down) svg("ellipse", { cx, cy, rx: r + (tight ? 0 : 1), ry: r * 0.65, fill, class: "body" }, g);
    else svg("circle", { cx, cy, r, fill, class: `body${m.stealth ? " stealth" : ""}` }, g);
    // Clicks on a model land within its own cell, so that the cells around a large base stay
    // clickable.
    svg("circle", { cx, cy, r: CELL * 0.45, class: "hit" }, g);
    const size = Math.max(r * 1.2, 9);
    svg("text", { x: cx, y: cy + size * 0.35, class: "letter", "font-size": size, "data-model": m.id }, labels).textContent = m.letter;
    if (down) {
      svg("text", { x: cx + r * 0.7, y: cy - r * 0.2, class: "downx", "font-size": 8 }, labels).textContent = m.health === "down" ? "↓" : "✕";
    }
    // Wounds: a bar under the base (inside the cell in a crowd), with the count.
    const frac = m.wounds_max ? m.wounds / m.wounds_max : 0;
    const bw = tight ? CELL - 4 : Math.max(2 * r, 18);
    const by = tight ? cy + CELL / 2 - 3 : cy + r + 1;
    const bh = tight ? 2.5 : 5;
    svg("rect", { x: cx - bw / 2, y: by, width: bw, height: bh, rx: 1, class: "wbar-bg" }, labels);
    svg("rect", { x: cx - bw / 2, y: by, width: bw * frac, height: bh, rx: 1, class: "wbar", fill: `hsl(${frac * 120}, 70%, 40%)` }, labels);
    if (!tight) svg("text", { x: cx + bw / 2 + 1.5, y: cy + r + 6, class: "wtext" }, labels).textContent = `${m.wounds}W`;
    // AP: pips over the base (filled: AP left), along the top of the cell in a crowd.
    const pip = tight ? 1.6 : 3;
    const step = tight ? Math.min(3.6, (CELL - 4) / Math.max(m.ap_max, 1)) : 7;
    const py = tight ? cy - CELL / 2 + 2 : cy - r - 4;
    for (let k = 0; k < m.ap_max; k++) {
      svg("circle", { cx: cx - (m.ap_max - 1) * step / 2 + k * step, cy: py, r: pip, class: k < m.ap ? "ap on" : "ap" }, labels);
    }
    const badges = [];
    if (m.health === "down") badges.push("down");
    if (m.health === "taken out") badges.push("out");
    if (m.stance === "swimming") badges.push("swim");
    if (m.stance === "climbing") badges.push("climb");
    if (m.stance === "prone") badges.push("prone");
    if (m.fire) badges.push(`fire ${m.fire}`);
    if (m.blind) badges.push("blind");
    if (m.slow[0] || m.slow[1]) badges.push("slow");
    if (m.jammed.length) badges.push("jammed");
    if (m.carries.length) badges.push("◆ carries");
    if (m.z > fixed.board.height[m.at[0] + m.at[1] * fixed.board.width]) badges.push(`${m.z}" up`);
    // In a crowd the badges are in the model's title and its menu, not on the board.
    if (badges.length && !tight) {
      // Near the right edge the badges go to the left of the base, so that none is cut off.
      const left = cx > fixed.board.width * CELL - 90;
      svg("text", { x: left ? cx - r - 1 : cx + r + 1, y: cy - r + 2, class: "badge", "text-anchor": left ? "end" : "start" }, labels).textContent = badges.join(" · ");
    }
    g.addEventListener("mouseenter", (e) => showTip(m, e));
    g.addEventListener("mousemove", (e) => moveTip(e));
    g.addEventListener("mouseleave", hideTip);
    g.addEventListener("click", (e) => { e.stopPropagation(); selectModel(m.id, e); });
  }
}

// ---- the menu of options at one spot ------------------------------------------------------

// The options at a spot, as big buttons next to where it was tapped (or clicked, on a narrow
// screen, where the panel is below the board): every option is one tap away, however crowded
// the spot, under the finger.
function openPicker(title, list, event) {
  // With a mouse on a wide screen the panel beside the board lists them already.
  const touch = event && event.pointerType === "touch";
  if (!touch && window.matchMedia("(min-width: 1101px)").matches) return;
  const picker = document.getElementById("picker");
  picker.replaceChildren(el("div", { class: "pick-title" }, title),
    ...list.map((o) => {
      const about = o.target !== undefined && o.target !== null ? modelById(o.target) : null;
      const odds = oddsText(o);
      return el("button", { class: `pick${about ? ` side${about.side}` : ""}`, "data-i": o.i, onclick: (e) => { e.stopPropagation(); choose(o.i); } },
        o.text, odds ? el("span", { class: "odds small" }, ` — ${odds}`) : null);
    }),
    el("button", { class: "link", onclick: (e) => { e.stopPropagation(); closePicker(); } }, "close"));
  picker.hidden = false;
  const x = event && event.clientX !== undefined ? event.clientX : innerWidth / 2;
  const y = event && event.clientY !== undefined ? event.clientY : innerHeight / 2;
  const w = picker.offsetWidth, h = picker.offsetHeight;
  picker.style.left = `${Math.max(4, Math.min(x + 12, innerWidth - w - 4))}px`;
  picker.style.top = `${Math.max(4, Math.min(y + 12, innerHeight - h - 4))}px`;
}

function closePicker() {
  document.getElementById("picker").hidden = true;
}

// ---- selection ---------------------------------------------------------------------------

// Most options the menu at a spot lists (a model's own action has hundreds: those are on the
// board and in the panel).
const PICKER_MOST = 12;

function selectModel(id, event) {
  const m = modelById(id);
  // The enemy's mover stands on the start of its path: during a reaction prompt, clicking it
  // picks that point (reactions "at the start").
  const seq = view.sequence;
  if (seq && seq.actor === id && options().some((o) => o.kind === "react" && o.point === 0)) return selectPoint(0);
  // A model standing on a cell that is itself a choice (a dodge move staying put, a template
  // aimed at it): the click is about that cell.
  if (m && m.on_table && options().some((o) => isCellOption(o) && sameCell(o.cell, m.at))) return selectCell(m.at[0], m.at[1], event);
  const about = options().filter((o) => o.model === id || o.target === id);
  selection = { kind: "model", id };
  closePicker();
  renderBoard();
  renderDecision();
  renderCard();
  // A single option about this model (activating it) is taken with one click.
  if (about.length === 1 && (about[0].kind === "activate" || about[0].kind === "nominate")) return choose(about[0].i);
  // Several options about it, a few (whom to shoot it with, a reaction by it): a menu there.
  if (about.length >= 2 && about.length <= PICKER_MOST) openPicker(m ? `${m.name} [${m.letter}]` : "Options", about, event);
}

// The options about cell (x, y): those that go there, and those aimed at the model standing there.
function optionsAt(x, y) {
  const model = view.models.find((m) => m.on_table && sameCell(m.at, [x, y]));
  return options().filter((o) => sameCell(o.cell, [x, y]) || (model && o.target === model.id));
}

function selectCell(x, y, event) {
  const here = options().filter((o) => sameCell(o.cell, [x, y]));
  const model = view.models.find((m) => m.on_table && sameCell(m.at, [x, y]));
  if (!here.length && model) return selectModel(model.id, event);
  // The first click (tap) on a place shows its options and odds; a second one on the same
  // place takes the option when it is the only one there. Several options there (a prone
  // model's "moves" and "crawls"): a menu of them at the spot, at every click.
  const again = selection && selection.kind === "cell" && selection.x === x && selection.y === y;
  selection = here.length ? { kind: "cell", x, y } : null;
  closePicker();
  renderBoard();
  renderDecision();
  hoverSight(x, y);
  const all = optionsAt(x, y);
  if (again && all.length === 1) return choose(all[0].i);
  if (all.length >= 2 && all.length <= PICKER_MOST) openPicker(`At (${x},${y})`, all, event);
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
  initiative: "Your side rolled lowest in the initiative roll-off, so you choose: take the Initiative (choose your deployment edge, deploy second, activate first) or give it to your opponent (p.21).",
  activation: "Click (tap) one of your models to activate it (ringed in green), or discard a pass token.",
  action: "Green cells: where it can move (hover or tap to see the path). Amber cells need a movement test: a Pass may not take it all the way, and each option says which result reaches the cell. Red rings: whom it can shoot or charge. Click (tap) once to see the odds and the enemy's likely answers, again to do it.",
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

// The engine's prompt names the side ("side B: ..."); the person reads it as theirs, and a
// prompt that names the side twice ("the bot's side (B): the bot's side (B) secretly chooses
// its grudge") says it once.
function promptText(prompt) {
  const mine = `your side (${SIDE_NAMES[view.you]}): `;
  if (prompt.startsWith(mine)) return `Your decision: ${prompt.slice(mine.length)}`;
  const cut = prompt.indexOf(": ");
  if (cut > 0 && prompt.slice(cut + 2).startsWith(prompt.slice(0, cut))) return capitalised(prompt.slice(cut + 2));
  return capitalised(prompt);
}

// "Marksmanship 7, soft cover −1 = 6, needs Nailed It (long range): 12%"; a move's test says
// which result reaches the cell, and where lesser ones leave the model.
function testText(t) {
  const attr = modifiedText(t.name, t.base, t.attr, t.modifiers);
  if (t.success === null || t.success === undefined) return `${attr}: too many outcomes to work out the odds here`;
  if (t.movement) {
    const goal = t.needed === "no result" ? "no result reaches the cell" : `reaches the cell on a ${t.needed} or better: ${pct(t.success)}`;
    const short = t.short.map((x) => `a ${x.result} stops it at (${x.at[0]},${x.at[1]})`).join(", ");
    return `movement test, ${attr}: ${goal}${short ? `; ${short}` : ""}`;
  }
  const why = t.why ? ` (${t.why})` : "";
  return `${attr}, needs ${t.needed}${why}: ${pct(t.success)}`;
}

function oddsText(o) {
  const parts = [];
  if (o.test) parts.push(testText(o.test));
  let odds = o.odds;
  if (o.odds_later) {
    const later = laterOdds.get(`${view.version}:${o.i}`);
    if (later && later.odds) odds = later.odds;
    else if (!later || !later.why) parts.push("wounds and hits: working them out…");
  }
  if (odds) {
    const step = view.decision.step;
    if (odds.dealt > 0.005) parts.push(`deals ${num(odds.dealt)} wounds on average`);
    if (odds.taken > 0.005) parts.push(`takes ${num(odds.taken)} wounds on average`);
    if (step === "reaction" && odds.active_hit > 0.0005) parts.push(`the mover is hit: ${pct(odds.active_hit)}`);
    if (step !== "reaction" && odds.active_hit > 0.0005) parts.push(`you are hit: ${pct(odds.active_hit)}`);
    if (odds.active_down > 0.0005) parts.push(`the mover goes down: ${pct(odds.active_down)}`);
  }
  return parts.join(" · ");
}

// The figures over the rest of the action sequence that the server left for later (options
// with too many outcomes to work out before answering the step), asked for one at a time
// while the decision is shown; a choice made meanwhile is played at once.
const laterOdds = new Map(); // "version:index" -> {odds} or {why}, null while asked
window.tdeLaterOdds = laterOdds; // read by the browser test
let askingOdds = false;
async function askLaterOdds() {
  if (askingOdds || MODE !== "play") return;
  askingOdds = true;
  try {
    while (view && view.decision && !busy) {
      const o = view.decision.options.find((x) => x.odds_later && !laterOdds.has(`${view.version}:${x.i}`));
      if (!o) break;
      const key = `${view.version}:${o.i}`;
      laterOdds.set(key, null);
      try {
        laterOdds.set(key, await api("/api/odds", { version: view.version, index: o.i }));
      } catch (e) {
        laterOdds.set(key, { odds: null, why: e.message });
      }
      if (view && view.decision && `${view.version}:${o.i}` === key && !busy) renderDecision();
    }
  } finally {
    askingOdds = false;
  }
}

// The option's outcome with the enemy's answers, once the server has worked it out; how it
// was worked out is behind a "details" toggle.
function riskLine(o) {
  const r = riskCache.get(`${view.version}:${o.i}`);
  if (r === undefined) return null;
  if (r === null) return el("span", { class: "risk muted" }, "if the enemy answers: working it out…");
  if (r.error) return el("span", { class: "risk error" }, r.error);
  const parts = [];
  if (r.reactors.length) {
    parts.push(`may answer: ${r.reactors.map((x) => `${x.name} (${x.ap} AP${x.answered > 0 ? `, answers ${pct(x.answered)}` : ""})`).join(", ")}`);
  } else {
    parts.push("no enemy model answers");
  }
  parts.push(`your models lose ${num(r.taken)} wounds on average`);
  if (r.dealt > 0.005) parts.push(`the enemy loses ${num(r.dealt)}`);
  if (r.mover_down > 0.0005) parts.push(`${r.mover} ends down or out: ${pct(r.mover_down)}`);
  return el("span", { class: "risk" }, el("b", {}, "If the enemy answers as the bot would: "), parts.join(" · "), " ",
    el("details", { class: "tech" }, el("summary", {}, "details"), capitalised(r.how)));
}

function optionButton(o) {
  const odds = oddsText(o);
  return el("button", { class: "opt", "data-i": o.i, "data-kind": o.kind, "aria-disabled": busy || Boolean(view.thinking) ? "true" : null,
    onclick: () => choose(o.i), onmouseenter: () => previewPath(o), onmouseleave: () => boardLayers.preview.replaceChildren() },
    el("span", { class: "opt-text" }, o.text), odds ? el("span", { class: "odds" }, odds) : null,
    o.downed ? el("span", { class: "downed" }, o.downed) : null,
    o.card ? el("span", { class: "card-text" }, o.card) : null, riskLine(o));
}

// The declared action under way, the active model's nested action included.
function declaredText(seq) {
  const name = (id) => { const m = modelById(id); return m ? `${m.name} [${m.letter}]` : `model ${id}`; };
  const nested = seq.rolls.filter((r) => r.role === "nested").map((r) =>
    `${r.kind === "dodge" ? "a nested dodge" : `a nested ${r.kind === "shoot" ? "shot" : r.kind}${r.target !== null ? ` at ${name(r.target)}` : ""}`} at point ${r.point}`);
  return nested.length ? `${seq.declared}, with ${nested.join(" and ")}` : seq.declared;
}

function renderDecision() {
  const box = document.getElementById("decision");
  box.replaceChildren();
  if (view.thinking || (busy && MODE === "play")) {
    const what = view.thinking
      ? [el("b", {}, "The bot is thinking about"), ` ${thinkingWords(view.thinking.on)} (${Math.round(view.thinking.seconds)} s so far). Your options come back once it has moved.`]
      : [el("b", {}, "Playing your choice…")];
    box.append(el("div", { class: "thinking", "data-thinking": view.thinking ? "bot" : "you" }, el("span", { class: "spinner" }), el("span", {}, ...what)));
    if (view.sequence) box.append(el("p", { class: "declared-text" }, `Declared: ${declaredText(view.sequence)}`));
    return;
  }
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
  if (view.sequence) {
    box.append(el("p", { class: "declared-text" }, `Declared: ${declaredText(view.sequence)}`));
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
  const ranked = advice.kind === "search" ? "the share of its thinking the bot gave each move"
    : advice.kind === "network" ? "how likely the bot's network is to play each move" : "the bot's own choice";
  const rows = advice.candidates.map((c) => {
    const o = options()[c.i];
    const reasons = [];
    if (o && oddsText(o)) reasons.push(oddsText(o));
    if (c.playouts) reasons.push(`played on ${c.playouts.n} times: you win ${pct(c.playouts.win)}, VP ${c.playouts.vp >= 0 ? "+" : ""}${num(c.playouts.vp)}, your models lose ${num(c.playouts.taken)} wounds, the enemy ${num(c.playouts.dealt)}`);
    return el("li", { onmouseenter: () => { if (o) previewPath(o); } },
      el("span", { class: "bar", style: `width:${Math.round(c.share * 100)}%` }),
      el("span", {}, `${pct(c.share)} · ${c.text}`),
      reasons.length ? el("span", { class: "why" }, reasons.join(" · ")) : null);
  });
  const tech = [advice.kind === "search" ? `${advice.total} search visits in all` : null,
    advice.value !== null ? `its value of the position for you: ${num(advice.value)} (from −1, lost, to +1, won)` : null, advice.playouts_how].filter(Boolean).join(". ");
  box.replaceChildren(el("h3", {}, `The bot would play (step ${view.version})`),
    el("p", { class: "muted small" }, `Ranked by ${ranked}: the bot weighs the whole game, so a move with lower odds for this one action may come first. `,
      el("details", { class: "tech" }, el("summary", {}, "details"), tech)),
    el("ol", { class: "advice" }, rows));
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

// The log, newest at the bottom and scrolled into sight; the lines of the latest steps (those
// since the page last showed the game) are marked.
function renderLog(before) {
  const log = document.getElementById("log");
  const items = view.log.map((e) => {
    const level = /: (Blunder|Fail|Pass|Nailed It|Feat)\b/i.exec(e.text) || /; rolled [^:]*: (Blunder|Fail|Pass|Nailed It|Feat)/i.exec(e.text);
    const fresh = before !== null && before !== undefined && e.at >= before;
    return el("li", { class: `log-${e.kind}${e.side !== null ? ` side${e.side}` : ""}${level ? ` lvl-${level[1].toLowerCase().replace(" ", "")}` : ""}${fresh ? " fresh" : ""}` }, e.text);
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
    el("h3", {}, `${m.name} [${m.letter}]`, el("span", { class: "muted small" }, ` ${sideName(m.side)} · ${p.faction} · ${p.role && p.role !== "None" ? `${p.type}, ${p.role}` : p.type} · ${p.points} points`)),
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
      closePicker();
      renderBoard();
      renderDecision();
      renderCard();
    });
    await load(MODE === "play" ? undefined : 0);
    // Joined again after a restart of the server (see staleSession and serverGone).
    if (sessionStorage.getItem("tde-reloaded")) {
      sessionStorage.removeItem("tde-reloaded");
      notice(`The table was restarted since this page was last loaded; this is the game it serves now${view.record ? ` (saved in ${view.record})` : ""}, at step ${view.version}.`, true);
    }
  } catch (e) {
    document.getElementById("decision").replaceChildren(el("p", { class: "error" }, `Cannot load the game: ${e.message}`));
  }
}

start();
