/* Scarface 1920's board in the replay viewer (web/static/web/replay.js does the rest): the
   city, the plan, the crime track, each gang's board (what the replay's view shows: every
   hand and sum once the game is over) and the markets; the moves named from the catalogue. */
"use strict";

function replayWords(value) {
  if (typeof value === "string") return sfEsc(SF.tiles[value] || SF.districts[value] || cardName(value));
  if (Array.isArray(value)) return value.map(replayWords).join(", ");
  if (value && typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${sfEsc(sfWords(k))} ${replayWords(v)}`).join(" · ");
  }
  return sfEsc(String(value));
}

window.REPLAY_BOARD = {
  draw(state) {
    renderBoard(state, { me: null });
  },
  log(events) {
    return events.map((ev) => {
      const d = ev.data || {};
      const type = d.type || ev.type.split(".").pop();
      const parts = Object.entries(d)
        .filter(([k, v]) => k !== "type" && !["seed", "salt", "seed_hash"].includes(k) && v !== null && v !== undefined)
        .map(([k, v]) => `${sfEsc(sfWords(k))} ${replayWords(v)}`);
      return `<li data-seq="${ev.seq}"><b>${sfEsc(sfWords(type))}</b>${parts.length ? ": " + parts.join(" · ") : ""}</li>`;
    }).join("");
  },
};
