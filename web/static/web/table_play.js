/* What a table page that plays from the game's document says to the server, shared by the
   generic table page (table/game.js) and a game's own page that draws its view (its
   game.js); each page brings its own draw(), eventWords(ev) and tick().

   The game document: GET /games/{id} (`loadState`), newer than the one held or dropped;
   a command's result replaces it (`useCommandResult`). The move log: GET
   /games/{id}/events pages (`loadLog`), then long-polls (`follow`) whose new events go to
   the log and trigger a fresh state read. Moves: POST /games/{id}/commands with an
   Idempotency-Key and the document's version (`send`); a 409 or 422 reads the game again.
   Also what every such page draws alike: the words and seat names, the status line (whose
   move, a ruling, an absence), the turn clock, an option's label, acting out of turn. */
"use strict";

const CFG = JSON.parse(document.getElementById("config").textContent);
const GAME = CFG.gameId;
let doc = null; // the last game document
let clockOffset = 0; // server_time - Date.now()
let lastSeq = 0;
let busy = false;
let feedFailed = false;
let confirming = null; // the index of an option awaiting a second click (resign)

// Fields of the view that are plumbing, not something to show as a fact of the game.
const PLUMBING = new Set(["game", "viewer", "legal", "over", "winners", "outcome", "revealed",
  "players", "awaiting", "seed_hash", "seed", "rules_version", "window", "deadline"]);
// Fields whose numbers are seats: shown as the seat's name.
const SEAT_FIELDS = new Set(["seat", "winner", "winners", "turn_seat", "actor", "high"]);

/* --- the waiting room (page.js draws it) --------------------------------------------- */

function tableInfo(table) {
  const opts = Object.entries(table.options || {}).map(([k, v]) => `${words(k)} ${v}`).join(", ");
  return `${table.mode} table · ${table.size} seats${opts ? " · " + opts : ""}` +
    (table.turn_seconds ? ` · ${table.turn_seconds} s per move` : "");
}

/* --- talking to the server ----------------------------------------------------------- */

function me() {
  return doc ? doc.seat : null;
}

async function loadState() {
  const fresh = await api("GET", `/games/${GAME}`);
  if (doc && fresh.version < doc.version) return; // an older read that lost the race
  clockOffset = fresh.server_time - Date.now();
  doc = fresh;
  draw();
}

function useCommandResult(res) {
  if (doc && res.version < doc.version) return;
  clockOffset = res.server_time - Date.now();
  doc = { ...doc, version: res.version, state: res.state, server_time: res.server_time,
    table: res.table || doc.table, undo_available: res.undo_available, turn_deadline: res.turn_deadline,
    out_of_turn: res.out_of_turn || [] };
  draw();
}

async function loadLog() {
  for (;;) {
    const page = await api("GET", `/games/${GAME}/events?after=${lastSeq}`);
    addEvents(page.events);
    if (!page.has_more) return;
  }
}

function addEvents(events) {
  const list = document.getElementById("log");
  let html = "";
  for (const ev of events) {
    if (ev.seq <= lastSeq) continue;
    lastSeq = ev.seq;
    html += `<li data-seq="${ev.seq}">${eventWords(ev)}</li>`;
  }
  if (!html) return events.length > 0;
  list.insertAdjacentHTML("beforeend", html);
  list.scrollTop = list.scrollHeight;
  return true;
}

async function follow() {
  for (;;) {
    if (doc && doc.state.over && lastSeq >= doc.version) return;
    try {
      const page = await api("GET", `/games/${GAME}/events?after=${lastSeq}&wait=${CFG.feedWait}`);
      // (a ruling ends a game with no event: the feed says `finished`)
      if (addEvents(page.events) || page.has_more || (page.finished && !doc.state.over)) await loadState();
      if (feedFailed) { showError(null); feedFailed = false; }
    } catch (err) {
      showError(err);
      feedFailed = true;
      await sleep(2000);
    }
  }
}

async function send(command) {
  if (busy) return;
  busy = true;
  draw();
  try {
    const body = { command, expected_version: doc.version };
    const res = await api("POST", `/games/${GAME}/commands`, body, { idempotent: true });
    showError(null);
    useCommandResult(res);
  } catch (err) {
    showError(err);
    if (err.status === 409 || err.status === 422) {
      try { await loadState(); } catch (e) { /* the feed will catch up */ }
    }
  } finally {
    busy = false;
    confirming = null;
    draw();
  }
}

/* --- words ----------------------------------------------------------------------------- */

/* "has_bid" -> "Has bid"; "BidsRevealed" -> "Bids revealed". */
function words(key) {
  const spaced = String(key).replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function nameOf(seat) {
  return tableSeatNamer(doc)(seat);
}

/* --- what such pages draw alike ------------------------------------------------------- */

function drawStatus(state) {
  const el = document.getElementById("status");
  const seat = me();
  const waiting = state.awaiting || [];
  let html;
  if (state.over) {
    const mine = (state.winners || []).includes(seat) ? " You win!" : "";
    html = `<b>Game over.</b> ${state.outcome ? esc(state.outcome.summary) : ""}${mine}`;
  } else if (waiting.includes(seat)) {
    const others = waiting.filter((s) => s !== seat).map(nameOf);
    html = `<b>Your move.</b>${others.length ? ` Also waiting for ${esc(others.join(", "))}.` : ""}`;
  } else if (waiting.length) {
    const may = outOfTurn(state) && (state.legal || []).length ? " You may act out of turn (see your options)." : "";
    html = `Waiting for ${esc(waiting.map(nameOf).join(", "))}…${may}`;
  } else {
    html = "…";
  }
  el.innerHTML = html + rulingLine(doc.table, nameOf, GAME) + absenceLine(doc, nameOf, GAME);
}

function drawClock(state) {
  const el = document.getElementById("turn-clock");
  const deadline = state.over ? null : doc.turn_deadline;
  el.hidden = !deadline;
  if (deadline) {
    el.dataset.deadline = deadline;
    el.dataset.label = "left for this move";
  }
}

/* The label "Bid 3 for the prize worth 4: the single highest bid wins it" as a headline and
   its detail. */
function labelHtml(text) {
  const at = text.indexOf(": ");
  if (at < 0) return `<span class="head">${esc(text)}</span>`;
  return `<span class="head">${esc(text.slice(0, at))}</span><span class="detail">${esc(text.slice(at + 2))}</span>`;
}

/* Whether the viewer's seat may act now without being awaited (the document's
   `out_of_turn`: a game's unprompted play, such as a job on another seat's turn). */
function outOfTurn(state) {
  const seat = me();
  return typeof seat === "number" && !state.over && (doc.out_of_turn || []).includes(seat) &&
    !(state.awaiting || []).includes(seat);
}
