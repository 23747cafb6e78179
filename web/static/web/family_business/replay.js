/* The replay viewer: GET /games/{id}/replay?at=N for the state after event N (every hand
   revealed once the game is over), the event feed for the move list, the audit trail for
   each event's hash, and the game's reviews: annotations on positions and rulings.

   The address is the position: ?turn=N (the start of turn N) or ?at=N (after event N), so
   every position can be shared. Controls step by event or by turn, jump to a turn, or to
   the next attack, counter, Mob War or elimination. */
"use strict";

const GAME = CFG.gameId;
let events = []; // every event, in order
let live = []; // the events that count (not taken back by an undo)
let turns = []; // [{turn, seq}] of each TurnStarted that counts, in order
let hashes = {}; // seq -> audit hash
let at = 1;
let names = null; // the final state, to name seats in the log
let notes = []; // annotations
let table = null; // the table document (seats, status, result)
const cache = new Map();
let notice = null; // a message about the address, shown once the position is drawn

async function loadEvents() {
  let after = 0;
  for (;;) {
    const page = await api("GET", `/games/${GAME}/events?after=${after}`);
    events = events.concat(page.events);
    if (!page.events.length || !page.has_more) break;
    after = page.events[page.events.length - 1].seq;
  }
  const undone = events.filter((ev) => eventType(ev) === "stream.Undone" && ev.data)
    .map((ev) => [ev.data.from_seq, ev.data.to_seq]);
  live = events.filter((ev) => eventType(ev) !== "stream.Undone" &&
    !undone.some(([a, b]) => ev.seq >= a && ev.seq <= b));
  turns = live.filter((ev) => eventType(ev) === "TurnStarted").map((ev) => ({ turn: ev.data.turn, seq: ev.seq }));
}

async function loadAudit() {
  try {
    const audit = await api("GET", `/games/${GAME}/audit`);
    for (const ev of audit.events) hashes[ev.seq] = ev.hash;
    const last = audit.events[audit.events.length - 1];
    document.getElementById("final-hash").textContent = last ? last.hash : "none";
  } catch (err) {
    // not a player of this game: the last event's hash comes with the replay of the end
    try {
      const end = await stateAt(maxSeq());
      document.getElementById("final-hash").textContent = end.hash || "shown once the game is over";
    } catch (e) {
      document.getElementById("final-hash").textContent = `not available (${err.message})`;
    }
  }
}

function maxSeq() {
  return events.length ? events[events.length - 1].seq : 1;
}

async function stateAt(seq) {
  if (!cache.has(seq)) cache.set(seq, api("GET", `/games/${GAME}/replay?at=${seq}`));
  return cache.get(seq);
}

/* --- positions: turns and the jumps --------------------------------------------------- */

function turnAt(seq) {
  let found = null;
  for (const t of turns) if (t.seq <= seq) found = t;
  return found;
}

function turnStart(n) {
  const t = turns.find((x) => x.turn === n);
  return t ? t.seq : null;
}

const JUMPS = {
  attack: (ev) => eventType(ev) === "CardPlayed" && !ev.data.discard &&
    (CAT.kinds[ev.data.kind] || {}).category === "attack",
  counter: (ev) => eventType(ev) === "CounterPlayed",
  mobwar: (ev) => eventType(ev) === "MobWarStarted",
  elimination: (ev) => ["MobsterEliminated", "PlayerOut"].includes(eventType(ev)),
};

function nextOf(kind) {
  const found = live.find((ev) => ev.seq > at && JUMPS[kind](ev));
  return found ? found.seq : null;
}

/* The address of a position: a turn's start is shared as ?turn=N, anything else as ?at=N. */
function addressOf(seq) {
  const t = turnAt(seq);
  return t && t.seq === seq ? `/games/${GAME}/replay?turn=${t.turn}` : `/games/${GAME}/replay?at=${seq}`;
}

/* --- drawing -------------------------------------------------------------------------- */

function drawLog(finalState) {
  const log = new MoveLog();
  const list = document.getElementById("log");
  list.innerHTML = events.map((ev) => log.item(ev, finalState)).join("");
  markUndone(list, events);
}

function drawNotes() {
  const list = document.getElementById("notes");
  list.innerHTML = notes.map((a) => {
    const t = turnAt(a.seq);
    return `<li data-seq="${a.seq}" data-testid="annotation" class="${a.seq === at ? "here" : ""}">
      <a href="${addressOf(a.seq)}" data-goto="${a.seq}">event ${a.seq}${t ? ` (turn ${t.turn})` : ""}</a>
      <div class="note-text">${esc(a.text)}</div>
      <div class="small muted">${esc(a.author.name)}${a.role === "staff" ? " (staff)" : ""} · ${esc(new Date(a.created_at).toLocaleString())}</div></li>`;
  }).join("") || '<li class="muted">No notes yet.</li>';
  // the log marks the positions that carry notes
  const annotated = new Set(notes.map((a) => a.seq));
  document.querySelectorAll("#log li[data-seq]").forEach((li) => {
    li.classList.toggle("annotated", annotated.has(Number(li.dataset.seq)));
  });
}

