/* The table page: the waiting room before the start (page.js), then the live game.

   State: GET /games/{id} (the viewer's projection, with `legal` options).
   Updates: long-poll GET /games/{id}/events?after=N&wait=W; new events go to the move log
   and trigger a fresh state read. Moves: POST /games/{id}/commands with an Idempotency-Key
   and the version we saw; undo and resign have their own routes. */
"use strict";

const GAME = CFG.gameId;
let doc = null; // the last game document (GET /games/{id})
let clockOffset = 0; // server_time - Date.now()
let lastSeq = 0;
const seen = []; // every event so far, for the last move's highlight on the board
let selection = null; // {option, picked: []} while a card or counter is being prepared
let butcher = null; // advanced rules: the cards picked for BUTCHER (a Set) while choosing
let confirmResign = false;
let busy = false;
let feedFailed = false; // the error on show is the feed's own (cleared when it recovers)
const log = new MoveLog();

/* --- the waiting room (page.js draws it) --------------------------------------------- */

function tableInfo(table) {
  return `${table.mode} table · ${table.size} seats · ${table.options.reaction_seconds} s to answer an attack` +
    ` · undo ${table.undo === "off" ? "off" : "allowed"}` +
    (table.turn_seconds ? ` · ${table.turn_seconds} s per turn (then ${table.turn_action === "bot" ? "a bot plays" : "a card is discarded"})` : "") +
    (table.options.advanced ? " · advanced rules (ability cards, texts reconstructed)" : "");
}

/* --- the game ------------------------------------------------------------------------ */

function me() {
  return doc ? doc.seat : null;
}

async function loadState() {
  const fresh = await api("GET", `/games/${GAME}`);
  if (doc && fresh.version < doc.version) return; // an older read that lost the race
  clockOffset = fresh.server_time - Date.now();
  doc = fresh;
  draw();
  recheckWindow();
}

/* My standing reactions answer a window as it opens, on the server, maybe a moment after
   this page read it: read once more shortly after, so "Passed for you automatically"
   shows while the window is still open (nothing else announces a sealed pass). */
let windowRechecked = null;
function recheckWindow() {
  const w = doc && doc.state.window;
  if (!w || w.decision || me() === null || !w.waiting_on.includes(me()) || doc.window_pass) return;
  const key = `${w.id}:${w.deadline}`;
  if (windowRechecked === key) return;
  windowRechecked = key;
  setTimeout(() => { loadState().catch(() => {}); }, 1500);
}

function useCommandResult(res) {
  if (doc && res.version < doc.version) return;
  clockOffset = res.server_time - Date.now();
  doc = {
    ...doc,
    version: res.version,
    state: res.state,
    server_time: res.server_time,
    table: res.table || doc.table,
    undo_available: res.undo_available,
    turn_deadline: res.turn_deadline,
    window_pass: res.window_pass,
    takeback: res.takeback,
  };
  draw();
}

/* A takeback request (an undo the next person must agree to) appends no event: while one
   may come (my turn) or one is open, read the game every two seconds. */
setInterval(() => {
  if (!doc || doc.state.over || busy || document.hidden || selection || butcher) return;
  const seat = me();
  const mine = seat !== null && !doc.state.window && doc.state.turn_seat === seat;
  if (mine || doc.takeback) loadState().catch(() => {});
}, 2000);

async function loadLog() {
  for (;;) {
    const page = await api("GET", `/games/${GAME}/events?after=${lastSeq}`);
    addEvents(page.events);
    if (!page.has_more) return;
  }
}

function addEvents(events) {
  const list = document.getElementById("log");
  let html = "";
  for (const ev of events) {
    if (ev.seq <= lastSeq) continue;
    lastSeq = ev.seq;
    seen.push(ev);
    html += log.item(ev, doc.state);
  }
  if (!html) return false;
  list.insertAdjacentHTML("beforeend", html);
  markUndone(list, events);
  list.scrollTop = list.scrollHeight;
  return true;
}

