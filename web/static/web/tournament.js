/* The tournament page (docs/web.md, docs/tournaments.md): rounds and their tables, the
   standings with what changed them, and for staff the review queue; a player's own tables,
   results and flags. From GET /api/v1/tournaments/{id}, its /queue (staff) and its
   /pairings (a player's flags). Names no game. */
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const REFRESH_MS = 15000;

function ordinal(n) {
  const tens = n % 100, units = n % 10;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[units] || "th"}`;
}

const STATUS = {
  registering: "Registering", round_running: "Round running",
  between_rounds: "Between rounds", finished: "Finished",
};
const RESULT = {
  played: ["win", "Finished"], awarded: ["flag", "Awarded by a ruling"],
  voided: ["flag", "Voided by a ruling"], unfinished: ["flag", "Unfinished at the deadline"],
  running: ["live", "Live"],
};

/* An entrant's name, linking a person's profile (a person's entrant name is their
   username; bots have no profile). */
let PEOPLE = new Set();
function nameHtml(entrant, name) {
  return PEOPLE.has(entrant)
    ? `<a href="/players/${encodeURIComponent(name)}" data-testid="profile-link">${esc(name)}</a>` : esc(name);
}

/* The entrant numbers that are the signed-in user. */
function mine(doc) {
  return new Set(doc.entrants.filter((e) => e.user !== null && e.user === CONFIG.me).map((e) => e.entrant));
}

function seatLine(table, seat, i, me) {
  const place = table.places ? ` <span class="muted small">${ordinal(table.places[i])}</span>` : "";
  const you = me.has(seat.entrant) ? ` <span class="badge you">you</span>` : "";
  return `<li>${nameHtml(seat.entrant, seat.name)}${you}${place}</li>`;
}

function tableLinks(table) {
  const open = `<a href="/games/${esc(table.table)}" data-testid="table-link">Table</a>`;
  const replay = table.status === "finished"
    ? `<a href="/games/${esc(table.table)}/replay" data-testid="replay-link">Replay review</a>` : "";
  return `<span class="links small">${open}${replay}</span>`;
}

function roundsHtml(doc, me) {
  if (!doc.rounds.length) return `<p class="muted">No round has started yet.</p>`;
  return doc.rounds.slice().reverse().map((r) => {
    const state = r.ended ? `ended (${esc(r.ended_by)})` : "running";
    const cards = r.tables.map((t, i) => {
      const [cls, label] = RESULT[t.result] || ["", t.result];
      const isMine = t.seats.some((s) => me.has(s.entrant));
      return `<div class="tcard${isMine ? " mine" : ""}" data-testid="table-card" data-table="${esc(t.table)}"${isMine ? ' data-mine="true"' : ""}>
        <div><b>Table ${i + 1}</b> <span class="badge ${cls}" data-testid="table-state">${esc(label)}</span>
          ${t.ruling ? `<span class="muted small">ruling ${esc(t.ruling)}</span>` : ""}</div>
        <ol>${t.seats.map((s, k) => seatLine(t, s, k, me)).join("")}</ol>
        ${tableLinks(t)}
      </div>`;
    }).join("");
    const byes = r.byes.length
      ? `<p class="small muted">Bye: ${r.byes.map((b) => esc(b.name) + (me.has(b.entrant) ? " (you)" : "")).join(", ")}</p>` : "";
    return `<div class="round" data-testid="round" data-round="${r.round}"><h3>Round ${r.round} <span class="muted small">${state}</span></h3>
      <div class="tables">${cards}</div>${byes}</div>`;
  }).join("");
}

function standingsHtml(doc, me) {
  if (!doc.standings.length) return `<tbody><tr><td class="muted">Nobody has entered yet.</td></tr></tbody>`;
  const head = `<tr class="muted small"><td>#</td><td>Entrant</td><td class="right">Points</td><td class="right">Buchholz</td><td class="right">Games</td></tr>`;
  const rows = doc.standings.map((s) => `<tr data-testid="standing-row"${me.has(s.entrant) ? ' class="mine" data-mine="true"' : ""}>
      <td>${s.rank}</td><td>${nameHtml(s.entrant, s.name)}${me.has(s.entrant) ? ' <span class="badge you">you</span>' : ""}</td>
      <td class="right"><b>${esc(s.points)}</b></td><td class="right">${esc(s.buchholz)}</td>
      <td class="right">${s.games}${s.byes ? ` <span class="muted small">+${s.byes} bye</span>` : ""}</td></tr>`);
  return `<tbody>${head}${rows.join("")}</tbody>`;
}