function rulingWords(r, name) {
  if (r.kind === "award") return `The win is awarded to ${listWords(r.winners.map(name))}`;
  if (r.kind === "void") return "The game is void: it counts for nobody";
  return "Note";
}

function drawRulings(rulings) {
  const box = document.getElementById("rulings");
  box.hidden = !rulings.length;
  if (!rulings.length) return;
  const name = seatNamer(names);
  const decided = table && table.result && table.result.decided_by === "ruling" ? table.result.ruling : null;
  box.innerHTML = `<h3>Rulings</h3><ul>${rulings.map((r) => `<li data-testid="ruling" data-kind="${esc(r.kind)}"
      class="${r.id === decided ? "deciding" : ""}"><b>${esc(rulingWords(r, name))}.</b> ${esc(r.reason)}
      <div class="small muted">${esc(r.author.name)} (tournament director) · ${esc(new Date(r.created_at).toLocaleString())}${r.seq ? ` · about <a href="${addressOf(r.seq)}" data-goto="${r.seq}">event ${r.seq}</a>` : ""}${r.id === decided ? " · <b>the game's result</b>" : ""}</div></li>`).join("")}</ul>`;
}

async function show(seq, { push = true } = {}) {
  const max = maxSeq();
  at = Math.max(1, Math.min(max, seq));
  let replay;
  try {
    replay = await stateAt(at);
    showError(null);
  } catch (err) {
    cache.delete(at);
    showError(err);
    return;
  }
  if (replay.at !== at) return; // a later click won the race
  const state = replay.state;
  renderBoard(state, { me: null, showHands: true, events: events.filter((ev) => ev.seq <= at) });
  const panel = document.getElementById("window-panel");
  panel.hidden = !state.window;
  panel.innerHTML = state.window ? windowHtml(state) : "";
  document.querySelectorAll("[data-deadline]").forEach((el) => {
    el.removeAttribute("data-deadline");
    el.textContent = "";
  });
  const t = turnAt(at);
  document.getElementById("position").textContent =
    t ? `Turn ${t.turn} · event ${at} of ${max}` : `Event ${at} of ${max}`;
  const slider = document.getElementById("slider");
  slider.max = String(max);
  slider.value = String(at);
  document.getElementById("turn-input").max = String(turns.length ? turns[turns.length - 1].turn : 1);
  document.getElementById("turn-input").placeholder = t ? String(t.turn) : "";
  // the replay answer carries the hash of event `at` (once the game is over, for anyone);
  // the audit trail (players after the end, staff) is the fallback
  document.getElementById("hash").textContent = replay.hash || hashes[at] || "not available yet (shown once the game is over)";
  document.getElementById("seed").textContent = state.seed || "(revealed at the end)";
  const url = addressOf(at);
  document.getElementById("share").href = url;
  if (push) window.history.replaceState({ at }, "", url);
  const list = document.getElementById("log");
  list.querySelectorAll("li").forEach((li) => {
    li.classList.toggle("now", Number(li.dataset.seq) === at);
    li.classList.toggle("future", Number(li.dataset.seq) > at);
  });
  const current = list.querySelector(`li[data-seq="${at}"]`);
  document.getElementById("current").innerHTML = current ? current.innerHTML : "";
  if (current) { // scroll the log, never the page: the controls stay where they are
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
  document.getElementById("note-seq").textContent = String(at);
  document.querySelectorAll("#notes li[data-seq]").forEach((li) => li.classList.toggle("here", Number(li.dataset.seq) === at));
  document.getElementById("first").disabled = at <= 1;
  document.getElementById("prev").disabled = at <= 1;
  document.getElementById("prev-turn").disabled = !turns.some((x) => x.seq < at);
  document.getElementById("next").disabled = at >= max;
  document.getElementById("last").disabled = at >= max;
  document.getElementById("next-turn").disabled = !turns.some((x) => x.seq > at);
  document.querySelectorAll("[data-jump]").forEach((b) => { b.disabled = nextOf(b.dataset.jump) === null; });
  stateAt(Math.min(max, at + 1)); // fetch the next step ahead of the click
}

function prevTurn() {
  const before = turns.filter((x) => x.seq < at);
  if (before.length) show(before[before.length - 1].seq);
}

function nextTurn() {
  const after = turns.find((x) => x.seq > at);
  if (after) show(after.seq);
}

/* Where the address asks to open: ?turn=N (its start), else ?at=N, else the end. */
function wanted() {
  const q = new URLSearchParams(window.location.search);
  if (q.has("turn")) {
    const seq = turnStart(Number(q.get("turn")));
    if (seq !== null) return seq;
    const last = turns.length ? turns[turns.length - 1].turn : 0;
    notice = `This game has no turn ${q.get("turn")} (turns 1 to ${last}); showing the end.`;
    return maxSeq();
  }
  return Number(q.get("at")) || maxSeq();
}

/* --- reviews: annotations and rulings ------------------------------------------------- */

async function loadNotes() {
  try {
    notes = (await api("GET", `/games/${GAME}/annotations`)).annotations;
  } catch (err) {
    notes = [];
    document.getElementById("notes").innerHTML = `<li class="muted">${esc(err.status === 403 ? "Notes are shown once the game is over." : err.message)}</li>`;
    return;
  }
  drawNotes();
}

async function loadRulings() {
  try {
    drawRulings((await api("GET", `/games/${GAME}/rulings`)).rulings);
  } catch (err) {
    if (err.status === 403) drawRulings([]); // shown once the game is over (unseated staff: always)
    else showError(err);
  }
}

function reviewForms() {
  const finished = table && table.status === "finished";
  const seated = table && table.your_seat !== null && table.your_seat !== undefined;
  // staff annotate any game they do not play in; players their own once it is over;
  // staff seated here are players (they never rule on their own game)
  document.getElementById("note-form").hidden = !((CFG.staff && !seated) || (seated && finished));
  document.getElementById("ruling-panel").hidden = !(CFG.staff && !seated);
  document.getElementById("ruling-winners").innerHTML = (table ? table.seats : []).map((s) =>
    `<label class="check"><input type="checkbox" value="${s.position}"> ${esc(seatNamer(names)(s.position))}</label>`).join("");
}

async function addNote(ev) {
  ev.preventDefault();
  const box = document.getElementById("note-text");
  try {
    await api("POST", `/games/${GAME}/annotations`, { seq: at, text: box.value });
    box.value = "";
    showError(null);
    await loadNotes();
  } catch (err) {
    showError(err);
  }
}

async function addRuling(ev) {
  ev.preventDefault();
  const kind = document.getElementById("ruling-kind").value;
  const body = { kind, reason: document.getElementById("ruling-reason").value, seq: at };
  if (kind === "award") {
    body.winners = [...document.querySelectorAll("#ruling-winners input:checked")].map((i) => Number(i.value));
  }
  try {
    await api("POST", `/games/${GAME}/rulings`, body);
    document.getElementById("ruling-reason").value = "";
    showError(null);
    table = await api("GET", `/tables/${GAME}`);
    await loadRulings();
  } catch (err) {
    showError(err);
  }
}

async function main() {
  window.scrollTo(0, 0);
  try {
    await loadEvents();
    table = await api("GET", `/tables/${GAME}`);
  } catch (err) {
    showError(err);
    return;
  }
  const final = await stateAt(maxSeq());
  names = final.state;
  if (!final.state.over) {
    showError("This game is still running: the replay shows only what you may see, with no hands revealed.");
  }
  drawLog(names);
  reviewForms();
  await Promise.all([loadAudit(), loadNotes(), loadRulings()]);
  await show(wanted());
  if (notice) showError(notice);
  window.scrollTo(0, 0); // open at the top, with the controls

  document.getElementById("first").addEventListener("click", () => show(1));
  document.getElementById("prev").addEventListener("click", () => show(at - 1));
  document.getElementById("next").addEventListener("click", () => show(at + 1));
  document.getElementById("last").addEventListener("click", () => show(Infinity));
  document.getElementById("prev-turn").addEventListener("click", prevTurn);
  document.getElementById("next-turn").addEventListener("click", nextTurn);
  document.querySelectorAll("[data-jump]").forEach((b) => b.addEventListener("click", () => {
    const seq = nextOf(b.dataset.jump);
    if (seq !== null) show(seq);
  }));
  document.getElementById("turn-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const n = Number(document.getElementById("turn-input").value);
    const seq = turnStart(n);
    if (seq === null) showError(`This game has no turn ${n} (turns 1 to ${turns.length ? turns[turns.length - 1].turn : 0}).`);
    else show(seq);
  });
  document.getElementById("slider").addEventListener("input", (ev) => show(Number(ev.target.value)));
  document.getElementById("log").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-seq]");
    if (li) show(Number(li.dataset.seq));
  });
  document.addEventListener("click", (ev) => {
    const link = ev.target.closest("[data-goto]");
    if (link) { ev.preventDefault(); show(Number(link.dataset.goto)); }
  });
  document.getElementById("note-form").addEventListener("submit", addNote);
  document.getElementById("ruling-form").addEventListener("submit", addRuling);
  document.getElementById("ruling-kind").addEventListener("change", (ev) => {
    document.getElementById("ruling-winners").hidden = ev.target.value !== "award";
  });
  document.addEventListener("keydown", (ev) => {
    if (["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
    if (ev.key === "ArrowLeft") show(at - 1);
    if (ev.key === "ArrowRight") show(at + 1);
    if (ev.key === "PageUp") { ev.preventDefault(); prevTurn(); }
    if (ev.key === "PageDown") { ev.preventDefault(); nextTurn(); }
  });
}

main();