async function follow() {
  for (;;) {
    if (doc && doc.state.over && lastSeq >= doc.version) return;
    try {
      const page = await api("GET", `/games/${GAME}/events?after=${lastSeq}&wait=${CFG.feedWait}`);
      // (a ruling ends a game with no event: the feed says `finished`)
      if (addEvents(page.events) || page.has_more || (page.finished && !doc.state.over)) await loadState();
      else if (doc.state.window) await loadState(); // the window may have closed quietly
      if (feedFailed) { showError(null); feedFailed = false; }
    } catch (err) {
      showError(err); // a refused move's message stays until the next move or feed failure
      feedFailed = true;
      await sleep(2000);
    }
  }
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  draw();
  try {
    const res = await api("POST", `/games/${GAME}${path}`, body, { idempotent: true });
    selection = null;
    butcher = null;
    confirmResign = false;
    showError(null);
    if (res.takeback) {
      // an undo that asks the next person first, or an answer to one: read the game
      doc = { ...doc, takeback: res.takeback.state === "open" ? res.takeback : null };
      await loadState();
    } else {
      useCommandResult(res);
    }
  } catch (err) {
    showError(err);
    if (err.status === 409 || err.status === 422) {
      selection = null;
      butcher = null;
      try { await loadState(); } catch (e) { /* the feed will catch up */ }
    }
  } finally {
    busy = false;
    draw();
  }
}

function command(cmd) {
  const body = { command: cmd };
  if (["play", "draw", "use_butcher", "end_turn"].includes(cmd.type)) body.expected_version = doc.version;
  return send("/commands", body);
}

/* --- choosing targets: one step at a time, driven by the option's `choices` ------------ */

function step(allowed, prompt, kind = "mobster") {
  return { kind, allowed, prompt };
}

/* The next thing to pick for `option` after `picked`, or null when the command is complete. */
function nextStep(option, picked) {
  const ch = option.choices || {};
  const n = picked.length;
  if (option.command === "counter") {
    return ch.mobster && n < 1
      ? step(ch.mobster, "Choose which of the attacker's mobsters goes on the Hit List instead.")
      : null;
  }
  if (option.command === "unforgiving") {
    return ch.mobster && n < 1
      ? step(ch.mobster, "UNFORGIVING: click a mobster in front of a player to put at the end of the Hit List, or decline.")
      : null;
  }
  if (option.command !== "play") return null;
  if (ch.player) return n < 1 ? step(ch.player, "Choose the player whose listed mobsters go home.", "player") : null;
  const t = ch.targets;
  if (!t) return null;
  if (t.permutation_of) {
    const rest = t.permutation_of.filter((m) => !picked.includes(m));
    return rest.length
      ? step(rest, `Click the Hit List mobsters in their new order: ${n + 1} of ${t.permutation_of.length}.`)
      : null;
  }
  if (t.one_player) {
    if (n === 0) return step(Object.values(t.one_player).flat(), "Choose the first target (both must be of the same family).");
    if (n === 1) {
      const list = Object.values(t.one_player).find((l) => l.includes(picked[0])) || [];
      const rest = list.filter((m) => m !== picked[0]);
      return rest.length ? step(rest, "Choose the second target, of the same family.") : null;
    }
    return null;
  }
  if (t.per_player) {
    const allowed = [];
    let left = 0;
    for (const quota of Object.values(t.per_player)) {
      const chosen = quota.mobsters.filter((m) => picked.includes(m)).length;
      if (chosen < quota.count) {
        left += quota.count - chosen;
        allowed.push(...quota.mobsters.filter((m) => !picked.includes(m)));
      }
    }
    return left ? step(allowed, `Choose ${left} more mobster${left === 1 ? "" : "s"}, in the order they go on the Hit List.`) : null;
  }
  if (t.leaving) {
    if (n === 0) return step(t.leaving, "Choose the mobster who turns coat and leaves.");
    if (n === 1) return step(t.returning, "Choose the mobster who comes back from the graveyard.");
    return null;
  }
  if (t.listed) {
    if (n === 0) return step(t.listed, "Choose the listed mobster to substitute.");
    if (n === 1) return step(t.replacements.filter((m) => m !== picked[0]), "Choose the replacement.");
    return null;
  }
  if (t.mobsters) {
    const ability = (CAT.kinds[option.kind] || {}).category === "ability";
    if (n === 0) {
      return step(t.mobsters, ability ? `Choose one of your mobsters to carry ${kindName(option.kind)}.`
        : option.kind === "HIT" ? "Choose the victim." : "Choose the target.");
    }
    if (n === 1 && t.max === 2 && t.same_player) { // SHOTGUN: an optional second target
      const rest = t.mobsters.filter((m) => m !== picked[0] && mobFamily(m) === mobFamily(picked[0]));
      return rest.length
        ? { ...step(rest, "SHOTGUN: you may choose a second mobster of the same family (or confirm now)."), optional: true }
        : null;
    }
    if (n === 1 && ch.own) {
      const own = ch.own.mobsters.filter((m) => m !== picked[0]);
      return own.length ? step(own, "Choose one of your own mobsters to put on the Hit List.") : null;
    }
    return null;
  }
  return null;
}

