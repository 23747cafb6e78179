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

/* The table's options that differ from its game's defaults, as badges ("Advanced rules"). */
function optionBadges(table) {
  const game = GAMES.find((g) => g.name === table.game);
  if (!game || !table.options) return "";
  return game.options.filter((o) => o.name in table.options && table.options[o.name] !== o.default).map((o) => {
    const short = o.label.split(" (")[0];
    const text = o.kind === "bool" ? short : `${short}: ${table.options[o.name]}`;
    return ` <span class="badge option" title="${esc(o.label)}">${esc(text)}</span>`;
  }).join("");
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
    <td><b class="table-game" data-testid="table-game">${esc(gameOf(table.game).name === table.game ? gameOf(table.game).title : table.game)}</b> · ${esc(table.mode)} table <span class="muted small">${esc(table.id.slice(0, 8))}</span>${optionBadges(table)}${table.turn_seconds ? ` <span class="badge">${table.turn_seconds} s/turn</span>` : ""}</td>
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
      mineBody || `<tr><td class="muted">None yet: create one with the form.</td></tr>`;
    const others = open.tables.filter((t) => t.your_seat === null || t.your_seat === undefined);
    document.querySelector("#open-tables tbody").innerHTML =
      others.map((t) => tableRow(t, { joinable: true })).join("") ||
      `<tr><td class="muted">No open tables right now.</td></tr>`;
  } catch (err) {
    showError(err);
  }
}

/* Every registered game, as the lobby's view lists it (web.views.lobby): title, goal, rules
   link, seat range, bot kinds, timeout policies and its own table options. The form is
   drawn from this list: no game is named here. */
const GAMES = JSON.parse(document.getElementById("lobby-games").textContent);
const gameOf = (name) => GAMES.find((g) => g.name === name) || GAMES[0];

const BOT_WORDS = { heuristic: "clever", random: "random" };
const POLICY_WORDS = { discard: "discard a card", minimal: "the simplest move", bot: "a bot plays it" };

/* The new-table form remembers its last settings in this browser (localStorage), per game. */
const SETTINGS_KEY = "fb.lobby.newTable";
const COMMON = ["seats", "bots", "bot_kind", "mode", "turn_seconds", "turn_action"];

function loadSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null");
    return saved && typeof saved === "object" ? saved : {};
  } catch (e) {
    return {};
  }
}

function fieldNames(game) {
  return [...COMMON, ...game.options.map((o) => `option:${o.name}`)];
}

function restoreSettings(form) {
  const saved = loadSaved();
  const mine = saved.games && saved.games[form.game.value];
  if (!mine) return;
  for (const name of fieldNames(gameOf(form.game.value))) {
    const field = form.elements[name];
    if (!field || !(name in mine)) continue;
    if (field.type === "checkbox") field.checked = Boolean(mine[name]);
    else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === String(mine[name]))) {
      field.value = String(mine[name]);
    }
  }
}

function saveSettings(form) {
  const saved = loadSaved();
  const mine = {};
  for (const name of fieldNames(gameOf(form.game.value))) {
    const field = form.elements[name];
    if (field) mine[name] = field.type === "checkbox" ? field.checked : field.value;
  }
  saved.game = form.game.value;
  saved.games = { ...(saved.games || {}), [form.game.value]: mine };
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(saved)); } catch (e) { /* private mode */ }
}

function optionsHtml(values, selected, words = (v) => v) {
  return values.map((v) => `<option value="${esc(v)}"${String(v) === String(selected) ? " selected" : ""}>${esc(words(v))}</option>`).join("");
}

/* The picked game's fields: its seat range, bots, timeout policies and own options. */
function drawGameFields(form) {
  const game = gameOf(form.game.value);
  document.getElementById("game-goal").innerHTML =
    `${esc(game.goal)} <a href="${esc(game.rules_url)}" target="_blank" rel="noopener">Rules</a>`;
  const seats = [];
  for (let n = game.min_players; n <= game.max_players; n++) seats.push(n);
  const seatsDefault = Math.min(Math.max(3, game.min_players), game.max_players);
  form.seats.innerHTML = optionsHtml(seats, seatsDefault);
  drawBots(form);
  // the clever bot first: it is the one most people want to play against
  const kinds = [...game.bot_kinds].sort((a, b) => (b === "heuristic") - (a === "heuristic"));
  form.bot_kind.innerHTML = optionsHtml(kinds, kinds[0], (k) => BOT_WORDS[k] || k);
  form.turn_action.innerHTML = optionsHtml(game.timeout_policies, game.timeout_policies[0], (p) => POLICY_WORDS[p] || p);
  // the abandonment rule (docs/rules.md, "Absent players"): only games with a resign have it
  document.getElementById("abandon-field").hidden = !game.abandon_after;
  form.abandon_after.value = String(game.abandon_after || 0);
  document.getElementById("game-options").innerHTML = game.options.map((o) => {
    const name = `option:${o.name}`;
    if (o.kind === "bool") {
      return `<label class="check"><input name="${esc(name)}" type="checkbox"${o.default ? " checked" : ""}> ${esc(o.label)}</label>`;
    }
    return `<label>${esc(o.label)}<input name="${esc(name)}" type="number" min="${o.low}" max="${o.high}" value="${o.default}"></label>`;
  }).join("");
}

/* Bots: none up to one less than the seats (someone has to be you). */
function drawBots(form) {
  const seats = Number(form.seats.value);
  const current = form.bots.value === "" ? Math.min(2, seats - 1) : Math.min(Number(form.bots.value), seats - 1);
  const counts = [];
  for (let n = 0; n < seats; n++) counts.push(n);
  form.bots.innerHTML = optionsHtml(counts, current, (n) => (n === 0 ? "none (wait for people)" : String(n)));
}

/* The new table's request: the common fields, and the picked game's options. */
function createBody(form) {
  const game = gameOf(form.game.value);
  const options = {};
  for (const o of game.options) {
    const field = form.elements[`option:${o.name}`];
    if (!field) continue;
    options[o.name] = o.kind === "bool" ? field.checked
      : Math.max(o.low, Math.min(o.high, Math.round(Number(field.value)) || o.default));
  }
  return {
    game: game.name,
    seats: Number(form.seats.value),
    mode: form.mode.value,
    turn_seconds: Math.max(0, Math.min(600, Number(form.turn_seconds.value) || 0)),
    turn_action: form.turn_action.value,
    ...(game.abandon_after ? { abandon_after: Math.max(0, Math.min(20, Math.round(Number(form.abandon_after.value)) || 0)) } : {}),
    options,
  };
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("create-form");
  const last = loadSaved().game;
  if (GAMES.some((g) => g.name === last)) form.game.value = last;
  drawGameFields(form);
  restoreSettings(form);
  drawBots(form);
  form.game.addEventListener("change", () => { drawGameFields(form); restoreSettings(form); drawBots(form); });
  form.seats.addEventListener("change", () => drawBots(form));
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
