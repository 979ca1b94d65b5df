// The Encounter page: draws the view the server sends (/api/state), sends the party's choice
// as an option index at the version it was offered at (/api/action), and quits (/api/quit).
// Every figure and word comes from the server (the engine's own prompt, options and odds).
"use strict";

const TOKEN = document.querySelector('meta[name="tde-token"]').content;
const $ = (selector) => document.querySelector(selector);
let shownLog = 0;
let picked = null; // the square [x, y] whose options are picked out

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

async function api(method, path, body) {
  const options = { method, headers: { "x-tde-token": TOKEN } };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    return { ok: false, status: 0, json: { error: "the server does not answer (stopped?): " + e.message } };
  }
  let json;
  try { json = await response.json(); } catch (e) { json = { error: "not JSON: " + e.message }; }
  if (response.status === 403 && json.reload) location.reload();
  return { ok: response.ok, status: response.status, json };
}

function showError(message) {
  const box = $("#decision");
  const old = box.querySelector(".error");
  if (old) old.remove();
  box.prepend(el("p", { class: "error", role: "alert" }, message));
}

function notice(text) {
  const n = $("#notice");
  n.textContent = text;
  n.hidden = !text;
}

function sameCell(a, b) { return a && b && a[0] === b[0] && a[1] === b[1]; }

function renderStatus(v) {
  const s = $("#status");
  s.replaceChildren();
  const pill = (text) => s.append(el("span", { class: "pill" }, text));
  pill(`Round ${v.round}`);
  pill(v.phase);
  pill(`Momentum ${v.momentum}`);
  pill(`Adversary Pool ${v.pool}, Threat ${v.threat}`);
  pill(`Winds of Magic ${v.winds >= 0 ? "+" : ""}${v.winds}`);
  pill(`DM ${v.dm}, seed ${v.seed}`);
  pill(`kept in ${v.record}`);
}

function renderGrid(v) {
  const grid = $("#grid");
  const { width, height, rows } = v.board;
  grid.style.gridTemplateColumns = `24px repeat(${width}, 1fr)`;
  grid.replaceChildren();
  const options = v.decision ? v.decision.options : [];
  grid.append(el("div", { class: "axis" }, "y\\x"));
  for (let x = 0; x < width; x++) grid.append(el("div", { class: "axis" }, String(x)));
  const at = new Map();
  for (const m of v.models) if (m.cell) {
    const key = m.cell.join(",");
    // A model in play stands over a body lying there.
    if (!at.has(key) || m.status === "in play") at.set(key, m);
  }
  for (let y = 0; y < height; y++) {
    grid.append(el("div", { class: "axis" }, String(y)));
    for (let x = 0; x < width; x++) {
      const terrain = rows[y][x];
      const sq = el("div", { class: "sq " + terrain.replace(" ", "-"), "data-x": x, "data-y": y, role: "gridcell" });
      const about = options.filter((o) => sameCell(o.cell, [x, y]));
      const m = at.get(`${x},${y}`);
      sq.title = `(${x},${y}) ${terrain}` +
        (m ? `: ${m.name}, ${m.status}` + (m.conditions.length ? ` (${m.conditions.join(", ")})` : "") : "") +
        (about.length ? `; ${about.length} option(s): click to pick them out` : "");
      if (about.length) sq.classList.add("target");
      if (sameCell(picked, [x, y])) sq.classList.add("picked");
      if (m) {
        const cls = ["model", m.side];
        if (m.active || (v.decision && v.decision.model === m.i)) cls.push("active");
        if (m.status !== "in play") cls.push("down");
        // The conditions in full are in the square's tooltip and the models' table.
        const n = m.conditions.length;
        const conditions = n ? el("span", { class: "c" }, n === 1 ? "1 condition" : `${n} conditions`) : null;
        sq.append(el("div", { class: cls.join(" "), "data-model": m.i },
          el("b", {}, m.letter), el("span", { class: "w" }, `W${m.wounds}/${m.max_wounds}`), conditions));
      }
      sq.addEventListener("click", () => {
        picked = about.length && !sameCell(picked, [x, y]) ? [x, y] : null;
        render(window.tdeView);
        const first = document.querySelector("#decision .opt.picked");
        if (first) first.scrollIntoView({ block: "nearest" });
      });
      grid.append(sq);
    }
  }
}

