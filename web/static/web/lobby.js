/* The lobby: your tables, open tables, and a form that creates a table, seats bots and
   (when every seat is then filled) starts it. */
"use strict";

function seatsText(table) {
  const taken = table.seats.length;
  const names = table.seats.map((s) => (s.bot ? `${s.name} (bot)` : s.name)).join(", ");
  return `${taken}/${table.size} seated${names ? ": " + esc(names) : ""}`;
}

/* A finished table's result: "won by Moran Gang's seat, bob", or a shared draw. */
function resultText(table) {
  if (table.status !== "finished" || !table.winners) return esc(table.status);
  const name = (pos) => {
    const seat = table.seats.find((s) => s.position === pos);
    return seat ? seat.name : `seat ${pos + 1}`;
  };
  const who = table.winners.map(name);
  // a tournament director's ruling may have decided the result (docs/api.md, Rulings)
  const ruled = table.result && table.result.decided_by === "ruling";
  if (ruled && table.result.kind === "void") return 'finished · <b data-testid="winner">void</b> (by a ruling)';
  if (!who.length) return "finished: no winner";
  const text = who.length > 1 ? `draw: ${who.join(", ")}` : `won by ${who[0]}`;
  const mine = table.winners.includes(table.your_seat) ? ' <span class="badge win">you</span>' : "";
  return `finished · <b data-testid="winner">${esc(text)}</b>${mine}${ruled ? " (by a ruling)" : ""}`;
}

function tableRow(table, { joinable }) {
  const link = `/games/${table.id}`;
  let action;
  if (table.status === "finished") {
    action = `<a class="button" href="${link}/replay">Replay</a> <a class="button" href="${link}">Result</a>`;
  } else if (table.your_seat !== null && table.your_seat !== undefined) {
    action = `<a class="button primary" href="${link}">${table.status === "open" ? "Open" : "Play"}</a>`;
  } else if (joinable && table.seats.length < table.size) {
    action = `<button type="button" class="primary" data-join="${table.id}">Join</button>`;
  } else {
    action = `<a class="button" href="${link}">Watch</a>`;
  }
  return `<tr data-table="${table.id}">
    <td>${table.game === "infamy" ? '<span class="badge game">Infamy</span> ' : ""}<b>${esc(table.mode)}</b> table <span class="muted small">${esc(table.id.slice(0, 8))}</span>${table.options.advanced ? ' <span class="badge ability" title="Advanced rules: ability cards (texts reconstructed)">advanced</span>' : ""}${table.turn_seconds ? ` <span class="badge">${table.turn_seconds} s/turn</span>` : ""}</td>
    <td>${resultText(table)}</td>
    <td>${seatsText(table)}</td>
    <td class="right">${action}</td></tr>`;
}

async function refresh() {
  try {
    const [mine, open] = await Promise.all([
      api("GET", "/tables?mine=true&limit=30"),
      api("GET", "/tables"),
    ]);
    const mineBody = mine.tables.map((t) => tableRow(t, { joinable: false })).join("");
    document.querySelector("#my-tables tbody").innerHTML =
      mineBody || `<tr><td class="muted">None yet: create one on the left.</td></tr>`;
    const others = open.tables.filter((t) => t.your_seat === null || t.your_seat === undefined);
    document.querySelector("#open-tables tbody").innerHTML =
      others.map((t) => tableRow(t, { joinable: true })).join("") ||
      `<tr><td class="muted">No open tables right now.</td></tr>`;
  } catch (err) {
    showError(err);
  }
}

/* The new-table form remembers its last settings in this browser (localStorage). */
const SETTINGS_KEY = "fb.lobby.newTable";
const REMEMBERED = ["game", "sector_seconds", "seats", "bots", "bot_kind", "mode", "reaction_seconds", "turn_seconds", "turn_action", "advanced"];

function restoreSettings(form) {
  let saved;
  try { saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"); } catch (e) { saved = null; }
  if (!saved || typeof saved !== "object") return;
  for (const name of REMEMBERED) {
    const field = form.elements[name];
    if (!field || !(name in saved)) continue;
    if (field.type === "checkbox") field.checked = Boolean(saved[name]);
    else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === String(saved[name]))) {
      field.value = String(saved[name]);
    }
  }
}

function saveSettings(form) {
  const saved = {};
  for (const name of REMEMBERED) {
    const field = form.elements[name];
    if (field) saved[name] = field.type === "checkbox" ? field.checked : field.value;
  }
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(saved)); } catch (e) { /* private mode */ }
}

/* Show the fields and choices of the picked game only (data-game marks them). */
function showGameFields(form) {
  const game = form.game.value;
  form.querySelectorAll("[data-game]").forEach((el) => {
    const mine = el.dataset.game === game;
    el.hidden = !mine;
    if (el.tagName === "OPTION") el.disabled = !mine;
  });
  for (const select of form.querySelectorAll("select")) {
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled) {
      select.value = [...select.options].find((o) => !o.disabled).value;
    }
  }
}

/* The new table's request: the common fields, and the picked game's options. */
function createBody(form) {
  const game = form.game.value;
  const body = {
    game,
    seats: Number(form.seats.value),
    mode: form.mode.value,
    turn_seconds: Math.max(0, Math.min(600, Number(form.turn_seconds.value) || 0)),
    turn_action: form.turn_action.value,
  };
  if (game === "infamy") {
    body.options = { sector_seconds: Math.max(5, Math.min(600, Number(form.sector_seconds.value) || 60)) };
  } else {
    body.options = { reaction_seconds: Number(form.reaction_seconds.value) || 10, advanced: form.advanced.checked };
  }
  return body;
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("create-form");
  restoreSettings(form);
  showGameFields(form);
  form.game.addEventListener("change", () => showGameFields(form));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(null);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    saveSettings(form);
    try {
      const seats = Number(form.seats.value);
      const bots = Math.min(Number(form.bots.value), seats - 1);
      const table = await api("POST", "/tables", createBody(form));
      for (let i = 0; i < bots; i++) {
        await api("POST", `/tables/${table.id}/bots`, { kind: form.bot_kind.value });
      }
      window.location.href = `/games/${table.id}`;
    } catch (err) {
      showError(err);
      button.disabled = false;
    }
  });
  document.addEventListener("click", async (ev) => {
    const id = ev.target.dataset && ev.target.dataset.join;
    if (!id) return;
    ev.target.disabled = true;
    try {
      await api("POST", `/tables/${id}/join`, {});
      window.location.href = `/games/${id}`;
    } catch (err) {
      showError(err);
      ev.target.disabled = false;
      refresh();
    }
  });
  refresh();
  setInterval(refresh, 5000);
});
