/* Scarface 1920's table page: the board (render.js) drawn from the viewer's view, and the
   seat's `legal` options as buttons, one per choice, each labelled with what it gives; a
   choice that names a tile or district lights it on the map, and a click on a lit place
   sends its only choice (or points at its choices). Out of turn (the document's
   `out_of_turn`, the view's `may_complete`) a seat not awaited may complete a job.

   State: GET /games/{id}; updates: long-poll GET /games/{id}/events; moves: POST
   /games/{id}/commands with an Idempotency-Key (table_play.js, shared with the generic
   table page). Nothing hidden is worked out here: what the view leaves out is not drawn. */
"use strict";

let litTargets = new Map(); // tile or district -> [[option, variant]]

/* A value of the view, readably: seats by name, lists of numbers as chips, records as
   "key value" pairs, lists of records as a small table. */
function valueHtml(key, value) {
  if (value === null || value === undefined) return '<span class="muted">–</span>';
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" && (SF.cards[value] || SF.tiles[value] || SF.districts[value])) {
    return esc(SF.tiles[value] || SF.districts[value] || cardName(value));
  }
  if (SEAT_FIELDS.has(key) && typeof value === "number") return esc(nameOf(value));
  if (SEAT_FIELDS.has(key) && Array.isArray(value)) return esc(value.map(nameOf).join(", ") || "–");
  if (Array.isArray(value)) {
    if (!value.length) return '<span class="muted">none</span>';
    if (value.every((v) => typeof v !== "object" || v === null)) {
      return `<span class="chips">${value.map((v) => `<span class="chip">${v === null ? "?" : valueHtml("", v)}</span>`).join("")}</span>`;
    }
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) return recordsTable(value);
    return esc(JSON.stringify(value));
  }
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${esc(words(k))} ${valueHtml(k, v)}`).join(" · ");
  }
  return esc(String(value));
}

function recordsTable(rows) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const head = keys.map((k) => `<th>${esc(words(k))}</th>`).join("");
  const body = rows.map((r) => `<tr>${keys.map((k) => `<td>${bidsByName(k, r[k])}</td>`).join("")}</tr>`).join("");
  return `<div class="records"><table class="list small"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/* A list of numbers with one entry per seat (as many as the table's seats: bids, scores)
   reads "name value, name value". */
function bidsByName(key, value) {
  const seats = doc && doc.table ? doc.table.size : 0;
  if (Array.isArray(value) && seats && value.length === seats && !SEAT_FIELDS.has(key) &&
      value.every((v) => typeof v === "number" || typeof v === "boolean" || v === null)) {
    return value.map((v, i) => `${esc(nameOf(i))} ${esc(v === null ? "?" : String(v))}`).join(", ");
  }
  return valueHtml(key, value);
}

function eventWords(ev) {
  const d = ev.data || {};
  const type = ev.type === "stream.Undone" ? "Undone" : (d.type || ev.type.split(".").pop());
  const parts = Object.entries(d)
    .filter(([k, v]) => k !== "type" && !["seed", "salt", "seed_hash"].includes(k) && v !== null && v !== undefined)
    .map(([k, v]) => `${esc(words(k))} ${bidsByName(k, v)}`);
  return `<b>${esc(words(type))}</b>${parts.length ? ": " + parts.join(" · ") : ""}`;
}

/* --- drawing ----------------------------------------------------------------------------- */

function draw() {
  if (!doc) return;
  const state = doc.state;
  const root = document.getElementById("game");
  root.hidden = false;
  root.dataset.version = doc.version;
  root.dataset.over = String(Boolean(state.over));
  drawStatus(state);
  showOutcome(state, nameOf);
  const targets = renderBoard(state, { me: me(), names: nameOf, legal: state.legal || [],
    mayComplete: state.may_complete || [] });
  drawActions(state);
  litTargets = targets;
  drawPlayers(state);
  document.getElementById("game-details").innerHTML =
    `Game ${esc(GAME.slice(0, 8))} · version ${doc.version}` +
    (state.seed_hash ? ` · seed hash <code>${esc(state.seed_hash.slice(0, 16))}…</code>` : "");
  drawClock(state);
  if (typeof alertsFollow === "function") alertsFollow(doc); // alerts.js: title, tone, notification
}

/* A place or card id in words: its name from the catalogue. */
function placeName(v) {
  return SF.tiles[v] || SF.districts[v] || (SF.cards[v] ? cardName(v) : String(v));
}

