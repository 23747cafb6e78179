/* A readable rendering of any game's view, for a game without pages of its own: its
   `state` (GET /games/{id} or /replay) as headed lists and tables, seats by name, and its
   events as lines. It knows no game: only the shapes every view has (over, winners,
   awaiting, players) and plain JSON. Shared by the replay (replay.js) and any page that
   shows a game it has no board for. */
"use strict";

const STATE_SKIPPED = new Set(["game", "viewer", "revealed", "legal", "seed", "seed_hash"]);
const SEAT_KEYS = new Set(["seat", "winner", "from_seat", "to_seat", "player"]);
const SEATS_KEYS = new Set(["winners", "awaiting", "order", "eligible"]);

/* "BidsRevealed" -> "Bids revealed"; "seed_hash" -> "seed hash" */
function humanWords(name) {
  const spaced = String(name).replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function plainValue(key, value, seatName) {
  if (value === null || value === undefined) return '<span class="muted">—</span>';
  if (SEAT_KEYS.has(key) && Number.isInteger(value)) return esc(seatName(value));
  if (SEATS_KEYS.has(key) && Array.isArray(value) && value.every(Number.isInteger)) {
    return value.length ? esc(value.map(seatName).join(", ")) : '<span class="muted">none</span>';
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
    return value.length ? esc(value.map((v) => (v === null ? "?" : v)).join(", ")) : '<span class="muted">none</span>';
  }
  if (typeof value === "object") return stateBlock(value, seatName);
  return esc(value);
}

function stateBlock(value, seatName) {
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
      return `<table class="state-table"><thead><tr>${keys.map((k) => `<th>${esc(humanWords(k))}</th>`).join("")}</tr></thead>
        <tbody>${value.map((row) => `<tr>${keys.map((k) => `<td>${plainValue(k, row[k], seatName)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
    }
    return `<ol class="state-list">${value.map((v) => `<li>${plainValue("", v, seatName)}</li>`).join("")}</ol>`;
  }
  const keys = Object.keys(value);
  if (!keys.length) return '<span class="muted">none</span>';
  return `<dl class="state-dl">${keys.map((k) => `<dt>${esc(humanWords(k))}</dt><dd>${plainValue(k, value[k], seatName)}</dd>`).join("")}</dl>`;
}

/* The view as HTML: a status line, then every other field (players first). */
function stateBoardHtml(state, seatName) {
  const status = state.over
    ? `Game over: ${state.winners && state.winners.length ? esc(state.winners.map(seatName).join(" and ")) + " won" : "no winner"}`
    : state.awaiting && state.awaiting.length ? `Waiting for ${esc(state.awaiting.map(seatName).join(", "))}` : "";
  const keys = Object.keys(state).filter((k) => !STATE_SKIPPED.has(k) && !["over", "winners", "awaiting"].includes(k));
  keys.sort((a, b) => (a === "players" ? -1 : b === "players" ? 1 : 0));
  return `<div class="state-status" data-testid="board-status">${status}</div>` +
    keys.map((k) => `<section class="state-field" data-field="${esc(k)}"><h4>${esc(humanWords(k))}</h4>${plainValue(k, state[k], seatName)}</section>`).join("");
}

/* One line per event: its kind in words and its fields. */
function genericLog(events, seatName) {
  return events.map((ev) => {
    const data = ev.data || {};
    const kind = data.type || ev.type.split(".").pop();
    const fields = Object.keys(data).filter((k) => k !== "type" && !STATE_SKIPPED.has(k))
      .map((k) => `${esc(humanWords(k).toLowerCase())} ${plainValue(k, data[k], seatName)}`);
    return `<li data-seq="${ev.seq}"><span class="seq">${ev.seq}</span> ${esc(humanWords(kind))}${fields.length ? ": " + fields.join("; ") : ""}</li>`;
  }).join("");
}

/* The replay's board for a game without one of its own (see replay.js). */
function genericReplayBoard() {
  return {
    draw(state, ctx) {
      const names = (ctx.table && ctx.table.seats) || [];
      const seatName = (seat) => {
        const s = names.find((x) => x.position === seat);
        return s ? s.name : `Seat ${seat + 1}`;
      };
      document.getElementById("board").innerHTML = stateBoardHtml(state, seatName);
    },
  };
}
