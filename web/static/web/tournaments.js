/* The tournaments' list (docs/web.md): GET /api/v1/tournaments, entering one
   (POST .../entries), and for directors the form that creates one (POST /tournaments).
   Names no game: the games come from the page's config (the registry). */
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const STATUS = {
  registering: "Registering", round_running: "Round running",
  between_rounds: "Between rounds", finished: "Finished",
};
const TITLES = Object.fromEntries(CONFIG.games.map((g) => [g.name, g.title]));

function rowHtml(t) {
  const where = t.rounds_started ? `round ${t.rounds_started} of ${t.rounds_planned}` : `${t.rounds_planned} rounds`;
  const action = t.may_enter
    ? `<button type="button" class="primary" data-enter="${esc(t.id)}">Enter</button>`
    : t.entered ? `<span class="badge you">entered</span>` : "";
  return `<tr data-testid="tournament-row" data-tournament="${esc(t.id)}">
    <td><a href="/tournaments/${esc(t.id)}" data-testid="tournament-link"><b>${esc(t.name)}</b></a>
      <div class="small muted">${esc(TITLES[t.game] || t.game)} · ${esc(t.format.replace("_", "-"))} · ${t.entrants} entrant${t.entrants === 1 ? "" : "s"} · ${esc(where)}</div></td>
    <td><span class="badge" data-testid="tournament-status">${esc(STATUS[t.status] || t.status)}</span></td>
    <td class="right">${action}</td></tr>`;
}

async function load() {
  try {
    const list = await api("GET", "/tournaments");
    document.getElementById("list").innerHTML = list.length
      ? `<tbody>${list.map(rowHtml).join("")}</tbody>`
      : `<tbody><tr><td class="muted" data-testid="no-tournaments">No tournaments yet.</td></tr></tbody>`;
    document.getElementById("error").hidden = true;
  } catch (err) {
    showError(err);
  }
}

function fillGames() {
  const form = document.getElementById("create");
  if (!form) return;
  const select = form.elements.game;
  select.innerHTML = CONFIG.games.map((g) => `<option value="${esc(g.name)}">${esc(g.title)}</option>`).join("");
  const sizes = () => {
    const g = CONFIG.games.find((x) => x.name === select.value);
    for (const field of [form.elements.table_min, form.elements.table_max]) {
      field.min = g.min;
      field.max = g.max;
    }
    form.elements.table_min.value = g.min;
    form.elements.table_max.value = Math.min(g.max, Math.max(g.min, 4));
  };
  select.addEventListener("change", sizes);
  sizes();
}

document.addEventListener("click", async (ev) => {
  const button = ev.target.closest("[data-enter]");
  if (!button) return;
  button.disabled = true;
  try {
    await api("POST", `/tournaments/${encodeURIComponent(button.dataset.enter)}/entries`, {});
    await load();
  } catch (err) {
    showError(err);
    button.disabled = false;
  }
});

document.addEventListener("submit", async (ev) => {
  if (ev.target.id !== "create") return;
  ev.preventDefault();
  const f = ev.target.elements;
  const body = {
    name: f.name.value, game: f.game.value, format: f.format.value,
    rounds: Number(f.rounds.value), table_min: Number(f.table_min.value),
    table_max: Number(f.table_max.value), turn_seconds: Number(f.turn_seconds.value),
    round_minutes: Number(f.round_minutes.value), auto: f.auto.checked,
  };
  try {
    const created = await api("POST", "/tournaments", body);
    window.location.assign(`/tournaments/${created.id}`);
  } catch (err) {
    showError(err);
  }
});

document.addEventListener("DOMContentLoaded", () => { fillGames(); load(); });