/* A choice's details in words, when its label spells them as data ("Order: move {...}"):
   the same details, ids named (the choice itself is the label's; nothing is worked out). */
function detailWords(v) {
  if (typeof v === "string") return placeName(v);
  if (Array.isArray(v)) return v.map(detailWords).join("; ");
  if (v && typeof v === "object") {
    if ("what" in v && "from" in v) {
      return `${v.what} ${placeName(v.from)} → ${placeName(v.to)}${v.riders ? ` with ${v.riders} thug(s)` : ""}`;
    }
    if ("good" in v && "from" in v) return `${v.n} ${v.good} ${placeName(v.from)} → ${placeName(v.to)}`;
    return Object.entries(v).map(([k, x]) => {
      if (SF.tiles[k] || SF.districts[k]) return `${x} to ${placeName(k)}`;
      const named = typeof x === "string" && x !== placeName(x); // a place or card: its name says it
      return named || ["moves", "sales", "adds", "to"].includes(k) ? detailWords(x) : `${words(k)} ${detailWords(x)}`;
    }).join(", ");
  }
  return String(v);
}

function choiceText(label, form) {
  const at = label.indexOf(" {");
  if (at < 0 || !form) return label.replace(/\b(D\d|n\d\d)\b/g, (id) => placeName(id));
  const rest = Object.fromEntries(Object.entries(form).filter(([k]) => !["type", "order"].includes(k)));
  return `${label.slice(0, at)}: ${detailWords(rest)}`;
}

function optionLabel(o) {
  return o.label || words(o.command || (o.send && o.send.type) || "move");
}

function drawActions(state) {
  const el = document.getElementById("actions");
  const legal = state.legal || [];
  if (state.over) {
    el.innerHTML = `<h3>Your options</h3><p class="muted">None: the game is over.</p>`;
    return;
  }
  const unawaited = outOfTurn(state);
  if (!legal.length) {
    const idle = unawaited ? "Nothing you may play out of turn right now: waiting for the others."
      : "Nothing to do right now: waiting for the others.";
    el.innerHTML = `<h3>Your options</h3><p class="muted">${me() === null || me() === undefined ? "You are watching this table." : idle}</p>`;
    return;
  }
  // Out of turn the choices are said in a line first (nobody waits for them; the turn
  // and its clock stay with the awaited seat).
  const heading = unawaited
    ? `<h3>Out of turn</h3><p class="out-of-turn" data-testid="out-of-turn">Out of turn you may: ${legal.map((o) => {
      const labels = o.variants && o.variants.length > 1 ? o.variant_labels || [] : [];
      return esc(labels.length ? labels.join("; ") : optionLabel(o));
    }).join("; ")}. The turn stays with ${esc((state.awaiting || []).map(nameOf).join(", ") || "the others")}.</p>`
    : "<h3>Your options</h3>";
  const many = 14; // more choices than this: a list to pick from (a plan of a big hand)
  const items = legal.map((o, i) => {
    const label = optionLabel(o);
    const forms = o.variants && o.variants.length ? o.variants : null;
    if (forms && forms.length > 1 && forms.length > many) {
      const labels = o.variant_labels || [];
      const choices = forms.map((v, j) => `<option value="${j}">${esc(labels[j] || JSON.stringify(v))}</option>`).join("");
      return `<div class="option picker" data-testid="option"><div>${labelHtml(label)}</div>
        <select data-variants="${i}" aria-label="${esc(label)}">${choices}</select>
        <button type="button" class="primary" data-send-variant="${i}" data-testid="choice"${busy ? " disabled" : ""}>Send</button></div>`;
    }
    if (forms && forms.length > 1) {
      const labels = o.variant_labels || [];
      let said = label; // each run of choices with one headline ("Use Driver's skill") says it once
      const buttons = forms.map((v, j) => {
        const lit = commandTargets(v).size ? " targeted" : "";
        const text = choiceText(labels[j] || label, v);
        const at = text.indexOf(": ");
        const shown = at < 0 ? esc(text) : esc(text.slice(at + 2)); // the headline says the rest
        const head = at < 0 ? null : text.slice(0, at);
        const sub = head && head !== said && !label.toLowerCase().includes(head.toLowerCase()) ? `<div class="sub-head">${esc(head)}</div>` : "";
        if (head) said = head;
        return `${sub}<button type="button" class="choice${lit}" data-option="${i}" data-variant="${j}" data-testid="choice" title="${esc(text)}" aria-label="${esc(text)}"${busy ? " disabled" : ""}>${shown}</button>`;
      }).join("");
      return `<div class="option group" data-testid="option"><div class="group-head">${esc(label)}</div><div class="choices">${buttons}</div></div>`;
    }
    const sure = confirming === i ? ' <span class="detail">Click again to confirm</span>' : "";
    const danger = (o.command || (o.send && o.send.type)) === "resign" ? " danger" : " primary";
    const lit = commandTargets(o.send).size ? " targeted" : "";
    return `<button type="button" class="option choice${danger}${lit}" data-option="${i}" data-variant="0" data-testid="option"${busy ? " disabled" : ""}>${labelHtml(choiceText(label, o.send))}${sure}</button>`;
  }).join("");
  const ready = (state.may_complete || []).length
    ? `<p class="small" data-testid="may-complete">Jobs you may complete now: ${state.may_complete.map((j) => esc(cardName(j))).join(", ")}</p>` : "";
  setHtmlKeepingChoices(el, `${heading}${ready}<div class="options">${items}</div>`);
}