function renderModels(v) {
  const table = $("#models");
  table.replaceChildren(el("tr", {},
    ...["", "model", "kind", "square", "Wounds", "armour / Soak", "Luck / Fate", "conditions", "declared", "state"]
      .map((h) => el("th", {}, h))));
  for (const m of v.models) {
    const deciding = m.active || (v.decision && v.decision.model === m.i);
    table.append(el("tr", { class: m.side + (deciding ? " active" : "") },
      el("td", {}, m.letter), el("td", {}, m.name), el("td", {}, m.kind),
      el("td", {}, m.cell ? `(${m.cell[0]},${m.cell[1]})` : "–"),
      el("td", {}, `${m.wounds}/${m.max_wounds}`), el("td", {}, `${m.armour} / ${m.soak}`),
      el("td", {}, `${m.luck} / ${m.fate}`), el("td", {}, m.conditions.join(", ")),
      el("td", {}, m.intent || ""), el("td", {}, m.status)));
  }
}

function highlight(cell, on) {
  if (!cell) return;
  const sq = document.querySelector(`.sq[data-x="${cell[0]}"][data-y="${cell[1]}"]`);
  if (sq) sq.classList.toggle("hot", on);
}

function renderDecision(v) {
  const box = $("#decision");
  box.replaceChildren();
  if (v.quit) {
    box.append(el("p", {}, "You quit this game; it is saved."));
    return;
  }
  if (!v.decision) return;
  const d = v.decision;
  box.append(el("h2", {}, "Your decision"));
  box.append(el("p", { class: "prompt" }, `Round ${v.round}: ${d.prompt}`));
  if (d.no_shot) box.append(el("p", { class: "noshot" }, `No Shoot: ${d.no_shot}`));
  const list = el("div", { class: "opts" });
  for (const o of d.options) {
    const cls = "opt" + (picked && sameCell(o.cell, picked) ? " picked" : "");
    const button = el("button", { class: cls, "data-i": o.i, type: "button" },
      el("span", { class: "n" }, `${o.i + 1}.`), o.text,
      o.odds ? el("span", { class: "odds" }, o.odds) : null);
    button.addEventListener("mouseenter", () => highlight(o.cell, true));
    button.addEventListener("mouseleave", () => highlight(o.cell, false));
    button.addEventListener("click", () => choose(v.version, o.i));
    list.append(button);
  }
  box.append(list);
}

function renderLog(v) {
  const log = $("#log");
  if (v.log.length < shownLog) { log.replaceChildren(); shownLog = 0; }
  for (const li of log.querySelectorAll("li.fresh")) li.classList.remove("fresh");
  for (const line of v.log.slice(shownLog)) {
    const cls = line.startsWith("  ") ? "sub" : line.startsWith("Round ") ? "head" : "";
    log.append(el("li", { class: cls + (shownLog ? " fresh" : "") }, line.trim()));
  }
  shownLog = v.log.length;
  log.scrollTop = log.scrollHeight;
}

function render(v) {
  window.tdeView = v;
  renderStatus(v);
  renderGrid(v);
  renderModels(v);
  renderDecision(v);
  renderLog(v);
  const over = $("#over");
  over.hidden = !v.over;
  if (v.over) over.textContent = `Game over: ${v.over.result}. The record is ${v.record}.`;
}

async function load() {
  const answer = await api("GET", "/api/state");
  if (answer.ok) render(answer.json);
  else showError(answer.json.error);
}

async function choose(version, index) {
  if (document.body.classList.contains("busy")) return;
  document.body.classList.add("busy");
  notice("The Dungeon Master plays its turn…");
  const answer = await api("POST", "/api/action", { version, index });
  notice("");
  picked = null;
  if (answer.ok) {
    document.body.classList.remove("busy");
    render(answer.json);
    return;
  }
  // Refused: the game is unchanged. A stale page shows the game as it now stands.
  if (answer.status === 409) await load();
  document.body.classList.remove("busy");
  showError(answer.json.error);
}

async function quit() {
  if (document.body.classList.contains("busy")) return;
  document.body.classList.add("busy");
  const answer = await api("POST", "/api/quit", {});
  document.body.classList.remove("busy");
  if (!answer.ok) { showError(answer.json.error); return; }
  render(answer.json);
  $("#quit").disabled = true;
  notice(answer.json.over
    ? `The game is over and saved in ${answer.json.record}; the server has stopped.`
    : `Saved in ${answer.json.record}; the server has stopped. Resume with: ${answer.json.resume}`);
}

$("#quit").addEventListener("click", quit);
load();
