/* The result panel every table page shares (web/_explain.html's #outcome): how the engine
   decided a finished game, as the state's `outcome` says it (summary, then each tie-break
   in the order the rules applied it, with every contending seat's value). Nothing here
   decides or re-derives anything: it shows the engine's own reasoning. */
"use strict";

/* `nameOf(seat)`: the seat's name, from the table document. */
function outcomeHtml(outcome, nameOf) {
  const rows = (outcome.tie_breaks || []).map((t) => {
    const kept = new Set(t.kept);
    const values = t.values.map((v) =>
      `<li class="${kept.has(v.seat) ? "kept" : ""}" data-seat="${v.seat}">${esc(nameOf(v.seat))}: <b>${esc(String(v.value))}</b>` +
      `${kept.has(v.seat) ? ' <span class="badge win" title="kept by this comparison">✓</span>' : ""}</li>`).join("");
    return `<li data-testid="tie-break"><span class="criterion">${esc(t.criterion)}</span><ul class="values">${values}</ul></li>`;
  }).join("");
  return `<h3>Result</h3><p class="summary" data-testid="outcome-summary">${esc(outcome.summary)}</p>` +
    (rows ? `<details open><summary class="small">How it was decided</summary><ol class="tie-breaks">${rows}</ol></details>` : "");
}

/* "Rules version 2" (and the content version, for a game with stand-in data): what the
   game document says the game is played under (its first event's, not the newest). */
function playedUnderText(played) {
  if (!played) return "";
  const content = played.content_version ? `, content ${played.content_version}` : "";
  return `Rules version ${played.rules_version}${content}`;
}

function showPlayedUnder(played) {
  const el = document.getElementById("played-under");
  if (el && played) el.textContent = `· ${playedUnderText(played)}`;
}

/* Shows (or hides, while the game runs) the result panel for `state`; the versions the
   game is played under, from the page's game document (`doc`, where the page keeps one). */
function showOutcome(state, nameOf) {
  if (typeof doc !== "undefined" && doc) showPlayedUnder(doc.played_under);
  const el = document.getElementById("outcome");
  if (!el) return;
  const outcome = state && state.over ? state.outcome : null;
  el.hidden = !outcome;
  if (!outcome) return;
  const key = JSON.stringify(outcome);
  if (el.dataset.key === key) return; // unchanged: keep the reader's open/closed details
  el.dataset.key = key;
  el.innerHTML = outcomeHtml(outcome, nameOf);
}

/* A name for each seat of a game document (its table's seats). */
function tableSeatNamer(doc) {
  return (seat) => {
    const s = doc && doc.table ? doc.table.seats.find((x) => x.position === seat) : null;
    return s ? s.name : `Seat ${seat + 1}`;
  };
}