function historyHtml(doc) {
  if (!doc.history.length) return `<li class="muted none">Nothing yet: the standings change when a round ends or a ruling is taken in.</li>`;
  const names = Object.fromEntries(doc.standings.map((s) => [s.entrant, s.name]));
  const where = {};  // a table's id -> "round 1, table 2": the ids are long for people
  for (const r of doc.rounds) r.tables.forEach((t, i) => { where[t.table] = `round ${r.round}, table ${i + 1}`; });
  return doc.history.slice().reverse().map((h) => {
    const why = h.why.replace(/on table ([0-9a-f-]{36})/, (m, id) => (where[id] ? `on ${where[id]}` : m));
    const leader = h.standings.length ? h.standings[0] : null;
    const lead = leader && leader.points !== "0"
      ? ` <span class="muted">· leader ${esc(names[leader.entrant] || leader.entrant)} (${esc(leader.points)})</span>` : "";
    const ruling = h.why.startsWith("ruling") ? " ruling" : "";
    return `<li class="change${ruling}" data-testid="history-entry">${esc(why)}${lead}</li>`;
  }).join("");
}

function myGamesHtml(doc, me, flags) {
  const rows = [];
  for (const r of doc.rounds) {
    r.tables.forEach((t, i) => {
      const k = t.seats.findIndex((s) => me.has(s.entrant));
      if (k < 0) return;
      let [cls, label] = RESULT[t.result] || ["", t.result];
      if (t.places) [cls, label] = [t.places[k] === 1 ? "win" : "", `${ordinal(t.places[k])} of ${t.seats.length}`];
      const others = t.seats.filter((_, j) => j !== k).map((s) => esc(s.name)).join(", ");
      rows.push(`<tr class="mine" data-testid="my-pairing"><td>Round ${r.round} · Table ${i + 1}
        <div class="small">vs ${others || "nobody"}</div></td>
        <td><span class="badge ${cls}" data-testid="my-result">${esc(label)}</span></td>
        <td class="right">${tableLinks(t)}</td></tr>
        <tr class="mine flag-row"><td colspan="3">${flagCell(t.table, flags)}</td></tr>`);
    });
    for (const b of r.byes) {
      if (me.has(b.entrant)) rows.push(`<tr class="mine" data-testid="my-pairing"><td>Round ${r.round}</td><td><span class="badge">Bye</span></td><td></td></tr>`);
    }
  }
  if (!me.size) return `<tbody><tr><td class="muted">You are not entered in this tournament.</td></tr></tbody>`;
  if (!rows.length) return `<tbody><tr><td class="muted">No games yet: you are seated when a round starts.</td></tr></tbody>`;
  return `<tbody>${rows.join("")}</tbody>`;
}

/* The review queue (GET /tournaments/{id}/queue, directors): each game that needs a look
   with why; an open flag has a form to close it with a note. */
function whyLine(w) {
  switch (w.kind) {
    case "flagged":
      return `<div class="why flagged" data-testid="queue-why" data-kind="flagged">Flagged by ${esc(w.by)}: “${esc(w.reason)}”
        <form class="close-flag" data-flag="${w.flag}" data-testid="close-flag"><input name="note" maxlength="500" required placeholder="What you found" aria-label="What you found (flag ${w.flag})">
        <button type="submit">Close flag</button></form></div>`;
    case "ruling_pending":
      return `<div class="why" data-testid="queue-why" data-kind="ruling_pending">Ruling ${esc(w.ruling)} (${esc(w.decision)}) pending: not yet in the standings</div>`;
    case "abandoned":
      return `<div class="why" data-testid="queue-why" data-kind="abandoned">Abandoned: ${esc(w.names.join(", "))} put out by the turn clock</div>`;
    case "timeouts":
      return `<div class="why" data-testid="queue-why" data-kind="timeouts">${w.moves} move${w.moves === 1 ? "" : "s"} played by the turn clock (timeouts)</div>`;
    case "unfinished":
      return `<div class="why" data-testid="queue-why" data-kind="unfinished">Unfinished at the round's deadline: scores nothing</div>`;
    default:
      return `<div class="why" data-testid="queue-why">${esc(w.kind)}</div>`;
  }
}

function queueHtml(queue) {
  if (!queue.items.length) return `<tbody><tr><td class="muted" data-testid="queue-empty">Nothing needs a look.</td></tr></tbody>`;
  return `<tbody>${queue.items.map((x) => `<tr data-testid="queue-item" data-table="${esc(x.table)}">
    <td>Round ${x.round} · Table ${x.number}${x.why.map(whyLine).join("")}</td>
    <td class="right"><a href="/games/${esc(x.table)}/replay" data-testid="queue-replay">Replay review</a></td></tr>`).join("")}</tbody>`;
}

