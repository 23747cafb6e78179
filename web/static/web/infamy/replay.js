/* The replay viewer: GET /games/{id}/replay?at=N for the state after event N (every hand
   revealed once the game is over), the event feed for the move list, and the audit trail
   for each event's hash. ?at= in the page's address makes every move shareable. */
"use strict";

const GAME = CFG.gameId;
let events = []; // every event, in order
let hashes = {}; // seq -> audit hash
let at = 1;
let names = null; // the final state, to name seats in the log
const cache = new Map();

async function loadEvents() {
  let after = 0;
  for (;;) {
    const page = await api("GET", `/games/${GAME}/events?after=${after}`);
    events = events.concat(page.events);
    if (!page.events.length || !page.has_more) return;
    after = page.events[page.events.length - 1].seq;
  }
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
      const end = await stateAt(events.length ? events[events.length - 1].seq : 1);
      document.getElementById("final-hash").textContent = end.hash || "shown once the game is over";
    } catch (e) {
      document.getElementById("final-hash").textContent = `not available (${err.message})`;
    }
  }
}

async function stateAt(seq) {
  if (!cache.has(seq)) cache.set(seq, api("GET", `/games/${GAME}/replay?at=${seq}`));
  return cache.get(seq);
}

function drawLog(finalState) {
  const log = new MoveLog();
  const list = document.getElementById("log");
  list.innerHTML = events.map((ev) => log.item(ev, finalState)).join("");
  markUndone(list, events);
}

async function show(seq, { push = true } = {}) {
  const max = events.length ? events[events.length - 1].seq : 1;
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
  renderBoard(state, { me: null, showHands: true });
  document.querySelectorAll("[data-deadline]").forEach((el) => {
    el.removeAttribute("data-deadline");
    el.textContent = "";
  });
  document.getElementById("position").textContent = `Event ${at} of ${max}`;
  const slider = document.getElementById("slider");
  slider.max = String(max);
  slider.value = String(at);
  // the replay answer carries the hash of event `at` (once the game is over, for anyone);
  // the audit trail (players after the end, staff) is the fallback
  document.getElementById("hash").textContent = replay.hash || hashes[at] || "not available yet (shown once the game is over)";
  document.getElementById("seed").textContent = state.seed || "(revealed at the end)";
  const url = `/games/${GAME}/replay?at=${at}`;
  const share = document.getElementById("share");
  share.href = url;
  if (push) window.history.replaceState({ at }, "", url);
  // Some events have no line of their own (whose move it is): the move shown is then the
  // latest line at or before `at`.
  const lines = [...document.querySelectorAll("#log li[data-seq]")];
  const current = lines.filter((li) => Number(li.dataset.seq) <= at).pop() || null;
  lines.forEach((li) => {
    li.classList.toggle("now", li === current);
    li.classList.toggle("future", Number(li.dataset.seq) > at);
  });
  document.getElementById("current").innerHTML = current ? current.innerHTML : "";
  if (current) current.scrollIntoView({ block: "nearest" });
  document.getElementById("first").disabled = at <= 1;
  document.getElementById("prev").disabled = at <= 1;
  document.getElementById("next").disabled = at >= max;
  document.getElementById("last").disabled = at >= max;
  stateAt(Math.min(max, at + 1)); // fetch the next step ahead of the click
}

async function main() {
  try {
    await loadEvents();
  } catch (err) {
    showError(err);
    return;
  }
  const max = events.length ? events[events.length - 1].seq : 1;
  const final = await stateAt(max);
  names = final.state;
  if (!final.state.over) {
    showError("This game is still running: the replay shows only what you may see, with no hands revealed.");
  }
  drawLog(names);
  await loadAudit();
  const wanted = Number(new URLSearchParams(window.location.search).get("at")) || max;
  await show(wanted);

  document.getElementById("first").addEventListener("click", () => show(1));
  document.getElementById("prev").addEventListener("click", () => show(at - 1));
  document.getElementById("next").addEventListener("click", () => show(at + 1));
  document.getElementById("last").addEventListener("click", () => show(Infinity));
  document.getElementById("slider").addEventListener("input", (ev) => show(Number(ev.target.value)));
  document.getElementById("log").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-seq]");
    if (li) show(Number(li.dataset.seq));
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") show(at - 1);
    if (ev.key === "ArrowRight") show(at + 1);
  });
}

main();