function buildCommand(option, picked) {
  if (option.command === "unforgiving") return { type: "unforgiving", window: option.window, mobster: picked[0] };
  if (option.command === "counter") {
    const cmd = { type: "counter", window: option.window, card: option.card };
    if (picked.length) cmd.mobster = picked[0];
    return cmd;
  }
  const ch = option.choices || {};
  const cmd = { type: "play", card: option.card };
  if (ch.player) cmd.player = Number(picked[0]);
  else if (ch.own) {
    cmd.targets = [picked[0]];
    if (picked[1]) cmd.own = picked[1];
  } else if (ch.targets && ch.targets.one_player && picked.length === 1) cmd.targets = [picked[0], picked[0]];
  else if (ch.targets) cmd.targets = picked.slice();
  return cmd;
}

function describePick(option, picked) {
  if (option.choices && option.choices.player) return picked.map((s) => seatNamer(doc.state)(Number(s))).join(", ");
  return listWords(picked.map(mobName));
}

function pick(value) {
  if (!selection) return;
  const s = nextStep(selection.option, selection.picked);
  if (!s || !s.allowed.map(String).includes(String(value))) return;
  selection.picked.push(s.kind === "player" ? Number(value) : value);
  draw();
}

/* --- drawing ------------------------------------------------------------------------- */

function optionsFor(command, card) {
  const legal = doc.state.legal || [];
  return legal.filter((o) => o.command === command && (card === undefined || o.card === card));
}

/* A selection survives a redraw only while its option is still legal. */
function keepSelection() {
  if (butcher && !optionsFor("use_butcher").length) butcher = null;
  if (!selection) return;
  const o = selection.option;
  const still = (doc.state.legal || []).some((x) => x.command === (o.command === "discard" ? "discard" : o.command) &&
    x.card === o.card && x.window === o.window);
  if (!still) selection = null;
}

