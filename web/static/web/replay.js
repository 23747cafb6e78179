/* The replay viewer of every game.

   It reads GET /games/{id}/replay?at=N (the game after event N as you may see it, every
   hand once the game is over), the event feed for the move list, GET /games/{id}/marks for
   the game's own turns and notable moments (each game declares them: games/core.py,
   review_marks), the audit trail for each event's hash, and the reviews (notes on
   positions, rulings).

   The game supplies only its board: its scripts set window.REPLAY_BOARD = {
     draw(state, ctx),          // draw the board; ctx: {at, events (those that count, up to at), final, table}
     log(events, final) -> html // optional: one <li data-seq> per event it shows (its move log)
   }; a game without one gets the generic rendering of its view (state_board.js).

   The address is the position: ?turn=N (the start of turn N) or ?at=N (after event N);
   it follows every step, so any position can be shared. */
"use strict";

const REPLAY_CFG = JSON.parse(document.getElementById("config").textContent);
const GAME_ID = REPLAY_CFG.gameId;
const BOARD = window.REPLAY_BOARD || genericReplayBoard();

const R = {
  events: [], // every event, in order (undo markers and undone events too: the log shows them)
  live: [], // the events that count
  undone: [], // [from, to, by]: the ranges undo markers took back
  turns: [], // [{seq, number, label}] of the game's turns, in order
  moments: [], // [{seq, kind, label, turn}], in order
  kinds: [], // [{kind, name}]
  turnName: "turn",
  at: 1,
  hashes: {},
  notes: [],
  table: null,
  final: null, // the state at the end, to name seats in the log
  cache: new Map(),
  notice: null, // a message about the address, shown once the position is drawn
};

const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);
const isUndo = (ev) => ev.type === "stream.Undone";

function seatName(seat) {
  const s = R.table && R.table.seats.find((x) => x.position === seat);
  return s ? s.name : `Seat ${seat + 1}`;
}

