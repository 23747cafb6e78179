/* The generic table page: any game without pages of its own, played from what every game
   tells the service (games/core.py) and nothing else.

   State: GET /games/{id} (the viewer's view: `players`, `awaiting`, `over`, `outcome` and a
   seat's `legal` options, each with `send`, `ready`, `label` and maybe `variants` with
   `variant_labels`; the document's `out_of_turn`: seats that may act unawaited, whose
   options are offered as "Out of turn you may ..."). Updates: long-poll
   GET /games/{id}/events?after=N&wait=W; new events go to the move log and trigger a
   fresh state read. Moves: POST /games/{id}/commands with
   an Idempotency-Key, the option's `send` (or the variant picked) as the command. The page
   holds no rules and names no game: the view is drawn generically (scalars as facts, lists
   of numbers as chips, lists of records as small tables, seat numbers as names). Reading,
   following and sending are table_play.js's, which this page shares. */
"use strict";

/* A value of the view, readably: seats by name, lists of numbers as chips, records as
   "key value" pairs, lists of records as a small table. */
function valueHtml(key, value) {
  if (value === null || value === undefined) return '<span class="muted">–</span>';
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (SEAT_FIELDS.has(key) && typeof value === "number") return esc(nameOf(value));
  if (SEAT_FIELDS.has(key) && Array.isArray(value)) return esc(value.map(nameOf).join(", ") || "–");
  if (Array.isArray(value)) {
    if (!value.length) return '<span class="muted">none</span>';
    if (value.every((v) => typeof v !== "object" || v === null)) {
      return `<span class="chips">${value.map((v) => `<span class="chip">${esc(v === null ? "?" : String(v))}</span>`).join("")}</span>`;
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
  drawActions(state);
  drawMine(state);
  drawFacts(state);
  drawPlayers(state);
  document.getElementById("game-details").innerHTML =
    `Game ${esc(GAME.slice(0, 8))} · version ${doc.version}` +
    (state.seed_hash ? ` · seed hash <code>${esc(state.seed_hash.slice(0, 16))}…</code>` : "");
  drawClock(state);
  if (typeof alertsFollow === "function") alertsFollow(doc); // alerts.js: title, tone, notification
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
  const items = legal.map((o, i) => {
    const label = optionLabel(o);
    if (o.variants && o.variants.length > 1) {
      const labels = o.variant_labels || [];
      const choices = o.variants.map((v, j) => `<option value="${j}">${esc(labels[j] || JSON.stringify(v))}</option>`).join("");
      return `<div class="option picker" data-testid="option"><div>${labelHtml(label)}</div>
        <select data-variants="${i}" aria-label="${esc(label)}">${choices}</select>
        <button type="button" class="primary" data-send-variant="${i}"${busy ? " disabled" : ""}>Send</button></div>`;
    }
    if (!o.ready) {
      return `<div class="option" data-testid="option"><button type="button" disabled title="This move needs choices this page cannot make; its game's own page or the API can.">${labelHtml(label)}</button></div>`;
    }
    const sure = confirming === i ? ' <span class="detail">Click again to confirm</span>' : "";
    const danger = (o.command || (o.send && o.send.type)) === "resign" ? " danger" : " primary";
    return `<button type="button" class="option${danger}" data-option="${i}" data-testid="option"${busy ? " disabled" : ""}>${labelHtml(label)}${sure}</button>`;
  }).join("");
  setHtmlKeepingChoices(el, `${heading}<div class="options">${items}</div>`);
}

function drawMine(state) {
  const el = document.getElementById("mine");
  const seat = me();
  const players = state.players || [];
  const mine = typeof seat === "number" ? players.find((p) => p && p.seat === seat) || players[seat] : null;
  el.hidden = !mine;
  if (!mine) return;
  const rows = Object.entries(mine).filter(([k]) => !["seat", "name"].includes(k))
    .map(([k, v]) => `<div class="fact"><span class="key">${esc(words(k))}</span> ${valueHtml(k, v)}</div>`).join("");
  el.innerHTML = `<h3>You (${esc(nameOf(seat))})</h3>${rows}`;
}

function drawFacts(state) {
  const el = document.getElementById("facts");
  const entries = Object.entries(state).filter(([k]) => !PLUMBING.has(k));
  el.hidden = !entries.length;
  el.innerHTML = `<h3>The table</h3>` + entries.map(([k, v]) =>
    `<div class="fact" data-fact="${esc(k)}"><span class="key">${esc(words(k))}</span> ${bidsByName(k, v)}</div>`).join("");
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
    const facts = Object.entries(p).filter(([k]) => !["seat", "name"].includes(k))
      .map(([k, v]) => `<span class="fact"><span class="key">${esc(words(k))}</span> ${valueHtml(k, v)}</span>`).join("");
    return `<li data-seat="${s.position}"><b>${esc(s.name)}</b> ${badges.join(" ")}<div class="small">${facts}</div></li>`;
  }).join("");
}

/* --- input ------------------------------------------------------------------------------- */

document.addEventListener("click", (ev) => {
  const button = ev.target.closest("button");
  if (!button || button.disabled || !doc) return;
  const legal = doc.state.legal || [];
  if (button.dataset.option !== undefined) {
    const i = Number(button.dataset.option);
    const o = legal[i];
    if (!o) return;
    if ((o.command || o.send.type) === "resign" && confirming !== i) {
      confirming = i;
      draw();
      return;
    }
    send(o.send);
  } else if (button.dataset.sendVariant !== undefined) {
    const i = Number(button.dataset.sendVariant);
    const o = legal[i];
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