function draw() {
  if (!doc) return;
  keepSelection();
  const state = doc.state;
  const uf = optionsFor("unforgiving")[0];
  if (uf && !selection) selection = { option: uf, picked: [] }; // mobsters light up at once
  drawTurnClock(state);
  const root = document.getElementById("game");
  root.hidden = false;
  root.dataset.version = doc.version;
  const st = selection ? nextStep(selection.option, selection.picked) : null;
  const ctx = {
    me: me(),
    selectable: st && st.kind === "mobster" ? new Set(st.allowed) : null,
    selectablePlayers: st && st.kind === "player" ? new Set(st.allowed.map(Number)) : null,
    picked: selection ? selection.picked : [],
    events: seen,
  };
  renderBoard(state, ctx);
  showOutcome(state, seatNamer(state));
  // a tournament director decided the result (api.js); a ruled game's state reads as over
  document.getElementById("status").insertAdjacentHTML("beforeend", rulingLine(doc.table, seatNamer(state), GAME) + absenceLine(doc, seatNamer(state), GAME));
  drawHand(state);
  drawWindow(state, st);
  drawActions(state, st);
  if (typeof standingFollows === "function") standingFollows(state); // standing.js
  // Developer details (version, seed hash) stay folded in a <details> that is not redrawn,
  // so it keeps its open or closed state.
  document.getElementById("game-details").innerHTML =
    `Game ${esc(GAME.slice(0, 8))} · version ${doc.version} · seed hash <code>${esc((state.seed_hash || "").slice(0, 16))}…</code>`;
  document.getElementById("replay-link-slot").innerHTML =
    state.over ? `<a href="/games/${GAME}/replay" data-testid="replay-link">Watch the replay</a>` : "";
  tickCountdowns(clockOffset);
  if (typeof alertsFollow === "function") alertsFollow(doc); // alerts.js: title, tone, notification
}

function drawTurnClock(state) {
  const el = document.getElementById("turn-clock");
  if (!el) return;
  if (doc.turn_deadline && !state.over) {
    el.hidden = false;
    el.dataset.deadline = doc.turn_deadline;
    el.dataset.label = state.turn_seat === me() ? "left for your turn" : `left for ${seatNamer(state)(state.turn_seat)}'s turn`;
  } else {
    el.hidden = true;
    el.removeAttribute("data-deadline");
  }
}

/* Advanced rules: SHORT-TEMPERED's offer is open for me (cards in hand can be played). */
function shortTempered(state) {
  return state.window && state.window.decision === "short_tempered" && state.window.seat === me();
}

/* BUTCHER's controls: pick cards in the hand, then discard them and draw as many. */
function butcherHtml() {
  const o = optionsFor("use_butcher")[0];
  if (!o) return "";
  if (!butcher) {
    return `<button type="button" data-action="butcher" title="${esc(abilityTip({ kind: "BUTCHER", name: "Butcher", text: CAT.kinds.BUTCHER.text, reconstructed: true }))}">Use BUTCHER…</button>`;
  }
  const n = butcher.size;
  return `<div class="picker" data-testid="butcher"><p class="prompt">BUTCHER: click the cards in your hand to discard (${n} selected); you then draw as many.</p>
    <button type="button" class="primary" data-action="butcher-confirm" ${n ? "" : "disabled"}>Discard ${n} and draw ${n}</button>
    <button type="button" data-action="butcher-cancel">Cancel</button></div>`;
}

function decisionHtml(state) {
  const w = state.window;
  let html = '<div class="actions" data-testid="decision">';
  if (w.decision === "draw") {
    for (const o of optionsFor("draw")) {
      for (const source of o.choices.source) {
        const top = state.discard[state.discard.length - 1];
        const label = source === "deck"
          ? (o.choices.source.length > 1 ? "Draw this card from the deck" : "Draw from the deck")
          : `Take the top of the discard pile${top ? ` (${top.name})` : ""}`;
        html += `<button type="button" class="primary" data-action="draw" data-source="${esc(source)}">${esc(label)}</button>`;
      }
    }
    html += butcherHtml();
  } else if (w.decision === "unforgiving") {
    html += '<p class="prompt">Click a mobster on the board (or in the list below), or decline.</p>';
  } else if (w.decision === "short_tempered") {
    const attacks = optionsFor("play").length;
    html += `<p class="prompt">SHORT-TEMPERED: ${attacks ? "play one more ATTACK card from your hand (bright cards), or end your turn." : "you hold no playable ATTACK card."}</p>`;
    html += '<button type="button" data-action="end-turn">End turn</button>';
  }
  return html + "</div>";
}