function joinWords(items) {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/* --- loading ---------------------------------------------------------------------------- */

async function loadEvents() {
  let after = 0;
  for (;;) {
    const page = await api("GET", `/games/${GAME_ID}/events?after=${after}`);
    R.events = R.events.concat(page.events);
    if (!page.events.length || !page.has_more) break;
    after = page.events[page.events.length - 1].seq;
  }
  const undone = R.events.filter((ev) => isUndo(ev) && ev.data).map((ev) => [ev.data.from_seq, ev.data.to_seq, ev.seq]);
  R.undone = undone;
  R.live = R.events.filter((ev) => !isUndo(ev) && !undone.some(([a, b]) => ev.seq >= a && ev.seq <= b));
}

async function loadMarks() {
  const marks = await api("GET", `/games/${GAME_ID}/marks`);
  R.turns = marks.turns;
  R.moments = marks.moments;
  R.kinds = marks.kinds;
  R.turnName = marks.turn_name || "turn";
}

async function loadAudit() {
  try {
    const audit = await api("GET", `/games/${GAME_ID}/audit`);
    for (const ev of audit.events) R.hashes[ev.seq] = ev.hash;
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
  return R.events.length ? R.events[R.events.length - 1].seq : 1;
}

function stateAt(seq) {
  if (!R.cache.has(seq)) R.cache.set(seq, api("GET", `/games/${GAME_ID}/replay?at=${seq}`));
  return R.cache.get(seq);
}

/* --- positions: turns and moments --------------------------------------------------------- */

function turnAt(seq) {
  let found = null;
  for (const t of R.turns) if (t.seq <= seq) found = t;
  return found;
}

function turnStart(n) {
  const t = R.turns.find((x) => x.number === n);
  return t ? t.seq : null;
}

const lastTurn = () => (R.turns.length ? R.turns[R.turns.length - 1].number : 0);

/* The address of a position: a turn's start is shared as ?turn=N, anything else as ?at=N. */
function addressOf(seq) {
  const t = turnAt(seq);
  return t && t.seq === seq ? `/games/${GAME_ID}/replay?turn=${t.number}` : `/games/${GAME_ID}/replay?at=${seq}`;
}

const chosenKind = () => document.getElementById("moment-kind").value;
const ofKind = (kind) => R.moments.filter((m) => !kind || m.kind === kind);

function nextMoment(kind) {
  return ofKind(kind).find((m) => m.seq > R.at) || null;
}

function prevMoment(kind) {
  return ofKind(kind).filter((m) => m.seq < R.at).pop() || null;
}

/* --- drawing ---------------------------------------------------------------------------- */

function drawLog() {
  const list = document.getElementById("log");
  list.innerHTML = BOARD.log ? BOARD.log(R.events, R.final) : genericLog(R.events, seatName);
  for (const [from, to, by] of R.undone) {
    list.querySelectorAll("li[data-seq]").forEach((li) => {
      const seq = Number(li.dataset.seq);
      if (seq >= from && seq <= to && !li.classList.contains("undone")) {
        li.classList.add("undone");
        li.title = `Taken back by the undo at event ${by}`;
      }
    });
  }
}

function drawControls() {
  const word = capital(R.turnName);
  document.getElementById("prev-turn").textContent = `◀ ${word}`;
  document.getElementById("next-turn").textContent = `${word} ▶`;
  document.getElementById("prev-turn").title = `The start of this ${R.turnName}, or the previous one (Page Up, Shift+←)`;
  document.getElementById("next-turn").title = `The start of the next ${R.turnName} (Page Down, Shift+→)`;
  document.getElementById("turn-word").textContent = word;
  document.getElementById("turn-input").setAttribute("aria-label", `${word} to go to`);
  document.getElementById("turn-input").max = String(lastTurn() || 1);
  document.querySelectorAll("[data-turn-name]").forEach((el) => { el.textContent = R.turnName; });
  const counted = (kind) => R.moments.filter((m) => m.kind === kind).length;
  document.getElementById("moment-kind").innerHTML = `<option value="">every moment (${R.moments.length})</option>` +
    R.kinds.map((k) => `<option value="${esc(k.kind)}">${esc(k.name)} (${counted(k.kind)})</option>`).join("");
  document.getElementById("jumps").innerHTML = '<span class="muted small">Next:</span> ' + R.kinds
    .map((k) => `<button type="button" data-jump="${esc(k.kind)}" title="The next ${esc(k.name)}">${esc(k.name)}</button>`).join("");
}

function drawMoments() {
  const kind = chosenKind();
  const shown = ofKind(kind);
  const name = Object.fromEntries(R.kinds.map((k) => [k.kind, k.name]));
  document.getElementById("moments-count").textContent = kind ? `(${shown.length} ${name[kind] || kind})` : `(${shown.length})`;
  document.getElementById("moments").innerHTML = shown.map((m) =>
    `<li data-seq="${m.seq}" data-kind="${esc(m.kind)}" data-testid="moment"><a href="${addressOf(m.seq)}" data-goto="${m.seq}">${esc(m.label)}</a> <span class="muted small">${esc(name[m.kind] || m.kind)} · event ${m.seq}</span></li>`,
  ).join("") || `<li class="muted">No moments${kind ? " of this kind" : ""} ${R.moments.length ? "" : "yet"}.</li>`;
}

function placeMoments() {
  const list = document.getElementById("moments");
  let current = null;
  list.querySelectorAll("li[data-seq]").forEach((li) => {
    const seq = Number(li.dataset.seq);
    li.classList.toggle("here", seq === R.at);
    li.classList.toggle("future", seq > R.at);
    if (seq <= R.at) current = li;
  });
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  const here = R.moments.filter((m) => m.seq === R.at);
  const box = document.getElementById("moment-now");
  box.hidden = !here.length;
  box.textContent = here.map((m) => m.label).join(" · ");
}

function drawNotes() {
  const list = document.getElementById("notes");
  list.innerHTML = R.notes.map((a) => {
    const t = turnAt(a.seq);
    return `<li data-seq="${a.seq}" data-testid="annotation" class="${a.seq === R.at ? "here" : ""}">
      <a href="${addressOf(a.seq)}" data-goto="${a.seq}">event ${a.seq}${t ? ` (${R.turnName} ${t.number})` : ""}</a>
      <div class="note-text">${esc(a.text)}</div>
      <div class="small muted">${esc(a.author.name)}${a.role === "staff" ? " (staff)" : ""} · ${esc(new Date(a.created_at).toLocaleString())}</div></li>`;
  }).join("") || '<li class="muted">No notes yet.</li>';
  // the log marks the positions that carry notes
  const annotated = new Set(R.notes.map((a) => a.seq));
  document.querySelectorAll("#log li[data-seq]").forEach((li) => {
    li.classList.toggle("annotated", annotated.has(Number(li.dataset.seq)));
  });
}

function rulingWords(r) {
  if (r.kind === "award") return `The win is awarded to ${joinWords(r.winners.map(seatName))}`;
  if (r.kind === "void") return "The game is void: it counts for nobody";
  return "Note";
}

/* At the last event of a game a ruling decided: the game ends here, decided (the board
   shows it over, with the ruling's winners and nobody's turn). */
function drawDecided(decided) {
  const box = document.getElementById("decided");
  box.hidden = !decided;
  if (!decided) return;
  const what = decided.kind === "void" ? "the game is void: it counts for nobody"
    : `the win is awarded to ${joinWords(decided.winners.map(seatName))}`;
  box.innerHTML = `<b>Decided by a ruling:</b> ${esc(what)}. The game ends here, at event ${maxSeq()}: ` +
    "nothing was played after the ruling (see the rulings above).";
}

function drawRulings(rulings) {
  const box = document.getElementById("rulings");
  box.hidden = !rulings.length;
  if (!rulings.length) return;
  const result = R.table && R.table.result;
  const decided = result && result.decided_by === "ruling" ? result.ruling : null;
  box.innerHTML = `<h3>Rulings</h3><ul>${rulings.map((r) => `<li data-testid="ruling" data-kind="${esc(r.kind)}"
      class="${r.id === decided ? "deciding" : ""}"><b>${esc(rulingWords(r))}.</b> ${esc(r.reason)}
      <div class="small muted">${esc(r.author.name)} (tournament director) · ${esc(new Date(r.created_at).toLocaleString())}${r.seq ? ` · about <a href="${addressOf(r.seq)}" data-goto="${r.seq}">event ${r.seq}</a>` : ""}${r.id === decided ? " · <b>the game's result</b>" : ""}</div></li>`).join("")}</ul>`;
}

async function show(seq, { push = true } = {}) {
  const max = maxSeq();
  R.at = Math.max(1, Math.min(max, seq));
  const at = R.at;
  let replay;
  try {
    replay = await stateAt(at);
    showError(null);
  } catch (err) {
    R.cache.delete(at);
    showError(err);
    return;
  }
  if (replay.at !== R.at) return; // a later click won the race
  const state = replay.state;
  drawDecided(replay.decided);
  BOARD.draw(state, { at, events: R.live.filter((ev) => ev.seq <= at), final: R.final, table: R.table });
  document.querySelectorAll("#replay-board [data-deadline]").forEach((el) => {
    el.removeAttribute("data-deadline"); // a replay has no running clock
    el.textContent = "";
  });
  const t = turnAt(at);
  document.getElementById("position").textContent =
    t ? `${capital(R.turnName)} ${t.number} · event ${at} of ${max}` : `Event ${at} of ${max}`;
  document.getElementById("turn-input").placeholder = t ? String(t.number) : "";
  // the replay answer carries the hash of event `at` (once the game is over, for anyone);
  // the audit trail (players after the end, staff) is the fallback
  document.getElementById("hash").textContent = replay.hash || R.hashes[at] || "not available yet (shown once the game is over)";
  document.getElementById("seed").textContent = state.seed || "(revealed at the end)";
  const played = replay.played_under; // the first event's versions, not the newest
  const playedEl = document.getElementById("played-under");
  if (playedEl && played) {
    const content = played.content_version ? `, content ${played.content_version}` : "";
    playedEl.textContent = `rules version ${played.rules_version}${content}`;
  }
  const url = addressOf(at);
  document.getElementById("share").href = url;
  if (push) window.history.replaceState({ at }, "", url);
  // Some events have no line of their own: the move shown is the latest line at or before.
  const list = document.getElementById("log");
  const lines = [...list.querySelectorAll("li[data-seq]")];
  const current = lines.filter((li) => Number(li.dataset.seq) <= at).pop() || null;
  lines.forEach((li) => {
    li.classList.toggle("now", li === current);
    li.classList.toggle("future", Number(li.dataset.seq) > at);
  });
  document.getElementById("current").innerHTML = current ? current.innerHTML : "";
  if (current) { // scroll the log, never the page: the controls stay where they are
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
  placeMoments();
  document.getElementById("note-seq").textContent = String(at);
  document.querySelectorAll("#notes li[data-seq]").forEach((li) => li.classList.toggle("here", Number(li.dataset.seq) === at));
  document.getElementById("first").disabled = at <= 1;
  document.getElementById("prev").disabled = at <= 1;
  document.getElementById("prev-turn").disabled = !R.turns.some((x) => x.seq < at);
  document.getElementById("next").disabled = at >= max;
  document.getElementById("last").disabled = at >= max;
  document.getElementById("next-turn").disabled = !R.turns.some((x) => x.seq > at);
  document.getElementById("prev-moment").disabled = prevMoment(chosenKind()) === null;
  document.getElementById("next-moment").disabled = nextMoment(chosenKind()) === null;
  document.querySelectorAll("[data-jump]").forEach((b) => { b.disabled = nextMoment(b.dataset.jump) === null; });
  stateAt(Math.min(max, at + 1)); // fetch the next step ahead of the click
}

function prevTurn() {
  const before = R.turns.filter((x) => x.seq < R.at);
  if (before.length) show(before[before.length - 1].seq);
}

function nextTurn() {
  const after = R.turns.find((x) => x.seq > R.at);
  if (after) show(after.seq);
}

function stepMoment(forward) {
  const m = forward ? nextMoment(chosenKind()) : prevMoment(chosenKind());
  if (m) show(m.seq);
}

/* Where the address asks to open: ?turn=N (its start), else ?at=N, else the end. */
function wanted() {
  const q = new URLSearchParams(window.location.search);
  if (q.has("turn")) {
    const seq = turnStart(Number(q.get("turn")));
    if (seq !== null) return seq;
    R.notice = `This game has no ${R.turnName} ${q.get("turn")} (${R.turnName}s 1 to ${lastTurn()}); showing the end.`;
    return maxSeq();
  }
  return Number(q.get("at")) || maxSeq();
}

/* --- reviews: annotations and rulings ------------------------------------------------- */

async function loadNotes() {
  try {
    R.notes = (await api("GET", `/games/${GAME_ID}/annotations`)).annotations;
  } catch (err) {
    R.notes = [];
    document.getElementById("notes").innerHTML = `<li class="muted">${esc(err.status === 403 ? "Notes are shown once the game is over." : err.message)}</li>`;
    return;
  }
  drawNotes();
}

async function loadRulings() {
  try {
    drawRulings((await api("GET", `/games/${GAME_ID}/rulings`)).rulings);
  } catch (err) {
    if (err.status === 403) drawRulings([]); // shown once the game is over (unseated staff: always)
    else showError(err);
  }
}

function reviewForms() {
  const finished = R.table && R.table.status === "finished";
  const seated = R.table && R.table.your_seat !== null && R.table.your_seat !== undefined;
  // staff annotate any game they do not play in; players their own once it is over;
  // staff seated here are players (they never rule on their own game)
  document.getElementById("note-form").hidden = !((REPLAY_CFG.staff && !seated) || (seated && finished));
  document.getElementById("ruling-panel").hidden = !(REPLAY_CFG.staff && !seated);
  document.getElementById("sandbox-panel").hidden = !(REPLAY_CFG.staff && !seated);
  document.getElementById("ruling-winners").innerHTML = (R.table ? R.table.seats : []).map((s) =>
    `<label class="check"><input type="checkbox" value="${s.position}"> ${esc(seatName(s.position))}</label>`).join("");
}

async function openSandbox() {
  // a director's sandbox at the event shown (the last event of a command: the server says
  // so otherwise); its table page is where seats and bots are added and it is started
  try {
    const table = await api("POST", `/games/${REPLAY_CFG.gameId}/sandbox`, { at: R.at });
    window.location.href = `/games/${table.id}`;
  } catch (err) {
    showError(err);
  }
}

async function addNote(ev) {
  ev.preventDefault();
  const box = document.getElementById("note-text");
  try {
    await api("POST", `/games/${GAME_ID}/annotations`, { seq: R.at, text: box.value });
    box.value = "";
    showError(null);
    await loadNotes();
  } catch (err) {
    showError(err);
  }
}

/* A deciding ruling (award, void) ends a running game, or replaces a finished one's result:
   a dialog says which game, where it stands and the result it sets, before it is sent. */
function rulingConsequence(kind, winners) {
  const title = REPLAY_CFG.title || (R.table ? R.table.game : "this game");
  const table = R.table || { seats: [], status: "started", mode: "" };
  const players = table.seats.map((s) => seatName(s.position)).join(", ");
  const final = R.final || {};
  const turn = lastTurn() ? `${R.turnName} ${lastTurn()}, ` : "";
  const waiting = (final.awaiting || []).map(seatName);
  const running = table.status === "started" && !final.over;
  const result = table.result || {};
  const before = result.decided_by === "ruling" ? "a ruling's" : "its own";
  const state = running
    ? `Running: ${turn}event ${maxSeq()}${waiting.length ? `, waiting on ${joinWords(waiting)}` : ""}. ` +
      "The ruling ends it now: nothing more can be played."
    : `Over (${before} result). The ruling replaces that result.`;
  const outcome = kind === "award"
    ? `${joinWords(winners.map(seatName))} ${winners.length > 1 ? "share the win" : "wins"}; every other seat loses.`
    : "Void: the game counts for nobody.";
  return {
    title: kind === "award" ? `Award the win in ${title}?` : `Void ${title}?`,
    rows: [
      ["Game", `${title} · ${table.mode} table ${GAME_ID.slice(0, 8)} · ${players}`],
      ["Now", state],
      ["Result", outcome],
      ["Record", "A ruling is recorded for good, with your name and reason; it is not taken back."],
    ],
    yes: kind === "award" ? `Yes, end it: ${joinWords(winners.map(seatName))} ${winners.length > 1 ? "win" : "wins"}` : "Yes, void the game",
  };
}

function confirmRuling(kind, winners) {
  const dialog = document.getElementById("ruling-confirm");
  const c = rulingConsequence(kind, winners);
  document.getElementById("ruling-confirm-title").textContent = c.title;
  document.getElementById("ruling-confirm-text").innerHTML =
    c.rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd data-testid="ruling-confirm-${esc(k.toLowerCase())}">${esc(v)}</dd>`).join("");
  document.getElementById("ruling-confirm-yes").textContent = c.yes;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

async function addRuling(ev) {
  ev.preventDefault();
  const kind = document.getElementById("ruling-kind").value;
  const body = { kind, reason: document.getElementById("ruling-reason").value, seq: R.at };
  if (kind === "award") {
    body.winners = [...document.querySelectorAll("#ruling-winners input:checked")].map((i) => Number(i.value));
  }
  // (an award naming nobody goes straight to the server, which says what is missing)
  if (kind !== "note" && (kind === "void" || body.winners.length) && !(await confirmRuling(kind, body.winners || []))) return;
  try {
    await api("POST", `/games/${GAME_ID}/rulings`, body);
    document.getElementById("ruling-reason").value = "";
    showError(null);
    R.table = await api("GET", `/tables/${GAME_ID}`);
    R.cache.delete(maxSeq()); // the last position now reads as decided
    R.final = (await stateAt(maxSeq())).state;
    await loadRulings();
    await show(R.at, { push: false });
  } catch (err) {
    showError(err);
  }
}

/* --- keys ------------------------------------------------------------------------------- */

function onKey(ev) {
  if (["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const keys = {
    ArrowLeft: () => (ev.shiftKey ? prevTurn() : show(R.at - 1)),
    ArrowRight: () => (ev.shiftKey ? nextTurn() : show(R.at + 1)),
    PageUp: prevTurn,
    PageDown: nextTurn,
    "[": () => stepMoment(false),
    "]": () => stepMoment(true),
    Home: () => show(1),
    End: () => show(Infinity),
  };
  const act = keys[ev.key];
  if (!act) return;
  ev.preventDefault();
  act();
}

async function main() {
  window.scrollTo(0, 0);
  try {
    await Promise.all([loadEvents(), loadMarks()]);
    R.table = await api("GET", `/tables/${GAME_ID}`);
  } catch (err) {
    showError(err);
    return;
  }
  const final = await stateAt(maxSeq());
  R.final = final.state;
  if (!final.state.over) {
    const notice = document.getElementById("notice");
    notice.textContent = "This game is still running: the replay shows only what you may see, with no hidden cards revealed.";
    notice.hidden = false;
  }
  drawControls();
  drawLog();
  drawMoments();
  reviewForms();
  await Promise.all([loadAudit(), loadNotes(), loadRulings()]);
  await show(wanted());
  if (R.notice) showError(R.notice);
  window.scrollTo(0, 0); // open at the top, with the controls

  const on = (id, fn) => document.getElementById(id).addEventListener("click", fn);
  on("first", () => show(1));
  on("prev", () => show(R.at - 1));
  on("next", () => show(R.at + 1));
  on("last", () => show(Infinity));
  on("prev-turn", prevTurn);
  on("next-turn", nextTurn);
  on("prev-moment", () => stepMoment(false));
  on("next-moment", () => stepMoment(true));
  document.getElementById("jumps").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-jump]");
    const m = b && nextMoment(b.dataset.jump);
    if (m) show(m.seq);
  });
  document.getElementById("moment-kind").addEventListener("change", () => {
    drawMoments();
    show(R.at, { push: false });
  });
  document.getElementById("turn-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const n = Number(document.getElementById("turn-input").value);
    const seq = turnStart(n);
    if (seq === null) showError(`This game has no ${R.turnName} ${n} (${R.turnName}s 1 to ${lastTurn()}).`);
    else show(seq);
  });
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
  document.getElementById("open-sandbox").addEventListener("click", openSandbox);
  document.getElementById("ruling-kind").addEventListener("change", (ev) => {
    document.getElementById("ruling-winners").hidden = ev.target.value !== "award";
  });
  document.addEventListener("keydown", onKey);
}

main();
