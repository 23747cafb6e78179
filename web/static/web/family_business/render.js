/* Drawing the board and wording the move log; shared by the game page and the replay.
   Everything here is read-only: it turns the API's state view and events into HTML. */
"use strict";

const CAT = JSON.parse(document.getElementById("catalogue").textContent);
const CFG = JSON.parse(document.getElementById("config").textContent);

const mobName = (id) => (CAT.mobsters[id] ? CAT.mobsters[id].name : id);
const mobFamily = (id) => (CAT.mobsters[id] ? CAT.mobsters[id].family : "");
const kindName = (kind) => (CAT.kinds[kind] ? CAT.kinds[kind].name.toUpperCase() : kind);
const cardKind = (card) => CAT.cards[card] || "";

function article(word) {
  return /^[AEIOU]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/* Ends a sentence with one full stop, even after a name that has its own ("Murder Inc."). */
function sentence(text) {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/* Who sits where, for words: "Moran Gang (alice)". */
function seatNamer(state) {
  return (seat) => {
    const p = state && state.players ? state.players[seat] : null;
    if (!p) return `Seat ${seat}`;
    return `${p.family.name} (${p.name})`;
  };
}

function familyOfSeat(state, seat) {
  const p = state.players[seat];
  return p ? p.family.id : "";
}

function mobChip(m, ctx = {}) {
  const id = typeof m === "string" ? m : m.id;
  const fam = mobFamily(id);
  const cls = ["mob", `fam-${fam}`];
  if (ctx.selectable && ctx.selectable.has(id)) cls.push("selectable");
  if (ctx.picked && ctx.picked.includes(id)) cls.push("picked");
  if (ctx.attacked && ctx.attacked.has(id)) cls.push("attacked");
  if (ctx.moved && ctx.moved.has(id)) cls.push("moved");
  const role = cls.includes("selectable") ? ' role="button" tabindex="0"' : "";
  const held = typeof m === "string" ? null : m.ability;
  return `<span class="${cls.join(" ")}" data-mobster="${esc(id)}"${role}>${esc(mobName(id))}${held ? abilityBadge(held) : ""}</span>`;
}

/* Advanced rules: the ability a mobster carries, its text (reconstructed) in the tooltip. */
function abilityTip(card) {
  const text = card.text || (CAT.kinds[card.kind] || {}).text || "";
  return `${card.name.toUpperCase()}: ${text}${card.reconstructed ? " (text reconstructed: the rulebook prints only its clarification)" : ""}`;
}

function abilityBadge(card) {
  return ` <span class="badge ability" data-testid="ability" data-ability="${esc(card.kind)}" title="${esc(abilityTip(card))}">${esc(card.name)}${card.reconstructed ? '<sup class="recon">R</sup>' : ""}</span>`;
}

/* The legend of abilities in play: who holds what, with the text and its reconstructed mark. */
function abilitiesHtml(state) {
  if (!state.advanced) return "";
  const name = seatNamer(state);
  const rows = (state.abilities || []).map((a) => `<li data-testid="ability-row"><b>${esc(a.card.name)}</b>
      on ${esc(a.mobster.name)} <span class="muted">(${esc(name(a.seat))})</span>
      <div class="small">${esc(a.card.text)}${a.card.reconstructed ? ' <span class="recon-mark" title="The rulebook prints only this card\'s clarification; the main text is the project\'s reconstruction.">reconstructed</span>' : ""}</div></li>`);
  return `<h3>Abilities <span class="muted small">(advanced rules)</span></h3>
    <ul class="abilities">${rows.join("") || '<li class="muted">No ability assigned yet.</li>'}</ul>
    <p class="small muted"><sup class="recon">R</sup> texts are reconstructed: the rulebook prints only each card's clarification.</p>`;
}

/* A card: its name, what it does in a few words (on its face: phones have no hover), and,
   when dimmed, why it cannot be played now (extra.why). The full text is the tooltip. */
function cardBox(card, extra = {}) {
  const kind = card.kind || cardKind(card.id);
  const info = CAT.kinds[kind] || { name: kind, category: "", text: "" };
  const cls = ["card", `cat-${info.category}`].concat(extra.classes || []);
  if (extra.why) cls.push("dimmed");
  const recon = info.category === "ability";
  const tip = recon ? abilityTip({ kind, name: info.name, text: info.text, reconstructed: true }) : info.text;
  const title = tip ? ` title="${esc(tip)}"` : "";
  const why = extra.why ? `<div class="card-why" data-testid="card-why">${esc(extra.why)}</div>` : "";
  return `<div class="${cls.join(" ")}" data-card="${esc(card.id)}" data-kind="${esc(kind)}"${title}>
    <div class="card-name">${esc(info.name)}${recon ? '<sup class="recon">R</sup>' : ""}</div>
    <div class="card-text" data-testid="card-text">${esc(info.short || info.text)}</div>${why}
    <div class="card-cat">${esc(info.category)}${recon ? '<span class="card-recon">reconstructed</span>' : ""}</div>
  </div>`;
}

/* Why a card in my hand cannot be played for effect now (it can still be discarded). The
   engine's `legal` options decide what is playable; this only words the usual reasons. */
function whyNot(kind, state) {
  const info = CAT.kinds[kind] || {};
  if (info.category === "counter") return "Only as an answer to an attack";
  if (info.category === "ability" && !state.advanced) return "Advanced rules only";
  if (info.category === "rescue" && !state.hit_list.length) return "Nobody on the Hit List";
  if (kind === "INTRIGUE" && state.hit_list.length < 2) return "Fewer than two on the Hit List";
  return "No allowed target now";
}

/* The last move, from the events: the latest card played (or resignation) not undone, who
   answered it, and every mobster that moved since (listed, rescued, killed, swapped). */
const MOVING = {
  MobsterListed: (d) => [d.mobster],
  MobsterRescued: (d) => [d.mobster],
  MobsterEliminated: (d) => [d.mobster],
  MobsterSubstituted: (d) => [d.listed, d.replacement],
  MobsterReturned: (d) => [d.mobster],
  HitListReordered: (d) => d.order,
};

function lastMove(events) {
  const undone = events.filter((ev) => eventType(ev) === "stream.Undone" && ev.data)
    .map((ev) => [ev.data.from_seq, ev.data.to_seq]);
  const live = events.filter((ev) => eventType(ev) !== "stream.Undone" &&
    !undone.some(([a, b]) => ev.seq >= a && ev.seq <= b));
  let start = -1;
  for (let i = live.length - 1; i >= 0; i--) {
    if (["CardPlayed", "PlayerResigned"].includes(eventType(live[i]))) { start = i; break; }
  }
  if (start < 0) return null;
  const first = live[start];
  const move = { ev: first, seat: first.data.seat, counter: null, moved: new Set(), events: live.slice(start) };
  for (const ev of move.events) {
    const type = eventType(ev);
    if (type === "CounterPlayed") move.counter = ev;
    const moving = MOVING[type];
    if (moving) moving(ev.data || {}).forEach((m) => m && move.moved.add(m));
  }
  return move;
}

/* What the last mover's box on the board says: the card (drawn) and its targets. */
function lastMoveHtml(move, seat, state) {
  if (!move) return "";
  const d = move.ev.data;
  if (eventType(move.ev) === "PlayerResigned") {
    return seat === move.seat ? '<div class="played" data-testid="last-move">Last move: resigned.</div>' : "";
  }
  if (move.counter && move.counter.data.seat === seat) {
    const c = move.counter.data;
    return `<div class="played" data-testid="last-move"><span class="played-label">Answered with</span> ${cardBox({ id: c.card || "", kind: c.kind }, { classes: ["mini"] })}</div>`;
  }
  if (seat !== move.seat) return "";
  const verb = d.discard ? "Discarded" : "Played";
  const on = !d.discard && d.targets && d.targets.length ? ` on ${listWords(d.targets.map((m) => esc(mobName(m))))}` : "";
  const timeout = timedOut(move.ev, "CardPlayed") ? " (time ran out)" : "";
  return `<div class="played" data-testid="last-move"><span class="played-label">${verb}${timeout}</span>
    ${cardBox({ id: d.card || "", kind: d.kind }, { classes: ["mini"] })}<span class="played-on">${on}</span></div>`;
}

/* The board: players, Hit List, Mob War, counts, graveyard, status line. */
function renderBoard(state, ctx) {
  const name = seatNamer(state);
  const move = ctx.events ? lastMove(ctx.events) : null;
  ctx = { ...ctx, moved: move ? move.moved : new Set() };
  // during a reaction window, the mobsters it attacks
  if (state.window && !state.window.decision) ctx.attacked = new Set(state.window.targets.map((m) => m.id));
  const awaiting = new Set(state.awaiting || []);
  const winners = new Set(state.winners || []);
  const players = state.players.map((p) => {
    const badges = [];
    if (ctx.me === p.seat) badges.push('<span class="badge you">you</span>');
    if (!state.over && state.turn_seat === p.seat && !p.out) badges.push('<span class="badge turn">turn</span>');
    if (!state.over && awaiting.has(p.seat) && state.window) badges.push('<span class="badge wait">deciding</span>');
    if (p.resigned) badges.push('<span class="badge out">resigned</span>');
    else if (p.out) badges.push('<span class="badge out">out</span>');
    if (state.over && winners.has(p.seat)) badges.push('<span class="badge win">winner</span>');
    const cls = ["player", `fam-${p.family.id}`];
    if (!state.over && state.turn_seat === p.seat) cls.push("current");
    if (p.out) cls.push("is-out");
    if (ctx.selectablePlayers && ctx.selectablePlayers.has(p.seat)) cls.push("selectable");
    const played = lastMoveHtml(move, p.seat, state);
    if (played) cls.push("last-mover");
    const crew = p.crew.map((m) => mobChip(m, ctx)).join("") || '<span class="muted">nobody</span>';
    let hand = `<span data-testid="hand-size">${p.hand_size}</span> card${p.hand_size === 1 ? "" : "s"} in hand`;
    if (p.hand && (ctx.showHands || ctx.me !== p.seat)) {
      hand += `<div class="hand small-hand">${p.hand.map((c) => cardBox(c)).join("")}</div>`;
    }
    return `<div class="${cls.join(" ")}" data-seat="${p.seat}">
      <div class="player-head"><b>${esc(p.family.name)}</b> <span class="muted">${esc(p.name)}</span> ${badges.join(" ")}</div>
      <div class="crew">${crew}</div>
      <div class="small muted">${p.listed.length} on the Hit List · ${p.in_play} in play · ${hand}</div>
      ${played}
    </div>`;
  });
  document.getElementById("players").innerHTML = players.join("");

  const hit = document.getElementById("hit-list");
  hit.innerHTML = state.hit_list.length
    ? state.hit_list.map((m, i) => `<li class="${i === 0 ? "wall" : ""}">${mobChip(m, ctx)}
        <span class="muted small">${esc(CAT.families[m.family] || "")}</span>
        ${i === 0 ? '<span class="badge wallmark">against the wall</span>' : ""}</li>`).join("")
    : '<li class="muted empty">Nobody is on the Hit List.</li>';

  const war = state.mob_war || { on: false, rate: 0 };
  document.getElementById("mob-war").innerHTML = war.on && !state.over
    ? `<div class="mobwar on" data-testid="mob-war">MOB WAR! Rate ${war.rate}: ${war.rate === 2 ? "the first two" : "the first"} on the list ${war.rate === 2 ? "die" : "dies"} at the start of each turn.</div>`
    : '<div class="mobwar" data-testid="mob-war">No Mob War.</div>';

  document.getElementById("deck-size").textContent = state.deck_size;
  document.getElementById("discard-size").textContent = state.discard.length;
  const top = state.discard[state.discard.length - 1];
  document.getElementById("discard-top").textContent = top ? `top: ${top.name}` : "";
  document.getElementById("graveyard").innerHTML =
    state.graveyard.map((m) => mobChip(m, ctx)).join("") || '<span class="muted">empty</span>';

  document.getElementById("status").innerHTML = statusLine(state, ctx, name);
  const legend = document.getElementById("abilities");
  if (legend) {
    legend.hidden = !state.advanced;
    legend.innerHTML = abilitiesHtml(state);
  }
}

function statusLine(state, ctx, name) {
  if (state.over) {
    const w = state.winners || [];
    const who = w.length ? listWords(w.map(name)) : "nobody";
    const mine = w.includes(ctx.me) ? " You win!" : "";
    // the engine's own words for why (state.outcome), shown in full in the result panel
    if (state.outcome) return `<b>Game over.</b> ${esc(state.outcome.summary)}${mine}`;
    return `<b>Game over.</b> ${w.length > 1 ? "Shared draw: " : "Winner: "}${esc(who)}.${mine}`;
  }
  const turn = `Turn ${state.turn}`;
  if (state.window && state.window.decision) {
    const who = ctx.me === state.window.seat ? "<b>You</b> are" : `<b>${esc(name(state.window.seat))}</b> is`;
    return `${turn} · ${who} deciding (${esc(DECISION_NAMES[state.window.decision] || state.window.decision)}).`;
  }
  if (state.window) {
    return `${turn} · <b>Waiting for reactions</b> to ${esc(name(state.window.seat))}'s ${esc(state.window.card.name)}`;
  }
  if (ctx.me === state.turn_seat) return `${turn} · <b>Your turn</b>: pick a card from your hand to play or discard.`;
  return `${turn} · It is <b>${esc(name(state.turn_seat))}</b>'s turn.`;
}

/* The open reaction window, for everyone. Buttons are added by the game page. */
/* `sealedSeat`: the viewer's own seat when it passed on this window at a table of people
   (a sealed pass: the window's public lists still show the seat as able to answer). */
function windowHtml(state, sealedSeat = null) {
  const w = state.window;
  const name = seatNamer(state);
  if (w.decision) { // an advanced-rules decision of one seat, not a reaction window
    const what = DECISION_NAMES[w.decision] || w.decision;
    const more = w.decision === "draw" && w.count ? ` (${w.count} card${w.count === 1 ? "" : "s"} to draw)` : "";
    const card = w.card ? ` <span class="badge ability" title="${esc(abilityTip(w.card))}">${esc(w.card.name)}<sup class="recon">R</sup></span>` : "";
    return `<h3>Decision: ${esc(what)}${card}</h3><p><b>${esc(name(w.seat))}</b> is deciding${more}.</p>
      <div class="countdown" data-deadline="${w.deadline}" data-label="left to decide" data-testid="countdown"></div>`;
  }
  const attacked = new Set(w.targets.map((m) => m.id));
  const targets = w.targets.length ? ` against ${listWords(w.targets.map((m) => mobChip(m.id, { attacked })))}` : "";
  const answers = (CAT.kinds[w.card.kind] || {}).countered_by || [];
  const eligible = w.eligible.map((s) => {
    const passed = w.passed.includes(s) || s === sealedSeat;
    const how = s === sealedSeat ? " · passed (only you see this)" : passed ? " · passed" : w.waiting_on.includes(s) ? " · may answer" : "";
    return `<li class="${passed ? "passed" : ""}">${esc(name(s))}${how}</li>`;
  }).join("");
  return `<h3>Reaction window</h3>
    <p><b>${esc(name(w.seat))}</b> played <b>${esc(w.card.name)}</b>${targets}.
       It can be answered with ${listWords(answers.map((k) => `<b>${esc(kindName(k))}</b>`))}.</p>
    <div class="countdown" data-deadline="${w.deadline}" data-testid="countdown"></div>
    <ul class="eligible">${eligible}</ul>`;
}

const DECISION_NAMES = {
  draw: "how to draw",
  unforgiving: "UNFORGIVING: who goes on the Hit List",
  short_tempered: "SHORT-TEMPERED: one more attack?",
};

/* "family_business.CardPlayed" -> "CardPlayed"; the store's own "stream.Undone" stays. */
function eventType(ev) {
  if (ev.type === "stream.Undone") return ev.type;
  return (ev.data && ev.data.type) || ev.type.split(".").pop();
}

/* A card the system played for a seat whose turn ran out. The event's `origin` says so
   ("timeout"); a server that does not send it is read by the actor: the system otherwise
   only closes windows, which plays no card. */
function timedOut(ev, type) {
  if (!["CardPlayed", "AbilityAssigned"].includes(type)) return false;
  if (ev.origin !== undefined) return ev.origin === "timeout";
  return ev.actor === "system";
}

/* The move log: one sentence per event, with a little context carried between them. */
class MoveLog {
  constructor() {
    this.card = null; // the card being resolved: {seat, kind}
    this.counter = null; // {seat, kind}
  }

  words(ev, state) {
    const d = ev.data || {};
    const name = seatNamer(state);
    const card = this.card;
    const by = card ? ` with ${article(kindName(card.kind))}` : "";
    switch (eventType(ev)) {
      case "GameStarted":
        return sentence(`The game started: ${listWords(d.names.map((n, i) => `${n} plays ${CAT.families[d.families[i]] || d.families[i]}`))}`);
      case "DeckShuffled":
        if (d.reason === "undo") return "The cards shown went back and the deck was reshuffled from a fresh seed.";
        return d.reason === "reshuffle" ? "The discard pile was shuffled into a new deck." : "The deck was shuffled.";
      case "CardsDealt":
        return `${name(d.seat)} was dealt ${d.cards ? d.cards.length : d.count} cards.`;
      case "TurnStarted":
        this.card = null; this.counter = null;
        return `Turn ${d.turn}: ${name(d.seat)} to play.`;
      case "CardsDrawn": {
        const n = d.cards ? d.cards.length : d.count;
        const which = d.cards ? `: ${listWords(d.cards.map((c) => CAT.kinds[cardKind(c)].name))}` : "";
        return `${name(d.seat)} drew ${n} card${n === 1 ? "" : "s"}${which}.`;
      }
      case "CardPlayed": {
        this.card = { seat: d.seat, kind: d.kind }; this.counter = null;
        if (d.discard) return `${name(d.seat)} discarded ${article(kindName(d.kind))}.`;
        const parts = [];
        if (d.targets && d.targets.length) parts.push(`on ${listWords(d.targets.map(mobName))}`);
        if (d.own) parts.push(`(own: ${mobName(d.own)})`);
        if (d.player !== null && d.player !== undefined) parts.push(`for ${name(d.player)}`);
        return `${name(d.seat)} played ${article(kindName(d.kind))}${parts.length ? " " + parts.join(" ") : ""}.`;
      }
      case "WindowOpened":
        return `${listWords(d.eligible.map(name))} may answer with ${listWords(d.counters.map(kindName))} (${state.reaction_seconds || ""} s).`;
      case "WindowPassed":
        return `${name(d.seat)} passed.`;
      case "CounterPlayed":
        this.counter = { seat: d.seat, kind: d.kind };
        return `${name(d.seat)} countered with ${article(kindName(d.kind))}${d.mobster ? ` naming ${mobName(d.mobster)}` : ""}!`;
      case "WindowClosed":
        return {
          countered: "The card was countered.",
          all_passed: "Everybody passed: the card takes effect.",
          deadline: "Time is up: the card takes effect.",
          withdrawn: "The card was withdrawn.",
          decided: "The decision was made.",
          game_over: "The window closed: the game is over.",
        }[d.reason] || `The window closed (${d.reason}).`;
      case "MobsterListed": {
        const where = d.position === 0 ? " against the wall" : "";
        if (this.counter && this.counter.kind === "MOB_POWER") {
          return `${mobName(d.mobster)} went on the Hit List${where} instead (MOB POWER).`;
        }
        if (card) return `${name(card.seat)} put ${mobName(d.mobster)} on the Hit List${where}${by}.`;
        return `${mobName(d.mobster)} was put on the Hit List${where}.`;
      }
      case "MobsterRescued":
        return `${mobName(d.mobster)} came off the Hit List${by}.`;
      case "MobsterEliminated":
        return {
          mob_war: `${mobName(d.mobster)} was eliminated in the Mob War.`,
          hit: `${card ? name(card.seat) : "Someone"} eliminated ${mobName(d.mobster)} with a HIT.`,
          massacre: `${mobName(d.mobster)} died in the St. Valentine's Day Massacre.`,
          turncoat: `${mobName(d.mobster)} turned coat and left the game.`,
          resign: `${mobName(d.mobster)} left with their family.`,
        }[d.cause] || `${mobName(d.mobster)} was eliminated.`;
      case "HitListReordered":
        return `The Hit List was reordered${by}: ${listWords(d.order.map(mobName))}.`;
      case "MobsterSubstituted":
        return `${mobName(d.replacement)} took the place of ${mobName(d.listed)} on the Hit List${by}.`;
      case "MobsterReturned":
        return `${mobName(d.mobster)} came back from the graveyard${d.position === null ? "" : " onto the Hit List"}.`;
      case "MobWarStarted":
        return `A MOB WAR started (rate ${d.rate}).`;
      case "MobWarRateChanged":
        return `The Mob War is now at rate ${d.rate}.`;
      case "MobWarEnded":
        return d.reason === "truce" ? "A TRUCE ended the Mob War." : "The Mob War ended: the Hit List is empty.";
      case "AbilityAssigned":
        return `${name(d.seat)} gave ${mobName(d.mobster)} the ability ${kindName(d.kind)}.`;
      case "AbilityUsed":
        return `${mobName(d.mobster)}'s ${kindName(d.ability)} ability took effect${d.detail ? ` (${d.detail})` : ""}.`;
      case "DecisionOpened":
        return `${name(d.seat)} must decide: ${DECISION_NAMES[d.decision] || d.decision}.`;
      case "DiscardTaken":
        return `${name(d.seat)} took ${article(kindName(cardKind(d.card)))} from the discard pile.`;
      case "ButcherUsed":
        return `${name(d.seat)} used BUTCHER: discarded ${listWords(d.cards.map((c) => kindName(cardKind(c))))} to draw as many.`;
      case "PlayerResigned": // the abandonment rule's resign says so (docs/rules.md, "Absent players")
        return ev.origin === "abandon" ? `${name(d.seat)} was absent (too many timeouts in a row) and is out.`
          : `${name(d.seat)} resigned.`;
      case "PlayerOut":
        return `${name(d.seat)} is out of the game.`;
      case "GameEnded":
        if (!d.winners.length) return "The game ended with no winner.";
        return d.winners.length > 1
          ? `The game ended in a draw between ${listWords(d.winners.map(name))}.`
          : `${name(d.winners[0])} wins the game!`;
      case "stream.Undone":
        return `A move was taken back (events ${d.from_seq} to ${d.to_seq}).`;
      default:
        return eventType(ev);
    }
  }

  /* An <li> for one event. Minor bookkeeping events are marked so CSS can tone them down. */
  item(ev, state) {
    const type = eventType(ev);
    const minor = ["DeckShuffled", "CardsDealt", "CardsDrawn", "WindowOpened", "DecisionOpened"].includes(type) ||
      (type === "MobsterEliminated" && ev.data && ev.data.cause === "resign");
    const timeout = timedOut(ev, type);
    const cls = [minor ? "minor" : "", type === "TurnStarted" ? "turn" : "", timeout ? "timeout" : ""].join(" ").trim();
    let words = this.words(ev, state);
    if (timeout) words = `Time ran out: ${words.replace(/\.$/, "")} (the system played for them).`;
    // a standing preference answered for this seat (only its own seat is told so): the
    // answer itself, not what followed from it in the same command (the window's close,
    // the next turn, its draw: those are the game's, not made "automatically")
    else if (ev.origin === "standing" && ANSWERS.includes(type)) words = `${words.replace(/[.!]$/, "")} (automatically).`;
    return `<li data-seq="${ev.seq}" class="${cls}"${timeout ? ' data-testid="timeout"' : ""}><span class="seq">${ev.seq}</span> ${esc(words)}</li>`;
  }
}

/* The events that are a seat's own answer to a window (what standing reactions make). */
const ANSWERS = ["CounterPlayed", "WindowPassed"];

/* After an undo: mark the log lines of the events it took back (they stay, struck out). */
function markUndone(list, events) {
  for (const ev of events) {
    if (eventType(ev) !== "stream.Undone" || !ev.data) continue;
    list.querySelectorAll("li[data-seq]").forEach((li) => {
      const seq = Number(li.dataset.seq);
      if (seq >= ev.data.from_seq && seq <= ev.data.to_seq && !li.classList.contains("undone")) {
        li.classList.add("undone");
        li.title = `Taken back by the undo at event ${ev.seq}`;
      }
    });
  }
}

/* A countdown ticks against the server's clock: offset = server_time - local time. */
function tickCountdowns(offset) {
  const now = Date.now() + offset;
  document.querySelectorAll("[data-deadline]").forEach((el) => {
    const left = Math.max(0, Number(el.dataset.deadline) - now);
    el.textContent = left > 0 ? `${(left / 1000).toFixed(1)} s ${el.dataset.label || "left to answer"}` : "Time is up…";
    el.classList.toggle("urgent", left < 3000);
  });
}