function drawHand(state) {
  const mine = me() === null ? null : state.players[me()];
  const hand = document.getElementById("hand");
  if (!mine) { hand.innerHTML = '<p class="muted">You are watching this game.</p>'; return; }
  const myTurn = (!state.window && state.turn_seat === me() && !state.over) || shortTempered(state) || butcher;
  hand.innerHTML = (mine.hand || []).map((c) => {
    const classes = [];
    const playable = optionsFor("play", c.id).length > 0;
    if (myTurn) classes.push("clickable");
    if (playable || butcher) classes.push("playable");
    if (butcher && butcher.has(c.id)) classes.push("butcher-pick");
    if (selection && selection.option.card === c.id) classes.push("selected");
    // on my card play, a card that cannot be played for effect says why (it can be discarded)
    const why = myTurn && !butcher && !playable && !shortTempered(state) ? whyNot(c.kind, state) : "";
    return cardBox(c, { classes, why });
  }).join("") || '<p class="muted">No cards.</p>';
}

function drawWindow(state, st) {
  const panel = document.getElementById("window-panel");
  if (!state.window) { panel.hidden = true; panel.innerHTML = ""; return; }
  panel.hidden = false;
  let html = windowHtml(state, passedOn(state.window) ? me() : null);
  if (typeof windowPassHtml === "function") html += windowPassHtml(state);
  if (state.window.decision) {
    if (state.window.seat === me()) html += decisionHtml(state);
    panel.innerHTML = html;
    return;
  }
  const counters = optionsFor("counter");
  const pass = optionsFor("pass")[0];
  if (selection && selection.option.command === "counter") {
    html += pickerHtml(st);
  } else if (counters.length || pass) {
    html += '<div class="actions">';
    const shown = new Set(); // two copies of a card answer the same way: one button
    for (const o of counters) {
      if (shown.has(o.kind)) continue;
      shown.add(o.kind);
      html += `<button type="button" class="primary" data-action="counter" data-card="${esc(o.card)}">Counter with ${esc(kindName(o.kind))}</button>`;
    }
    // at a table of people a pass by hand is public and may end the window early; an
    // automatic one is sealed (docs/rules.md, "Hand passes are public"): say the trade
    if (pass) {
      html += tableOfPeople()
        ? `<button type="button" data-action="pass" data-testid="pass-now">Pass now — the table will see it</button>`
        : `<button type="button" data-action="pass">Pass</button>`;
    }
    html += "</div>";
  } else if (me() !== null && state.window.waiting_on.includes(me()) && !passedOn(state.window)) {
    html += '<p class="muted">Time is up for answers.</p>';
  }
  panel.innerHTML = html;
}

/* Whether two or more people (not bots) sit at this table: then automatic passes are
   sealed and a window closes early only when every seat passed by hand. */
function tableOfPeople() {
  const seats = (doc && doc.table && doc.table.seats) || [];
  return seats.filter((s) => !s.bot).length >= 2;
}

/* Whether I passed by hand in a record from before hand passes were public (sealed, final) on `window`: waiting_on still lists me, for
   everyone else's sake. (A standing pass leaves me free to counter: not this.) */
function passedOn(window) {
  const p = doc && doc.window_pass;
  return Boolean(p && p.origin === "manual" && p.window === window.id);
}

/* Mobsters to pick, grouped by family in the family's colour (the board lights them too). */
function choicesByFamily(allowed) {
  const groups = new Map();
  for (const m of allowed) {
    const fam = mobFamily(m);
    if (!groups.has(fam)) groups.set(fam, []);
    groups.get(fam).push(m);
  }
  return [...groups].map(([fam, mobs]) => `<div class="choice-group fam-${esc(fam)}" data-testid="choice-group" data-family="${esc(fam)}">
    <span class="fam-name">${esc(CAT.families[fam] || fam)}</span>
    ${mobs.map((m) => `<button type="button" class="choice" data-pick="${esc(m)}">${esc(mobName(m))}</button>`).join("")}</div>`).join("");
}

