/* The set-up the table pages share (each game's game.js): the waiting room before the start
   (web/_waiting.html's markup), then the first reads of the live game.

   A page calls openTable() once, with what is its own: the line that describes its table,
   its loaders, and its countdown tick. Everything here goes through api.js; it reads no
   game state. */
"use strict";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* The waiting room's seats and buttons for `table` (GET /tables/{id}); `info(table)` is the
   page's line under the table's id. */
function drawWaiting(table, info) {
  document.getElementById("table-id").textContent = table.id.slice(0, 8);
  document.getElementById("table-info").textContent = info(table);
  const seats = [];
  for (let i = 0; i < table.size; i++) {
    const s = table.seats.find((x) => x.position === i);
    seats.push(`<li>${s ? esc(s.name) + (s.bot ? ' <span class="badge">bot</span>' : "") +
      (table.your_seat === i ? ' <span class="badge you">you</span>' : "") : '<span class="muted">empty seat</span>'}</li>`);
  }
  document.getElementById("seats").innerHTML = seats.join("");
  const seated = table.your_seat !== null && table.your_seat !== undefined;
  const full = table.seats.length >= table.size;
  const creator = table.created_by === CFG.me;
  document.getElementById("join").hidden = seated || full;
  document.getElementById("leave").hidden = !seated;
  document.getElementById("add-bot").hidden = !creator || full;
  document.getElementById("start").hidden = !(seated || creator);
  document.getElementById("start").disabled = !full;
  document.getElementById("start").title = full ? "" : "Every seat must be filled first.";
}

/* Polls the open table every 1.5 s until it starts. */
async function waitingRoom(gameId, info) {
  document.getElementById("waiting").hidden = false;
  for (;;) {
    let table;
    try {
      table = await api("GET", `/tables/${gameId}`);
      showError(null);
    } catch (err) {
      showError(err);
      await sleep(3000);
      continue;
    }
    if (table.status !== "open") {
      document.getElementById("waiting").hidden = true;
      return;
    }
    drawWaiting(table, info);
    await sleep(1500);
  }
}

function lobbyButton(id, fn, gameId, info) {
  document.getElementById(id).addEventListener("click", async (ev) => {
    ev.target.disabled = true;
    try {
      await fn();
      showError(null);
      drawWaiting(await api("GET", `/tables/${gameId}`), info);
    } catch (err) {
      showError(err);
    } finally {
      ev.target.disabled = false;
    }
  });
}

/* The page's start. `page`: {gameId, info(table) -> the waiting room's line about the table,
   tick() -> redraws the countdowns (every 0.2 s), loadState(), loadLog(), behind() -> the log
   is past the state}. Wires the waiting
   room's buttons, waits out the waiting room if the table is open, then loads the game's
   state and its log so far, retrying each every 2 s. Resolves true once both are loaded;
   false when there is no such table (404, shown in the error banner). */
async function openTable(page) {
  const { gameId, info } = page;
  lobbyButton("join", () => api("POST", `/tables/${gameId}/join`, {}), gameId, info);
  lobbyButton("leave", () => api("POST", `/tables/${gameId}/leave`), gameId, info);
  lobbyButton("add-bot", () => api("POST", `/tables/${gameId}/bots`, { kind: "heuristic" }), gameId, info);
  lobbyButton("start", () => api("POST", `/tables/${gameId}/start`), gameId, info);
  setInterval(page.tick, 200);
  let table;
  for (;;) {
    try { table = await api("GET", `/tables/${gameId}`); break; } catch (err) {
      showError(err);
      if (err.status === 404) return false;
      await sleep(3000);
    }
  }
  if (table.status === "open") await waitingRoom(gameId, info);
  for (;;) {
    try { await page.loadState(); break; } catch (err) { showError(err); await sleep(2000); }
  }
  for (;;) {
    try { await page.loadLog(); break; } catch (err) { showError(err); await sleep(2000); }
  }
  // A move made between the two reads is in the log but not in the state, and the feed
  // follows from the log's end: read the state once more, or it stays behind until the
  // next move (seen: the other page missed a bid until someone moved again).
  if (page.behind && page.behind()) {
    for (;;) {
      try { await page.loadState(); break; } catch (err) { showError(err); await sleep(2000); }
    }
  }
  return true;
}
