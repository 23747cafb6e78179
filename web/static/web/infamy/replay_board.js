/* Infamy's board in the replay viewer (web/static/web/replay.js does the rest): the
   contact track, the six sectors, the players (every hand once the game is over), the
   supply, and the game's own move log. */
"use strict";

window.REPLAY_BOARD = {
  draw(state) {
    renderBoard(state, { me: null, showHands: true });
  },
  log(events, final) {
    const log = new MoveLog();
    return events.map((ev) => log.item(ev, final)).join("");
  },
};