function pickerHtml(st) {
  const o = selection.option;
  const verb = { counter: "Counter with", discard: "Discard" }[o.command] || "Play";
  const title = o.command === "unforgiving" ? "UNFORGIVING" : `${verb} ${kindName(o.kind)}`;
  const text = o.command === "unforgiving" ? "" : (CAT.kinds[o.kind] || {}).text || "";
  let html = `<div class="picker" data-testid="picker"><h3>${esc(title)}</h3><p class="small muted">${esc(text)}</p>`;
  if (selection.picked.length) html += `<p>Chosen: <b data-testid="chosen">${esc(describePick(o, selection.picked))}</b></p>`;
  if (st) {
    html += `<p class="prompt" data-testid="prompt">${esc(st.prompt)}</p><div class="choices">`;
    html += st.kind === "player"
      ? st.allowed.map((v) => `<button type="button" class="choice" data-pick="${esc(v)}">${esc(seatNamer(doc.state)(Number(v)))}</button>`).join("")
      : choicesByFamily(st.allowed);
    html += "</div>";
  }
  html += '<div class="actions">';
  html += `<button type="button" class="primary" data-action="confirm" ${(st && !st.optional) || busy ? "disabled" : ""}>Confirm</button>`;
  if (selection.picked.length) html += `<button type="button" data-action="restart">Start over</button>`;
  if (o.command === "play" && optionsFor("discard", o.card).length) html += `<button type="button" data-action="discard" data-card="${esc(o.card)}">Discard it instead</button>`;
  if (o.command === "unforgiving") html += `<button type="button" data-action="unforgiving-none">Decline (no effect)</button>`;
  else html += `<button type="button" data-action="cancel">Cancel</button>`;
  html += "</div></div>";
  return html;
}

function drawActions(state, st) {
  const panel = document.getElementById("action-panel");
  const seat = me();
  let html = "";
  if (seat === null) {
    html = '<p class="muted">You are watching: you hold no seat at this table.</p>';
  } else if (state.over) {
    html = `<p><b>The game is over.</b> <a class="button primary" href="/games/${GAME}/replay">Watch the replay</a> <a class="button" href="/lobby">Back to the lobby</a></p>`;
  } else if (selection && selection.option.command !== "counter") {
    html = pickerHtml(st);
  } else if (!state.window && state.turn_seat === seat) {
    html = '<p class="prompt">Your turn: click a card in your hand. Bright cards can be played for effect; any card can be discarded.</p>';
    if (optionsFor("use_butcher").length) html += `<div class="actions">${butcherHtml()}</div>`;
  } else if (state.window && state.window.decision && state.window.seat === seat) {
    html = '<p class="prompt">A decision is yours: see the panel above.</p>';
  } else if (state.window && state.window.decision) {
    html = `<p class="muted">Waiting for ${esc(seatNamer(state)(state.window.seat))} to decide…</p>`;
  } else if (state.window && passedOn(state.window)) {
    html = '<p class="muted">You passed; the window runs until its countdown ends or someone counters…</p>';
  } else if (state.window && state.window.waiting_on.includes(seat)) {
    html = '<p class="prompt">An attack can be answered: see the reaction window above.</p>';
  } else if (state.window && tableOfPeople()) {
    html = '<p class="muted" data-testid="waiting-why">Waiting for answers; a seat that leaves its answer to auto-pass keeps its hand hidden, so the window runs to its end.</p>';
  } else if (state.window) {
    html = '<p class="muted">Waiting for the other players to answer…</p>';
  } else {
    html = `<p class="muted">Waiting for ${esc(seatNamer(state)(state.turn_seat))}…</p>`;
  }
  if (seat !== null && !state.over && doc.takeback) html = takebackHtml(doc.takeback, seat, seatNamer(state), "the cards you were shown go back and the deck is reshuffled") + html;
  if (seat !== null && !state.over) {
    html += '<div class="actions secondary">';
    if (doc.undo_available && !doc.takeback) {
      html += '<button type="button" data-action="undo">Undo my last move</button>';
    }
    html += confirmResign
      ? '<span>Really resign? </span><button type="button" class="danger" data-action="resign-yes">Yes, resign</button><button type="button" data-action="resign-no">No</button>'
      : '<button type="button" class="danger" data-action="resign">Resign…</button>';
    html += "</div>";
  }
  panel.innerHTML = html;
}

