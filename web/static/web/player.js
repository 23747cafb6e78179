/* A player's profile (docs/ratings.md): ratings per game with a line of their history,
   the latest rating changes and recent games, from GET /api/v1/players/{username}. Names
   no game: titles come with the document. */
"use strict";

const USERNAME = JSON.parse(document.getElementById("profile-username").textContent);

const when = (iso) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
function ordinal(n) {
  const tens = n % 100, units = n % 10;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[units] || "th"}`;
}
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
const profileLink = (name) => `<a href="/players/${encodeURIComponent(name)}">${esc(name)}</a>`;

/* The display rating after each rated game of one game, oldest first (from its start). */
function series(history, game) {
  const mine = history.filter((h) => h.game === game).reverse();
  if (!mine.length) return [];
  return [mine[0].display_before, ...mine.map((h) => h.display)];
}

function sparkline(points) {
  if (points.length < 2) return "";
  const w = 160, h = 40, pad = 3;
  const lo = Math.min(...points), hi = Math.max(...points);
  const span = hi - lo || 1;
  const xy = points.map((p, i) => [
    pad + (i * (w - 2 * pad)) / (points.length - 1),
    h - pad - ((p - lo) * (h - 2 * pad)) / span,
  ]);
  const path = xy.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  const [lx, ly] = xy[xy.length - 1];
  return `<svg class="spark" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img"
    aria-label="rating over the last ${points.length - 1} rated games, from ${points[0]} to ${points[points.length - 1]}">
    <path d="${path}" fill="none" stroke="currentColor" stroke-width="2"/>
    <circle cx="${lx.toFixed(1)}" cy="${ly.toFixed(1)}" r="3" fill="currentColor"/></svg>`;
}

function ratingsHtml(doc) {
  if (!doc.ratings.length) {
    return `<p class="muted" data-testid="no-ratings">No rated games yet: ratings come from finished ranked tables.</p>`;
  }
  return doc.ratings.map((r) => `
    <div class="rating-card" data-testid="rating" data-game="${esc(r.game)}">
      <div class="rating-game">${esc(r.title)}</div>
      <div class="rating-number" data-testid="display-rating">${r.display}</div>
      <div class="muted small">μ ${r.mu.toFixed(1)} · σ ${r.sigma.toFixed(1)} · ${r.games} game${r.games === 1 ? "" : "s"}</div>
      ${sparkline(series(doc.history, r.game))}
    </div>`).join("");
}

function historyHtml(doc, titles) {
  if (!doc.history.length) return `<tbody><tr><td class="muted">No rating changes yet.</td></tr></tbody>`;
  const rows = doc.history.map((h) => {
    const change = h.display - h.display_before;
    const kind = change > 0 ? "up" : change < 0 ? "down" : "";
    return `<tr data-testid="history-row">
      <td>${esc(titles[h.game] || h.game)}<div class="small muted">${ordinal(h.place)} of ${h.seats} · ${esc(when(h.ended_at))}</div></td>
      <td class="right"><span class="change ${kind}">${signed(change)}</span></td>
      <td class="right"><b>${h.display}</b></td>
      <td class="right"><a href="/games/${esc(h.table)}/replay">Replay</a></td>
    </tr>`;
  });
  return `<tbody>${rows.join("")}</tbody>`;
}

const RESULT = { won: ["win", "Won"], shared: ["win", "Shared win"], lost: ["lost", "Lost"], void: ["", "Void"] };

function recentHtml(doc) {
  if (!doc.recent_games.length) return `<tbody><tr><td class="muted">No games yet.</td></tr></tbody>`;
  const rows = doc.recent_games.map((g) => {
    const others = g.seats.filter((s) => s.position !== g.seat).map((s) => (
      s.username ? profileLink(s.username) : `${esc(s.name)}${s.bot ? " <span class=\"muted\">(bot)</span>" : ""}`
    ));
    const [cls, label] = RESULT[g.result] || ["turn", "Playing"];
    const link = g.status === "finished"
      ? `<a href="/games/${esc(g.id)}/replay" data-testid="replay-link">Replay</a>`
      : `<a href="/games/${esc(g.id)}">Open</a>`;
    return `<tr data-testid="recent-game" data-game-id="${esc(g.id)}">
      <td><b>${esc(g.title)}</b> <span class="muted small">${esc(g.mode)}</span>
        <div class="small">vs ${others.join(", ") || "nobody"}</div></td>
      <td><span class="badge ${cls}" data-testid="result">${label}</span></td>
      <td class="right">${link}</td>
    </tr>`;
  });
  return `<tbody>${rows.join("")}</tbody>`;
}

async function load() {
  try {
    const doc = await api("GET", `/players/${encodeURIComponent(USERNAME)}`);
    const titles = Object.fromEntries([...doc.ratings, ...doc.recent_games].map((x) => [x.game, x.title]));
    document.getElementById("joined").textContent = `Playing since ${when(doc.joined_at)}`;
    document.getElementById("ratings").innerHTML = ratingsHtml(doc);
    document.getElementById("history").innerHTML = historyHtml(doc, titles);
    document.getElementById("recent").innerHTML = recentHtml(doc);
    document.querySelector("[data-testid=profile]").dataset.loaded = "true";
  } catch (err) {
    showError(err);
  }
}

document.addEventListener("DOMContentLoaded", load);