/* Closed flags and what closed them: every decision stays visible. */
function closedFlagsHtml(queue, doc) {
  const names = Object.fromEntries(doc.entrants.map((e) => [e.entrant, e.name]));
  const closed = queue.flags.filter((f) => f.status === "closed");
  if (!closed.length) return `<li class="muted none">None yet.</li>`;
  return closed.slice().reverse().map((f) => {
    const by = f.entrant === null ? "a director" : names[f.entrant];
    const answer = f.closed_by === "ruling" ? `answered by ruling ${esc(f.ruling)}` : `reviewed: ${esc(f.note)}`;
    return `<li data-testid="closed-flag">Flag ${f.flag} by ${esc(by)} (“${esc(f.reason)}”): ${answer}</li>`;
  }).join("");
}

/* A player's flag on one of their games: a button that opens a one-line form. */
function flagCell(tableId, flags) {
  const own = flags.filter((f) => f.table === tableId);
  const open = own.find((f) => f.status === "open");
  const lines = own.filter((f) => f.status === "closed").map((f) =>
    `<div class="small muted" data-testid="my-flag">Flag closed: ${f.closed_by === "ruling" ? `ruling ${esc(f.ruling)}` : esc(f.note)}</div>`).join("");
  if (open) return `${lines}<div class="small" data-testid="my-flag">Flagged for review: “${esc(open.reason)}”</div>`;
  return `${lines}<details class="flag"><summary data-testid="flag-game">Flag for review…</summary>
    <form class="flag-form" data-table="${esc(tableId)}" data-testid="flag-form"><input name="reason" maxlength="500" required placeholder="What needs a look?" aria-label="Why this game needs a look">
    <button type="submit">Send to the directors</button>
    <div class="small muted">The flag and its reason go in the tournament's record: everyone sees them.</div></form></details>`;
}

let loading = null;  // the page's one refresh at a time

async function load() {
  try {
    const doc = await api("GET", `/tournaments/${encodeURIComponent(CONFIG.tournamentId)}`);
    const me = mine(doc);
    PEOPLE = new Set(doc.entrants.filter((e) => e.user !== null).map((e) => e.entrant));
    const rounds = `${doc.rounds.length} of ${doc.rounds_planned} rounds`;
    document.getElementById("summary").textContent =
      `${STATUS[doc.status] || doc.status} · ${doc.format} · ${doc.entrants.length} entrants · ${rounds} · tables of ${doc.table_min}–${doc.table_max}`;
    document.getElementById("rounds").innerHTML = roundsHtml(doc, me);
    document.getElementById("standings").innerHTML = standingsHtml(doc, me);
    document.getElementById("history").innerHTML = historyHtml(doc);
    if (CONFIG.staff) {
      const queue = await api("GET", `/tournaments/${encodeURIComponent(CONFIG.tournamentId)}/queue`);
      if (!document.querySelector("#queue form input:focus")) {
        document.getElementById("queue").innerHTML = queueHtml(queue);
      }
      document.getElementById("closed-flags").innerHTML = closedFlagsHtml(queue, doc);
    } else if (!document.querySelector("#mine details[open]")) {
      const own = me.size ? (await api("GET", `/tournaments/${encodeURIComponent(CONFIG.tournamentId)}/pairings`)).flags : [];
      document.getElementById("mine").innerHTML = myGamesHtml(doc, me, own);
    }
    document.querySelector("[data-testid=tournament]").dataset.loaded = "true";
    document.getElementById("error").hidden = true;
    return doc;
  } catch (err) {
    showError(err);
    return null;
  }
}

async function refresh() {
  const doc = await load();
  if (!doc || doc.status !== "finished" || CONFIG.staff) setTimeout(refresh, REFRESH_MS);
}

document.addEventListener("submit", async (ev) => {
  const form = ev.target;
  const base = `/tournaments/${encodeURIComponent(CONFIG.tournamentId)}`;
  let path, body;
  if (form.matches(".flag-form")) {
    [path, body] = [`${base}/flags`, { table: form.dataset.table, reason: form.elements.reason.value }];
  } else if (form.matches(".close-flag")) {
    [path, body] = [`${base}/flags/${form.dataset.flag}/close`, { note: form.elements.note.value }];
  } else {
    return;
  }
  ev.preventDefault();
  const button = form.querySelector("button");
  button.disabled = true;
  try {
    await api("POST", path, body);
    form.closest("details")?.removeAttribute("open");
    form.querySelector("input").blur();
    await load();
  } catch (err) {
    showError(err);
    button.disabled = false;
  }
});

document.addEventListener("DOMContentLoaded", refresh);