/* --- clicks -------------------------------------------------------------------------- */

function onCard(cardId) {
  const state = doc.state;
  if (busy || state.over) return;
  if (butcher) {
    const o = optionsFor("use_butcher")[0];
    if (!o || !o.choices.cards.from.includes(cardId)) return;
    if (butcher.has(cardId)) butcher.delete(cardId); else butcher.add(cardId);
    draw();
    return;
  }
  if (!shortTempered(state) && (state.window || state.turn_seat !== me())) return;
  const play = optionsFor("play", cardId)[0];
  const discard = optionsFor("discard", cardId)[0];
  if (!play && !discard) return;
  selection = { option: play || discard, picked: [] };
  draw();
}

function onAction(action, el) {
  switch (action) {
    case "confirm":
      if (selection.option.command === "discard") return command({ type: "play", card: selection.option.card, discard: true });
      return command(buildCommand(selection.option, selection.picked));
    case "discard":
      return command({ type: "play", card: el.dataset.card, discard: true });
    case "restart":
      selection.picked = [];
      return draw();
    case "cancel":
      selection = null;
      butcher = null;
      return draw();
    case "counter": {
      const o = optionsFor("counter", el.dataset.card)[0];
      if (!o) return;
      if (nextStep(o, [])) { selection = { option: o, picked: [] }; return draw(); }
      return command(buildCommand(o, []));
    }
    case "pass": {
      const o = optionsFor("pass")[0];
      return o && command({ type: "pass", window: o.window });
    }
    case "undo":
      return send("/undo");
    case "takeback-accept":
      return send(`/takeback/${el.dataset.id}`, { accept: true });
    case "takeback-decline":
      return send(`/takeback/${el.dataset.id}`, { accept: false });
    case "draw":
      return command({ type: "draw", source: el.dataset.source });
    case "butcher":
      butcher = new Set();
      selection = null;
      return draw();
    case "butcher-cancel":
      butcher = null;
      return draw();
    case "butcher-confirm":
      return command({ type: "use_butcher", cards: [...butcher] });
    case "end-turn":
      return command({ type: "end_turn" });
    case "unforgiving-none": {
      const o = optionsFor("unforgiving")[0];
      return o && command({ type: "unforgiving", window: o.window, mobster: null });
    }
    case "resign":
      confirmResign = true;
      return draw();
    case "resign-no":
      confirmResign = false;
      return draw();
    case "resign-yes":
      return send("/resign");
    default:
      return undefined;
  }
}

document.addEventListener("click", (ev) => {
  const t = ev.target;
  const action = t.closest("[data-action]");
  if (action && !action.disabled) { onAction(action.dataset.action, action); return; }
  const choice = t.closest("[data-pick]");
  if (choice) { pick(choice.dataset.pick); return; }
  const mob = t.closest(".mob.selectable");
  if (mob) { pick(mob.dataset.mobster); return; }
  const player = t.closest(".player.selectable");
  if (player) { pick(player.dataset.seat); return; }
  const card = t.closest("#hand .card");
  if (card) onCard(card.dataset.card);
});

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && selection) { selection = null; draw(); }
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList.contains("selectable")) {
    ev.preventDefault();
    ev.target.click();
  }
});

/* The log has events the state does not include yet. */
function behind() {
  return Boolean(doc && lastSeq > doc.version);
}

async function main() {
  const tick = () => tickCountdowns(clockOffset);
  if (!(await openTable({ gameId: GAME, info: tableInfo, tick, loadState, loadLog, behind }))) return;
  draw(); // with the events: the last move on the board
  if (typeof loadStanding === "function") loadStanding();
  follow();
}

main();
