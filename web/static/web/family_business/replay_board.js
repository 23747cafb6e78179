/* Family Business's board in the replay viewer (web/static/web/replay.js does the rest):
   the players, every hand once the game is over, the Hit List, the piles, an open window,
   and the game's own move log. */
"use strict";

window.REPLAY_BOARD = {
  draw(state, ctx) {
    renderBoard(state, { me: null, showHands: true, events: ctx.events });
    const panel = document.getElementById("window-panel");
    panel.hidden = !state.window;
    panel.innerHTML = state.window ? windowHtml(state) : "";
  },
  log(events, final) {
    const log = new MoveLog();
    return events.map((ev) => log.item(ev, final)).join("");
  },
};
