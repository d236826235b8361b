// Forms that follow the position schema (schema/position.schema.json, served in the catalogue): a
// field of the format gets its control from its schema node, so that a new field appears on the page
// without a form written for it. board.js supplies el() and the editors that are more than a field
// (a chip's talents, the factions), through the `special` hook.
"use strict";

let SCHEMA = { $defs: {} };

function schemaNode(node) {
  while (node && node.$ref) node = SCHEMA.$defs[node.$ref.split("/").pop()];
  return node || {};
}

function types(node) {
  return [].concat(node.type || []);
}

// Which alternative of a oneOf a value takes: a constant or a preset by equality, else by its shape.
function alternative(options, value) {
  const fits = (o) => {
    const n = schemaNode(o);
    if (n.const !== undefined) return value === n.const;
    if (n.enum) return n.enum.includes(value);
    if (types(n).includes("array")) return Array.isArray(value);
    if (types(n).includes("object") || n.properties) return value !== null && typeof value === "object" && !Array.isArray(value);
    if (types(n).includes("integer")) return Number.isInteger(value);
    return false;
  };
  const found = options.findIndex(fits);
  return found < 0 ? 0 : found;
}

function describe(node) {
  const n = schemaNode(node);
  if (n.const !== undefined) return String(n.const);
  if (n.enum) return "one of: " + n.enum.join(", ");
  if (types(n).includes("array")) return "a list";
  if (n.properties && n.maxProperties === 1) return Object.keys(n.properties).join(" / ");
  if (n.properties) return "details";
  return types(n).join(" or ") || "a value";
}

function emptyOf(node) {
  const n = schemaNode(node);
  if (n.const !== undefined) return n.const;
  if (n.enum) return n.enum[0];
  if (types(n).includes("array")) return [];
  if (n.properties) return {};
  if (types(n).includes("integer")) return n.minimum || 0;
  return "";
}

// schemaField(node, value, put, id, label, special): a control for ``value`` under schema ``node``;
// ``put(v)`` stores a changed value (undefined: the field is left out of the file); ``redraw()`` is
// called after a change of shape (an item added or removed, another alternative chosen).
function schemaField(node, value, put, id, label, special, redraw) {
  const own = special && special(id, node, value, put);
  if (own) return own;
  const n = schemaNode(node);
  const title = n.description || "";
  const wrap = (control) => el("label", { class: "field", title }, label + " ", control);
  if (n.oneOf) {
    const chosen = alternative(n.oneOf, value);
    const pick = el("select", { id: `${id}-as`, "aria-label": `${label}: which kind` });
    n.oneOf.forEach((o, i) => pick.append(el("option", { value: i, selected: i === chosen, text: describe(o) })));
    pick.addEventListener("change", () => { put(emptyOf(n.oneOf[Number(pick.value)])); redraw(); });
    const inner = schemaNode(n.oneOf[chosen]).const !== undefined ? ""
      : schemaField(n.oneOf[chosen], value, put, id, "", special, redraw);
    return el("div", { class: "field", title }, label + " ", pick, inner);
  }
  if (n.enum) {
    const s = el("select", { id });
    s.append(el("option", { value: "", text: n.default !== undefined ? `(default: ${n.default})` : "—" }));
    for (const v of n.enum) s.append(el("option", { value: v, selected: v === value, text: v }));
    s.addEventListener("change", () => put(s.value === "" ? undefined : s.value));
    return wrap(s);
  }
  if (types(n).includes("boolean") && types(n).length === 1) {
    const c = el("input", { type: "checkbox", id, checked: !!value });
    c.addEventListener("change", () => put(c.checked ? true : undefined));
    return el("label", { class: "field", title }, c, " " + label);
  }
  if (types(n).includes("integer") && !types(n).includes("array")) {
    const i = el("input", { type: "number", id, min: n.minimum, max: n.maximum, value: value === undefined ? "" : value,
      placeholder: n.default !== undefined ? String(n.default) : "" });
    i.addEventListener("input", () => put(i.value === "" ? undefined : Number(i.value)));
    return wrap(i);
  }
  if (types(n).includes("array") || n.items) return listField(n, value || [], put, id, label, special, redraw);
  if (n.properties && n.maxProperties === 1) {
    // Exactly one of its keys (a mark: a gate, a unit, a hex).
    const keys = Object.keys(n.properties);
    const key = (value && typeof value === "object" && Object.keys(value)[0]) || keys[0];
    const pick = el("select", { id: `${id}-kind`, "aria-label": `${label}: which kind` });
    for (const k of keys) pick.append(el("option", { value: k, selected: k === key, text: k }));
    pick.addEventListener("change", () => { put({ [pick.value]: emptyOf(n.properties[pick.value]) }); redraw(); });
    const inner = schemaField(n.properties[key], (value || {})[key], (v) => put(v === undefined ? undefined : { [key]: v }),
      `${id}-${key}`, "", special, redraw);
    return el("div", { class: "field", title }, label + " ", pick, inner);
  }
  if (n.properties) return objectFields(n, value || {}, put, id, label, special, redraw);
  const t = el("input", { id, value: value === undefined ? "" : value });
  t.addEventListener("input", () => put(t.value === "" ? undefined : t.value));
  return wrap(t);
}

// Every property of an object, each written into it in place (so that an editor of its own, such as
// a chip's talents, and these fields change one object); an object left empty leaves the file.
function objectFields(n, value, put, id, label, special, redraw) {
  const target = value;
  const box = el("fieldset", { class: "object", id: `${id}-fields` }, el("legend", { text: label }));
  for (const [key, sub] of Object.entries(n.properties)) {
    box.append(schemaField(sub, target[key], (v) => {
      if (v === undefined) delete target[key];
      else target[key] = v;
      put(Object.keys(target).length ? target : undefined);
    }, `${id}-${key}`, key, special, redraw));
  }
  return box;
}

// A list, in order (upgrades bottom first, a group top first, a gate's stack top first): each item
// with a remove button and one to move it up; a new item at the end.
function listField(n, items, put, id, label, special, redraw) {
  const item = n.items || {};
  const list = el("ol", { class: "list", id: `${id}-list` });
  items.forEach((v, i) => {
    const up = el("button", { text: "↑", "aria-label": `move ${label} ${i + 1} up`, disabled: i === 0 });
    const x = el("button", { text: "×", "aria-label": `remove ${label} ${i + 1}` });
    up.addEventListener("click", () => { const next = [...items]; [next[i - 1], next[i]] = [next[i], next[i - 1]]; put(next); redraw(); });
    x.addEventListener("click", () => { const next = items.filter((_, k) => k !== i); put(next.length ? next : undefined); redraw(); });
    const inner = schemaField(item, v, (w) => { const next = [...items]; next[i] = w; put(next); }, `${id}-${i}`, "", special, redraw);
    list.append(el("li", {}, inner, up, x));
  });
  const add = el("button", { id: `${id}-add`, text: `add ${label || "item"}` });
  add.addEventListener("click", () => { put([...items, emptyOf(item)]); redraw(); });
  return el("div", { class: "field", title: n.description || "" }, label + " ", list, add);
}