function drawPlayers(state) {
  const el = document.getElementById("players");
  const waiting = new Set(state.awaiting || []);
  const winners = new Set(state.over ? state.winners || [] : []);
  const players = state.players || [];
  el.innerHTML = (doc.table ? doc.table.seats : []).map((s) => {
    const p = players.find((x) => x && x.seat === s.position) || players[s.position] || {};
    const badges = [];
    if (s.bot) badges.push('<span class="badge">bot</span>');
    if (s.position === me()) badges.push('<span class="badge you">you</span>');
    if (waiting.has(s.position)) badges.push('<span class="badge turn">to move</span>');
    if (winners.has(s.position)) badges.push('<span class="badge win">winner</span>');
    const facts = p.gang_name ? `${esc(p.gang_name)} · crime ${p.crime} · hand ${p.hand_count} · jobs ${p.jobs_count}` : "";
    return `<li data-seat="${s.position}"><b>${esc(s.name)}</b> ${badges.join(" ")}<div class="small">${facts}</div></li>`;
  }).join("");
}

/* --- input ------------------------------------------------------------------------------- */

function focusChoices(list) {
  document.querySelectorAll("#actions .focus").forEach((b) => b.classList.remove("focus"));
  for (const [i, j] of list) {
    const b = document.querySelector(`#actions button[data-option="${i}"][data-variant="${j}"]`);
    if (b) b.classList.add("focus");
  }
  const first = document.querySelector("#actions .focus");
  if (first) first.scrollIntoView({ block: "nearest" });
}

function sendChoice(i, j) {
  const o = (doc.state.legal || [])[i];
  if (!o) return;
  if ((o.command || o.send.type) === "resign" && confirming !== i) {
    confirming = i;
    draw();
    return;
  }
  send(o.variants && o.variants.length ? o.variants[j] : o.send);
}

document.addEventListener("click", (ev) => {
  if (!doc || busy) return;
  const place = ev.target.closest(".tile.lit, .district.lit");
  if (place && !ev.target.closest("button")) {
    const id = place.dataset.tile || place.dataset.district;
    const list = litTargets.get(id) || [];
    if (list.length === 1) sendChoice(list[0][0], list[0][1]);
    else focusChoices(list);
    ev.stopPropagation();
    return;
  }
  const button = ev.target.closest("button");
  if (!button || button.disabled) return;
  if (button.dataset.option !== undefined) {
    sendChoice(Number(button.dataset.option), Number(button.dataset.variant || 0));
  } else if (button.dataset.sendVariant !== undefined) {
    const i = Number(button.dataset.sendVariant);
    const o = (doc.state.legal || [])[i];
    const select = document.querySelector(`select[data-variants="${i}"]`);
    if (o && select) send(o.variants[Number(select.value)]);
  }
});

/* The log has events the state does not include yet. */
function behind() {
  return Boolean(doc && lastSeq > doc.version);
}

function tick() {
  const now = Date.now() + clockOffset;
  document.querySelectorAll("[data-deadline]").forEach((el) => {
    const left = Math.max(0, Number(el.dataset.deadline) - now);
    el.textContent = left > 0 ? `${(left / 1000).toFixed(1)} s ${el.dataset.label}` : "Time is up…";
  });
}

async function main() {
  if (!(await openTable({ gameId: GAME, info: tableInfo, tick, loadState, loadLog, behind }))) return;
  follow();
}

main();
