// The board page. It edits a position file's content and draws it; every rule question goes to the
// server's JSON API (docs/web.md), which answers with the adjudicator's own functions. No rule is
// decided here.
"use strict";

const FORMAT = "cloudspire-position/1";
const SECTIONS = ["format", "title", "source", "faq", "map", "gates", "factions", "turn", "spires",
  "landmarks", "chips", "units", "readings", "ai-priority", "scenario", "expected"];
const FILL = { ".": "#ffffff" }; // and each map letter as the picture colours it (the catalogue's fills)
const R = 30, W = Math.sqrt(3) * R;
const KIND_CHIP = { minion: "Minion", hero: "Hero", "landmark-minion": "Landmark minion" }; // a new unit's chip

const state = {
  doc: { format: FORMAT, factions: {}, turn: {} },
  grid: { cols: 5, rows: 4, cells: {}, wells: {} },
  mode: "build",
  selected: null, // {kind: "units" | "spires" | "landmarks" | "chips", id}
  catalogue: null,
  valid: false,
  yaml: "",
  svg: "",
  readings: {},
  focus: null, // the unit tapped on the Ask side
  reach: [], // the ends or targets the focused unit's answer names
  inForceOpen: null, // the readings in force: open or folded as the player left it (null: not yet touched)
  asked: 0, // numbers the position requests, so that a late answer never overwrites a newer one
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

let inflight = 0; // requests awaiting an answer, shown on the body for whoever waits on the page

async function call(name, body) {
  document.body.dataset.busy = String(++inflight > 0);
  try {
    const response = await fetch("/api/" + name, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { ok: response.ok, data: await response.json() };
  } catch (error) {
    return { ok: false, data: { error: { message: `no answer from the server: ${error.message}`, problems: [] } } };
  } finally {
    document.body.dataset.busy = String(--inflight > 0);
  }
}

// --- the map picture: the format's text, read and written as a grid of tokens

function hexName(col, row) { return String.fromCharCode(97 + col) + row; }

function parseMap(text) {
  const grid = { cols: 1, rows: 1, cells: {}, wells: {} };
  for (const line of (text || "").split("\n")) {
    const tokens = line.trim().split(/\s+/).filter(Boolean);
    if (!tokens.length || !/^[0-9]+$/.test(tokens[0])) continue;
    const row = parseInt(tokens[0], 10);
    grid.rows = Math.max(grid.rows, row);
    tokens.slice(1).forEach((token, col) => {
      grid.cols = Math.max(grid.cols, col + 1);
      const name = hexName(col, row);
      grid.wells[name] = token.endsWith("*");
      grid.cells[name] = token.replace("*", "");
    });
  }
  return grid;
}

function composeMap(grid) {
  const letters = [];
  for (let c = 0; c < grid.cols; c++) letters.push(String.fromCharCode(97 + c));
  const lines = ["    " + letters.join("  ")];
  for (let r = 1; r <= grid.rows; r++) {
    const tokens = [];
    for (let c = 0; c < grid.cols; c++) {
      const name = hexName(c, r);
      const token = grid.cells[name] || ".";
      tokens.push(token + (token !== "." && grid.wells[name] ? "*" : ""));
    }
    lines.push(String(r).padEnd(r % 2 === 0 ? 5 : 4) + tokens.join("  "));
  }
  return lines.join("\n") + "\n";
}

// --- the document sent to the server: the file's sections in the format's order, empty ones left out

function documentOf() {
  const doc = { ...state.doc, map: composeMap(state.grid) };
  const out = {};
  const empty = (v) => v === undefined || v === "" || (typeof v === "object" && v !== null && !Array.isArray(v)
    && Object.keys(v).length === 0 && v !== doc.factions && v !== doc.turn);
  for (const key of SECTIONS) if (!empty(doc[key])) out[key] = doc[key];
  for (const key of Object.keys(doc)) if (!(key in out) && !empty(doc[key])) out[key] = doc[key];
  return out;
}

// --- validating as the position is edited

async function refresh() {
  const asked = ++state.asked;
  const { ok, data } = await call("position", { position: { document: documentOf() }, narrow: phone() });
  if (asked !== state.asked) return;
  if (!ok) return showError(data);
  if (data.yaml !== state.yaml) clearAnswers();
  state.valid = data.valid;
  state.yaml = data.yaml;
  if (data.valid) {
    state.svg = data.svg;
    state.readings = data.readings;
    state.notices = data.notices;
  }
  showProblems(data.valid ? [] : data.problems);
  $("yaml").value = data.yaml;
  $("status").textContent = data.valid ? "valid: cloudspire validate accepts this position" : "not valid yet";
  $("status").className = data.valid ? "ok" : "bad";
  draw();
}

// Answers about another position than the one shown go.
function clearAnswers() {
  for (const id of ["answer", "step-answer", "progress"]) $(id).replaceChildren();
}

async function openYaml(text) {
  const { ok, data } = await call("position", { position: { yaml: text } });
  if (!ok) return showError(data);
  if (!data.valid) {
    $("yaml").value = text;
    showProblems(data.problems);
    $("status").textContent = "this file is not valid: fix it in the file text below, then use it";
    $("status").className = "bad";
    document.querySelector("#build-panel details").open = true;
    return;
  }
  state.doc = data.document;
  state.grid = parseMap(data.document.map);
  state.selected = null;
  $("cols").value = state.grid.cols;
  $("rows").value = state.grid.rows;
  buildForms();
  await refresh();
}

function showProblems(problems) {
  const list = $("problems");
  list.replaceChildren(...problems.map((p) => el("li", {
    class: "problem", "data-field": p.field,
    text: (p.line ? `line ${p.line}: ` : "") + (p.field ? `${p.field}: ` : "") + p.message,
  })));
}

function showError(data) {
  const error = data.error || { message: "the server gave no answer" };
  showProblems([{ field: "", line: null, message: error.message }, ...(error.problems || [])]);
}

// --- drawing

// Only the newest picture is drawn: a slow answer to an earlier request (the stepper's first
// outcome, say) must not cover the summary the player asked for since.
let pictureAsked = 0;

// A phone's screen: the server draws the picture narrow, its legend below the board.
function phone() { return window.matchMedia("(max-width: 800px)").matches; }

function showPicture(svg) {
  pictureAsked++; // a picture still on its way is older than this one
  delete $("board").dataset.outcome; // set again when the picture is a step's outcome
  $("board").innerHTML = svg;
  const picture = $("board").querySelector("svg");
  if (!picture || !phone()) return;
  picture.removeAttribute("width");
  picture.removeAttribute("height");
}

function draw() {
  if (state.mode === "play" && state.valid) {
    showPicture(state.svg);
  } else {
    $("board").replaceChildren(buildGrid());
  }
}

function centre(col, row) {
  return [W * (col + (row % 2 === 0 ? 1 : 0.5)) + 4, R + 1.5 * R * (row - 1) + 4];
}

function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function occupants() {
  const at = {};
  const add = (hex, label, kind, id) => (at[hex] = at[hex] || []).push({ label, kind, id });
  for (const [id, u] of Object.entries(state.doc.units || {})) if (u.at) add(u.at, id, "units", id);
  for (const [id, s] of Object.entries(state.doc.spires || {})) if (s.at) add(s.at, "▲" + id, "spires", id);
  for (const [id, l] of Object.entries(state.doc.landmarks || {})) if (l.at) add(l.at, "◆" + id, "landmarks", id);
  for (const [id, c] of Object.entries(state.doc.chips || {})) if (c.at) add(c.at, "■" + id, "chips", id);
  for (const [faction, g] of Object.entries(state.doc.gates || {}))
    for (const hex of g.beside || []) add(hex, "gate:" + faction, "gate", faction);
  return at;
}

function buildGrid() {
  const { cols, rows } = state.grid;
  const svg = svgEl("svg", { viewBox: `0 0 ${W * (cols + 0.5) + 8} ${1.5 * R * (rows - 1) + 2 * R + 8}`, class: "grid" });
  const at = occupants();
  for (let r = 1; r <= rows; r++) {
    for (let c = 0; c < cols; c++) {
      const name = hexName(c, r);
      const token = state.grid.cells[name] || ".";
      const [x, y] = centre(c, r);
      const g = svgEl("g", { "data-hex": name, class: "cell" + (token === "." ? " none" : "") });
      const points = [];
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 180 * (60 * i - 30);
        points.push(`${(x + (R - 1) * Math.cos(a)).toFixed(1)},${(y + (R - 1) * Math.sin(a)).toFixed(1)}`);
      }
      g.append(svgEl("polygon", { points: points.join(" "), fill: FILL[token] || "#fff" }));
      g.append(svgEl("text", { x, y: y - R * 0.55, class: "hex-name" }, name + (state.grid.wells[name] ? " ◇" : "")));
      (at[name] || []).forEach((thing, i) => {
        const chosen = state.selected && state.selected.kind === thing.kind && state.selected.id === thing.id;
        g.append(svgEl("text", { x, y: y - 2 + 10 * i, class: "thing" + (chosen ? " chosen" : "") }, thing.label));
      });
      svg.append(g);
    }
  }
  return svg;
}

// --- building by tapping

function tool() { return document.querySelector('input[name="tool"]:checked').value; }

function freshId(section, stem) {
  const taken = state.doc[section] || {};
  let n = 1;
  while (`${stem}${n}` in taken) n++;
  return `${stem}${n}`;
}

function firstFaction() { return Object.keys(state.doc.factions || {})[0]; }

function tapBuild(hex) {
  const t = tool();
  const grid = state.grid;
  if (FILL[t] !== undefined) grid.cells[hex] = t;
  else if (t === "well") grid.wells[hex] = !grid.wells[hex];
  else if (t === "gate") {
    const faction = $("gate-faction").value;
    if (!faction) return showProblems([{ field: "gates", message: "add a faction first: a gate is a faction's" }]);
    const gates = (state.doc.gates = state.doc.gates || {});
    const gate = (gates[faction] = gates[faction] || { beside: [], health: 10 });
    gate.beside = gate.beside.includes(hex) ? gate.beside.filter((h) => h !== hex) : [...gate.beside, hex];
    if (!gate.beside.length) delete gates[faction];
    buildForms();
  } else if (t === "select") {
    const here = (occupants()[hex] || []).filter((o) => o.kind !== "gate");
    state.selected = here.length ? { kind: here[0].kind, id: here[0].id } : null;
  } else {
    const section = { unit: "units", spire: "spires", landmark: "landmarks" }[t];
    const id = freshId(section, t);
    const made = {
      units: { chip: KIND_CHIP.minion, faction: firstFaction(), kind: "minion", at: hex, health: 1, stats: { health: 1, attack: 1, movement: 1 } },
      spires: { faction: firstFaction(), at: hex },
      landmarks: { at: hex, name: "" },
    }[section];
    state.doc[section] = { ...(state.doc[section] || {}), [id]: made };
    state.selected = { kind: section, id };
  }
  showEditor();
  refresh();
}

// --- the forms: factions, turn, readings, and the selected chip

function option(value, label, chosen) {
  return el("option", { value, selected: value === chosen, text: label === undefined ? value : label });
}

function select(id, values, chosen, onchange, blank) {
  const s = el("select", { id });
  if (blank !== undefined) s.append(option("", blank, chosen === undefined ? "" : chosen));
  for (const v of values) s.append(option(v, undefined, chosen));
  s.addEventListener("change", () => onchange(s.value));
  return s;
}

function labelled(text, control) { return el("label", {}, text + " ", control); }

function set(target, key, value) {
  if (value === undefined || value === "") delete target[key];
  else target[key] = value;
}

function edited() { draw(); refresh(); }

function buildForms() {
  const doc = state.doc;
  const factions = Object.keys(doc.factions || {});
  $("title").value = doc.title || "";
  $("source").value = doc.source || "";
  const box = $("factions");
  box.replaceChildren(...factions.map((name) => {
    // Every field the format gives a faction (controller, mark, Source, …), as the schema says.
    const row = el("div", { class: "faction", "data-faction": name }, el("strong", { text: name }),
      objectFields(SCHEMA.$defs.faction, doc.factions[name], edited, `faction-${name}`, "", null, buildForms));
    const remove = el("button", { text: "remove" });
    remove.addEventListener("click", () => { delete doc.factions[name]; if (doc.gates) delete doc.gates[name]; buildForms(); edited(); });
    row.append(remove);
    return row;
  }));
  for (const id of ["gate-faction", "turn-faction"]) {
    const chosen = id === "turn-faction" ? (doc.turn || {}).faction : $(id).value;
    $(id).replaceChildren(option("", "—", chosen), ...factions.map((f) => option(f, undefined, chosen)));
  }
  $("turn-step").replaceChildren(...(state.catalogue ? state.catalogue.steps : []).map((s) => option(s, undefined, (doc.turn || {}).step)));
  $("readings").replaceChildren(...(state.catalogue ? state.catalogue.readings : []).map((r) => labelled(r.name,
    select(`reading-${r.name}`, r.values, (doc.readings || {})[r.name], (v) => {
      doc.readings = doc.readings || {};
      set(doc.readings, r.name, v);
      edited();
    }, `(default: ${r.default})`))));
  showEditor();
  showSections();
}

function talentsField(prefix, thing) {
  // Chosen from the catalogue, each with its wording; a talent the adjudicator does not model is
  // marked so before any question is asked.
  const known = Object.fromEntries((state.catalogue ? state.catalogue.talents : []).map((t) => [t.name.toLowerCase(), t]));
  const list = el("ul", { class: "talents", id: `${prefix}-talents` });
  const show = () => list.replaceChildren(...(thing.talents || []).map((t) => {
    const x = el("button", { text: "×", "aria-label": `remove ${t}` });
    x.addEventListener("click", () => { thing.talents = thing.talents.filter((n) => n !== t); if (!thing.talents.length) delete thing.talents; show(); edited(); });
    const entry = known[String(t).toLowerCase().replace(/\s+\d+$/, "").replace(/^\d+\s+/, "")];
    const status = entry ? entry.player : "not in the catalogue";
    return el("li", { "data-status": status },
      el("strong", { text: t }), ` (${status}) `, x, el("div", { class: "wording", text: entry ? entry.wording : "" }));
  }));
  show();
  const name = el("input", { id: `${prefix}-talent`, list: "talent-list", placeholder: "a talent from the catalogue" });
  const add = el("button", { id: `${prefix}-add-talent`, text: "Add talent" });
  add.addEventListener("click", () => {
    if (!name.value.trim()) return;
    thing.talents = [...(thing.talents || []), name.value.trim()];
    name.value = "";
    show();
    edited();
  });
  return el("div", { class: "field" }, "talents ", list, name, add);
}

function idField(section, id) {
  const i = el("input", { id: "item-id", value: id });
  i.addEventListener("change", () => {
    const fresh = i.value.trim();
    if (!fresh || fresh === id || fresh in state.doc[section]) return;
    // Renaming keeps the file's order of chips.
    state.doc[section] = Object.fromEntries(Object.entries(state.doc[section]).map(([k, v]) => [k === id ? fresh : k, v]));
    state.selected = { kind: section, id: fresh };
    showEditor();
    edited();
  });
  return labelled("id", i);
}

// The fields a schema node cannot say enough about: whose faction (one of the position's), a chip's
// talents (from the catalogue), a unit's kind (its default chip name follows it).
function special(thing) {
  return (id, node, value, put) => {
    if (id === "item-faction") {
      return labelled("faction", select("item-faction", Object.keys(state.doc.factions || {}), value, (v) => { put(v || undefined); edited(); }, "none"));
    }
    if (id === "item-talents") return talentsField("item", thing);
    if (id === "item-kind") {
      return labelled("kind", select("item-kind", schemaNode(node).enum, value, (v) => {
        if (thing.chip === KIND_CHIP[thing.kind]) thing.chip = KIND_CHIP[v];
        put(v);
        showEditor();
      }));
    }
    return null;
  };
}

const SECTION_DEF = { units: "unit", spires: "spire", landmarks: "landmark", chips: "chip" };

function showEditor() {
  const chosen = state.selected;
  const thing = chosen && (state.doc[chosen.kind] || {})[chosen.id];
  $("editor").hidden = !thing;
  if (!thing) return;
  const { kind, id } = chosen;
  const node = SCHEMA.$defs[SECTION_DEF[kind]];
  // Every field of the chip as the schema gives it, written into the chip as it is edited.
  const fields = objectFields(node, thing, edited, "item", "", special(thing), showEditor);
  $("editor-title").textContent = { units: "Unit", spires: "Spire", landmarks: "Landmark", chips: "Chip" }[kind] + " " + id;
  $("editor-fields").replaceChildren(idField(kind, id), fields);
}

// The parts of a position no tap on the map makes: the gates' health and stacks, the AI's attack
// priority, the Harbinger chapter.
function showSections() {
  const doc = state.doc;
  const parts = Object.keys(doc.gates || {}).map((faction) => objectFields(SCHEMA.$defs.gate, doc.gates[faction], edited,
    `gate-${faction}`, `gate of ${faction}`, null, showSections));
  for (const key of ["ai-priority", "scenario"]) {
    parts.push(schemaField(SCHEMA.properties[key], doc[key], (v) => { set(doc, key, v); edited(); },
      `section-${key}`, key, null, showSections));
  }
  $("sections").replaceChildren(...parts);
}

// --- asking: a tapped unit, a claimed move or attack, the whole step

function request(extra) {
  return { position: { yaml: state.yaml }, ai: $("ai").checked, narrow: phone(), ...extra };
}

function reasonList(reasons) {
  return el("ul", { class: "reasons" }, ...reasons.map((r) => el("li", { class: "reason", "data-reason": r.id },
    el("span", { class: r.kind, text: r.text }), el("div", { class: "cite", text: `${r.rule}: “${r.quote}”` }))));
}

function judgement(j, subject) {
  const verdict = j.verdict + (j.core_verdict ? ` (the modelled rules alone: ${j.core_verdict})` : "");
  return el("li", { class: "judgement", "data-subject": subject, "data-verdict": j.verdict },
    el("strong", { text: `${subject}: ` }), el("span", { class: `verdict ${j.verdict}`, text: verdict }), reasonList(j.reasons));
}

function hurtText(x) {
  // Damage taken while moving or displaced (Toxic Secretion, Lahar, Crush), as the answer gives it.
  return x.defeated ? "defeated there" : x.damage ? `${x.damage} damage` : "";
}

function diceText(m) {
  // Spire attack dice rolled on the way (chapter 1's floating rocks) and the odds of what they cost.
  if (!m.rolls) return "";
  return `, ${m.rolls} ${m.rolls === 1 ? "die" : "dice"}` +
    (m.odds ? ": " + m.odds.map((o) => `−${o.lost} ${o.probability}`).join(", ") : "");
}

function moveText(m) {
  const pushes = m.displaced.map((d) => ` ${d.unit}>${d.to}` + (hurtText(d) ? ` (${hurtText(d)})` : ""));
  const hurt = hurtText(m) ? `, ${hurtText(m)}` : "";
  return m.path.join("-") + pushes.join("") + ` (${m.kind}${hurt}${diceText(m)})`;
}

function attackText(o) {
  // A heal instead of damage (chapter 8) and a recovery (chapter 7's Nucleus) are gains.
  const damage = o.damage.map((d) => `${d.chip} ${d.healed || d.how === "recovery" ? "+" : "−"}${d.amount}`).join(", ");
  return `x ${o.target}${o.redirected_to ? ">" + o.redirected_to : ""}` + (damage ? `: ${damage}` : "");
}

function outcomeList(title, answer, cls) {
  const text = answer.outcomes.length && "path" in answer.outcomes[0] ? moveText : attackText;
  const list = el("ul", { class: cls }, ...answer.outcomes.map((o) => el("li", { "data-end": o.end || o.target, text: text(o) })));
  const extra = answer.cannot ? ` — ${answer.cannot}` : answer.must_wait ? ` — ${answer.must_wait}` : "";
  return el("div", {}, el("h3", { text: `${title} (${answer.outcomes.length})${extra}` }), list);
}

async function ask(name, body, target) {
  $(target).replaceChildren(el("p", { class: "working", text: "working…" }));
  const { ok, data } = await call(name, body);
  if (!ok) {
    $(target).replaceChildren(el("p", { class: "error", text: data.error.message }));
    return null;
  }
  return data;
}

async function tapUnit(unit) {
  const data = await ask("options", request({ unit }), "answer");
  if (!data) return;
  state.focus = unit;
  const ex = data.explanation;
  state.reach = ex.others.map((j) => j.subject);
  showPicture(data.svg);
  const own = ex.claim.replace(/^\S+\s/, "");
  $("answer").replaceChildren(
    el("h2", { text: `${unit} at the ${data.step} step` }),
    el("pre", { class: "notices", text: data.notices_text }),
    data.note ? el("p", { class: "note", text: data.note }) : "",
    outcomeList("Legal outcomes", data.legal, "legal"),
    outcomeList("The AI must", data.ai, "mandated"),
    el("h3", { text: "Each end, and why (explain)" }),
    el("ul", { class: "judgements" }, judgement(ex, own), ...ex.others.map((j) => judgement(j, j.subject))));
}

async function claim(body) {
  const data = await ask("check", request(body), "answer");
  if (!data) return;
  const ex = data.explanation;
  showPicture(data.svg);
  $("answer").replaceChildren(
    el("h2", { class: "claim", text: ex.claim }),
    el("pre", { class: "notices", text: data.notices_text }),
    el("p", { class: `verdict big ${ex.verdict}`, id: "verdict", text: ex.verdict.toUpperCase() }),
    reasonList(ex.reasons),
    el("h3", { text: "The legal outcomes" }),
    el("ul", { class: "alternatives" }, ...ex.alternatives.map((a) => el("li", { text: a }))),
    el("h3", { text: "Each other end, and why" }),
    el("ul", { class: "judgements" }, ...ex.others.map((j) => judgement(j, j.subject))));
}

function tapPlay(target) {
  const unit = target.closest("[data-unit]");
  const other = unit ? unit.dataset.unit : null;
  const node = target.closest("[data-hex],[data-gate],[data-spire]");
  const name = node && (node.dataset.hex || node.dataset.spire || (node.dataset.gate && "gate:" + node.dataset.gate));
  if (other && (!state.focus || other === state.focus)) return tapUnit(other);
  if (other && state.focus) {
    const hex = (state.doc.units[other] || {}).at;
    if (state.reach.includes(other)) return claim({ unit: state.focus, to: other });
    if (hex && state.reach.includes(hex)) return claim({ unit: state.focus, to: hex });
    return tapUnit(other);
  }
  if (name && state.focus) return claim({ unit: state.focus, to: name });
}

function summary(answer) {
  // The movement step's own summary when it has one; else how many of the boards shown put each
  // unit on each node. Read off the answer, nothing decided here.
  if (answer.summary && answer.summary.length)
    return el("ul", { class: "summary" }, ...answer.summary.map((s) =>
      el("li", { "data-unit": s.unit, text: `${s.unit}: ${s.ends.join(", ")}` +
        (s.forced ? " (forced)" : "") + ((s.depends_on || []).length ? `; depends on ${s.depends_on.join(", ")}` : "") })));
  if (!answer.outcomes.length || !answer.outcomes[0].final) return null;
  const ends = {};
  for (const o of answer.outcomes)
    for (const [u, node] of Object.entries(o.final)) (ends[u] = ends[u] || {})[node] = ((ends[u] || {})[node] || 0) + 1;
  return el("ul", { class: "summary" }, ...Object.entries(ends).map(([u, nodes]) =>
    el("li", { "data-unit": u, text: `${u}: ` + Object.entries(nodes).map(([n, k]) => `${n} (${k})`).join(", ") })));
}

async function showAnswerPicture(path, outcome, wanted = () => true) {
  const ticket = ++pictureAsked;
  const { ok, data } = await call(path + (phone() ? "?narrow=1" : ""));
  if (!ok || ticket !== pictureAsked || !wanted()) return false;
  showPicture(data.svg);
  $("board").dataset.outcome = outcome;
  return true;
}

function drawEnds(job) {
  // The summary on the board: each unit's possible ends, the forced ones solid.
  const button = el("button", { id: "draw-ends", text: "Draw where each unit can end" });
  button.addEventListener("click", async () => {
    if (await showAnswerPicture(`jobs/${job}/summary`, "summary")) $("board").scrollIntoView({ block: "start" });
  });
  return button;
}

function stepThrough(answer, job) {
  // Each outcome as the CLI prints it (the API's lines), one at a time, and drawn on the board.
  const box = el("div", { class: "stepper" });
  let i = 0;
  const show = async () => {
    box.replaceChildren(
      el("button", { text: "◀", "aria-label": "previous" }), el("span", { text: ` ${i + 1} of ${answer.lines.length} ` }),
      el("button", { text: "▶", "aria-label": "next" }),
      el("pre", { class: "outcome", text: answer.lines[i].join("\n") }));
    const [prev, , next] = box.children;
    prev.addEventListener("click", () => { i = (i + answer.lines.length - 1) % answer.lines.length; show(); });
    next.addEventListener("click", () => { i = (i + 1) % answer.lines.length; show(); });
    await showAnswerPicture(`jobs/${job}/outcomes/${i}`, String(i), () => box.isConnected);
  };
  if (answer.lines.length) show();
  return box;
}

async function askStep(question) {
  const started = await ask("jobs", request({ question, limit: 50 }), "step-answer");
  if (!started) return;
  let job = started;
  while (job.state === "running") {
    $("progress").textContent = `working: ${job.found} found so far, ${job.seconds} s`;
    await new Promise((done) => setTimeout(done, 400));
    job = (await call("jobs/" + job.job)).data;
  }
  $("progress").textContent = "";
  if (job.state === "failed") return $("step-answer").replaceChildren(el("p", { class: "error", text: job.error.message }));
  const a = job.answer;
  a.outcomes = a.outcomes || a.results || []; // Spires Fire names its outcomes results
  const noun = state.catalogue.questions.find((q) => q.name === question).noun;
  const count = `${a.count} ${noun}`;
  const left = a.notices.map((n) => n.talent || n.rule).concat((a.gaps || []).map((g) => g.step));
  $("step-answer").replaceChildren(
    el("pre", { class: "notices", text: left.length ? "NOT TAKEN INTO ACCOUNT: " + left.join(", ") : "" }),
    el("p", { class: "count", id: "step-count", "data-count": a.count, text: (a.complete ? "" : "timed out, incomplete: ") + count + (a.shown < a.count ? `, ${a.shown} shown` : "") }),
    summary(a) || "", a.summary && a.summary.length ? drawEnds(job.job) : "", stepThrough(a, job.job));
  $("step-answer").scrollIntoView({ block: "start" });
}

async function whatReadings() {
  const data = await ask("readings", request({}), "step-answer");
  if (!data) return;
  $("step-answer").replaceChildren(data.effects.length ? el("ul", { class: "effects" }, ...data.effects.map((e) =>
    el("li", {}, `${e.reading}=${e.value} (instead of ${e.baseline}) changes ${e.question}:`,
      el("pre", { text: e.gained.map((g) => "+ " + g).concat(e.lost.map((l) => "- " + l)).join("\n") }))))
    : el("p", { text: "no reading changes any outcome of this position" }));
}

function showInForce() {
  $("notices").replaceChildren(el("pre", { class: "notices", text: state.notices || "" }));
  const readings = (state.catalogue || { readings: [] }).readings;
  // Folded on a phone, so that the answers come soon below the board.
  const wide = !phone();
  const details = el("details", { open: state.inForceOpen ?? wide }, el("summary", { text: "Readings in force" }),
    ...readings.map((r) => labelled(r.name,
      select(`play-reading-${r.name}`, r.values, state.readings[r.name], async (v) => {
        state.doc.readings = { ...(state.doc.readings || {}), [r.name]: v };
        await refresh();
        showInForce();
        if (state.focus) tapUnit(state.focus);
      }))));
  // Open or folded as the player left it, through every switch.
  details.addEventListener("toggle", () => { state.inForceOpen = details.open; });
  $("in-force").replaceChildren(details);
}

// --- the page

function setMode(mode) {
  state.mode = mode;
  $("mode-build").setAttribute("aria-pressed", mode === "build");
  $("mode-play").setAttribute("aria-pressed", mode === "play");
  $("build-panel").hidden = mode !== "build";
  $("play-panel").hidden = mode !== "play";
  state.focus = null;
  $("answer").replaceChildren();
  if (mode === "play" && !state.valid) $("answer").replaceChildren(el("p", { class: "error", text: "the position is not valid yet: see its problems" }));
  showInForce();
  draw();
}

function utf8ToBase64(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  bytes.forEach((b) => (binary += String.fromCharCode(b)));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64ToUtf8(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function wire() {
  $("mode-build").addEventListener("click", () => setMode("build"));
  $("mode-play").addEventListener("click", () => setMode("play"));
  $("board").addEventListener("click", (event) => {
    if (state.mode === "build") {
      const cell = event.target.closest("[data-hex]");
      if (cell) tapBuild(cell.dataset.hex);
    } else tapPlay(event.target);
  });
  $("title").addEventListener("input", () => { set(state.doc, "title", $("title").value); refresh(); });
  $("source").addEventListener("input", () => { set(state.doc, "source", $("source").value); refresh(); });
  $("resize").addEventListener("click", () => {
    state.grid.cols = Math.max(1, Math.min(26, Number($("cols").value) || 1));
    state.grid.rows = Math.max(1, Math.min(30, Number($("rows").value) || 1));
    edited();
  });
  $("add-faction").addEventListener("click", () => {
    const name = $("new-faction").value.trim();
    if (!name) return;
    state.doc.factions = { ...(state.doc.factions || {}), [name]: { controller: "player", mark: { gate: "" } } };
    $("new-faction").value = "";
    buildForms();
    edited();
  });
  $("turn-faction").addEventListener("change", () => { state.doc.turn = { ...(state.doc.turn || {}) }; set(state.doc.turn, "faction", $("turn-faction").value); edited(); });
  $("turn-step").addEventListener("change", () => { state.doc.turn = { ...(state.doc.turn || {}), step: $("turn-step").value }; edited(); });
  $("delete").addEventListener("click", () => {
    const { kind, id } = state.selected;
    delete state.doc[kind][id];
    state.selected = null;
    showEditor();
    edited();
  });
  $("apply-yaml").addEventListener("click", () => openYaml($("yaml").value));
  $("open-file").addEventListener("change", async () => {
    const file = $("open-file").files[0];
    if (file) await openYaml(await file.text());
  });
  $("save").addEventListener("click", () => {
    const link = el("a", { href: URL.createObjectURL(new Blob([state.yaml], { type: "text/yaml" })), download: "position.yaml" });
    document.body.append(link);
    link.click();
    link.remove();
  });
  $("share").addEventListener("click", async () => {
    // A short link the server keeps, and its QR code for a phone across the table; a position not
    // valid yet travels whole in the link instead.
    const { ok, data } = state.valid ? await call("share", { position: { yaml: state.yaml } }) : { ok: false };
    const url = ok ? data.url : `${location.origin}${location.pathname}#yaml=${utf8ToBase64(state.yaml)}`;
    $("share-link").hidden = false;
    $("share-link").value = url;
    $("share-link").select();
    $("share-qr").innerHTML = ok ? data.qr : "";
    $("share-qr").hidden = !ok;
    if (ok) history.replaceState(null, "", `${location.pathname}#p=${data.id}`);
    else history.replaceState(null, "", url);
  });
  $("check").addEventListener("click", () => claim({ move: $("claim").value }));
  $("what-readings").addEventListener("click", whatReadings);
}

async function start() {
  wire();
  state.catalogue = (await call("catalogue")).data;
  // One button for each step question the adjudicator answers (adjudicator/questions/steps.py).
  $("step-questions").replaceChildren(...state.catalogue.questions.map((q) => {
    const button = el("button", { "data-question": q.name, text: q.title });
    button.addEventListener("click", () => askStep(q.name));
    return button;
  }));
  Object.assign(FILL, state.catalogue.fills);
  SCHEMA = state.catalogue.schema;
  $("talent-list").replaceChildren(...state.catalogue.talents.map((t) => el("option", { value: t.name })));
  for (let r = 1; r <= 4; r++) for (let c = 0; c < 5; c++) state.grid.cells[hexName(c, r)] = "l";
  buildForms();
  const whole = location.hash.match(/^#yaml=([A-Za-z0-9_-]+)$/);
  const kept = location.hash.match(/^#p=([0-9a-f]+)$/);
  let given = whole ? base64ToUtf8(whole[1]) : null;
  if (kept) {
    const { ok, data } = await call("shared/" + kept[1]);
    if (ok) given = data.yaml;
    else showError(data);
  }
  if (!whole && !kept) given = (await call("start")).data.yaml;
  if (given) await openYaml(given);
  else await refresh();
  document.body.dataset.ready = "true";
}

start();
