/* Standing reactions: what the server answers for my seat when a reaction window opens
   (GET/PATCH /games/{id}/standing, docs/api.md). Pass automatically when I hold no counter
   that applies (on by default), pass on everything for a while, and counters declared in
   advance ("answer any CONTRACT on my mobsters with FAMILY INFLUENCE"). The server applies
   them as my own commands; the panel only reads and changes the preferences.
   Loaded after game.js: it uses GAME, doc, me() and the api helpers. */
"use strict";

let standing = null; // the last standing document, or null (no seat, or a server without it)
let standingWindow = null; // the window id the document was read for

async function loadStanding() {
  const box = document.getElementById("standing");
  if (!box) return;
  if (!doc || me() === null || doc.state.over) { box.hidden = true; standing = null; return; }
  try {
    standing = await api("GET", `/games/${GAME}/standing`);
  } catch (err) {
    standing = null;
    box.hidden = true; // a server without standing reactions, or no seat
    return;
  }
  standingWindow = doc.state.window ? doc.state.window.id : null;
  box.hidden = false;
  drawStanding();
}

/* Re-read when a window opens or closes: the document says whether it passed on it. */
function standingFollows(state) {
  const id = state.window && !state.window.decision ? state.window.id : null;
  if (id !== standingWindow) {
    standingWindow = id;
    loadStanding();
  }
}

function passAllWords(p) {
  if (!p || !p.active) return "";
  if (p.turn !== null && p.turn !== undefined) return `until the end of turn ${p.turn}`;
  if (p.until_ms) return `until ${new Date(p.until_ms - clockOffset).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
  return "for now";
}

function drawStanding() {
  if (!standing) return;
  const declared = new Set((standing.counters || []).map((c) => c.counter));
  const passing = standing.pass_all && standing.pass_all.active;
  const summary = [standing.auto_pass ? "auto-pass on" : "auto-pass off"];
  if (passing) summary.push(`passing on everything ${passAllWords(standing.pass_all)}`);
  if (declared.size) summary.push(`${declared.size} counter${declared.size === 1 ? "" : "s"} declared`);
  document.getElementById("standing-summary").textContent = `(${summary.join(" · ")})`;
  const counters = Object.keys(standing.answers || {}).map((kind) => `<label class="check">
      <input type="checkbox" data-standing-counter="${esc(kind)}" ${declared.has(kind) ? "checked" : ""}>
      Answer attacks on my mobsters with ${esc(kindName(kind))} when I hold it</label>`).join("");
  document.getElementById("standing-body").innerHTML = `
    <label class="check"><input type="checkbox" data-standing="auto_pass" ${standing.auto_pass ? "checked" : ""}>
      Pass automatically when I hold no counter that applies</label>
    <div class="actions">${passing
      ? `<span>Passing on everything ${esc(passAllWords(standing.pass_all))}.</span> <button type="button" data-standing="pass_all_stop">Stop</button>`
      : `<button type="button" data-standing="pass_all_10">Pass on everything for 10 minutes</button>
         <button type="button" data-standing="pass_all_turn">… until the end of this turn</button>`}</div>
    ${counters}
    <p class="small muted">The server answers for you as your own move. With other people at the
      table an automatic pass is sealed (nobody else sees it, and the window runs its countdown
      unless someone counters), so nobody learns your hand from it. A pass you make by hand is
      shown to the table and lets the window end as soon as everyone has answered.</p>`;
}

/* The window panel's line when I passed on the open window, by hand or by my standing
   reactions: at a table of people an automatic pass is sealed (docs/rules.md, "Hand passes
   are public, automatic passes are sealed"). */
function windowPassHtml(state) {
  const p = (doc && doc.window_pass) || (standing && standing.window_pass);
  if (!p || !state.window || p.window !== state.window.id) return "";
  const sealed = "Nobody else sees it: the window runs until its countdown ends or someone counters. Pass now to let it end sooner (the table will see it).";
  if (p.origin === "manual") {
    return `<p class="small auto-passed" data-testid="passed">You passed. ${sealed}</p>`;
  }
  const why = p.reason === "pass_all" ? "you pass on everything for now" : "you hold no counter that applies";
  return `<p class="small auto-passed" data-testid="auto-passed">Passed for you automatically (${esc(why)}); you may still counter until the window closes. ${sealed}</p>`;
}

async function changeStanding(change) {
  try {
    standing = await api("PATCH", `/games/${GAME}/standing`, { ...change, expected_version: standing.version });
    showError(null);
  } catch (err) {
    showError(err);
    await loadStanding();
    return;
  }
  drawStanding();
  if (typeof draw === "function") draw();
}

document.addEventListener("change", (ev) => {
  const t = ev.target;
  if (!standing) return;
  if (t.dataset.standing === "auto_pass") changeStanding({ auto_pass: t.checked });
  const kind = t.dataset.standingCounter;
  if (kind) {
    const rest = (standing.counters || []).filter((c) => c.counter !== kind);
    if (t.checked) rest.push({ counter: kind, against: standing.answers[kind], mine_only: true });
    changeStanding({ counters: rest });
  }
});

document.addEventListener("click", (ev) => {
  const t = ev.target.closest("button[data-standing]");
  if (!t || !standing) return;
  const change = {
    pass_all_10: { pass_all: { seconds: 600 } },
    pass_all_turn: { pass_all: { end_of_turn: true } },
    pass_all_stop: { pass_all: null },
  }[t.dataset.standing];
  if (change) changeStanding(change);
});
