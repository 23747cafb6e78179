/* Infamy: drawing the board and wording the move log; shared by the game page and the
   replay. Read-only: it turns the API's state view (games/infamy/view.py) and events into
   HTML. Names come from the catalogue the page embeds (games.infamy.view.catalogue). */
"use strict";

const CAT = JSON.parse(document.getElementById("catalogue").textContent);
const CFG = JSON.parse(document.getElementById("config").textContent);

const byId = (list, key) => Object.fromEntries(list.map((x) => [x[key], x]));
const CONTACTS = byId(CAT.contacts, "id");
const JOBS = byId(CAT.jobs, "id");
const SCHEMES = byId(CAT.schemes, "id");
const SECTORS = byId(CAT.board, "sector");
const FACTIONS = Object.keys(CAT.factions);
const RESOURCES = ["weapon", "data", "compound"];
const TOKEN_NAMES = {
  weapon: ["weapon", "weapons"], data: ["data", "data"], compound: ["compound", "compound"],
  henchman: ["henchman", "henchmen"], favor: ["favor", "favors"], infamy: ["Infamy", "Infamy"],
};
const STEP_NAMES = {
  watchdog: "the bodyguard holder moves a Watchdog",
  auction: "auction",
  reward: "a contact's reward",
  discard: "discarding a scheme", // rules 1's name of the Informant's discard (rules 2: reward)
  thug_response: "answering the Thug",
  sector: "sealed sector choice",
  place: "placement",
  scheme: "schemes",
  scheme_discard: "discarding a scheme", // rules 1's name (rules 2: the scheme step)
  chief_remove: "the Sector Chief removes a Watchdog",
};
const PHASES = {
  watchdog: "Contact phase", auction: "Contact phase", reward: "Contact phase", discard: "Contact phase",
  thug_response: "Contact phase", sector: "Sector phase", place: "Sector phase", scheme: "Scheme phase",
  scheme_discard: "Scheme phase", chief_remove: "End of the round",
};

const factionName = (f) => CAT.factions[f] || f;
const contactName = (id) => (CONTACTS[id] ? CONTACTS[id].name : id);
const jobName = (id) => (JOBS[id] ? JOBS[id].name : id);
const schemeName = (id) => (SCHEMES[id] ? SCHEMES[id].name : id);
const sectorName = (n) => (SECTORS[n] ? `${n} ${SECTORS[n].name}` : `sector ${n}`);

function plural(n, what) {
  const names = TOKEN_NAMES[what];
  if (!names) return `${n} ${what}`;
  return `${n} ${n === 1 ? names[0] : names[1]}`;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/* "3/supply" -> "the supply space of 3 Refinery". */
function spaceName(space) {
  if (!space) return "nowhere";
  const [sector, kind] = String(space).split("/");
  const s = SECTORS[sector];
  const where = s ? `${sector} ${s.name}` : `sector ${sector}`;
  if (kind === "hq") return `the ${s ? factionName(s.hq) : ""} HQ of ${where}`;
  if (kind === "job") return `the job space of ${where}`;
  return `the supply space of ${where}`;
}

/* "Gained" and "Lost" name a token kind, "infamy" or "rep.<faction>". */
function whatName(what, n) {
  if (what.startsWith("rep.")) return `${n} Reputation with ${factionName(what.slice(4))}`;
  return plural(n, what);
}

function seatNamer(state) {
  return (seat) => {
    const p = state && state.players ? state.players[seat] : null;
    return p ? p.name : `Seat ${seat + 1}`;
  };
}

/* A seat's colour swatch (the accomplice is black, I-1.3). */
function swatch(colour, title = "") {
  return `<span class="swatch col-${esc(colour)}"${title ? ` title="${esc(title)}"` : ""}></span>`;
}

function seatChip(state, seat) {
  const p = state.players[seat];
  if (!p) return esc(`Seat ${seat + 1}`);
  return `<span class="seat-chip">${swatch(p.colour)}${esc(p.name)}</span>`;
}

function reconMark(title = "Stand-in content (docs/rules-infamy.md): no public source prints this card.") {
  return `<sup class="recon" title="${esc(title)}">R</sup>`;
}

function requiresText(req) {
  const parts = Object.entries(req || {}).map(([k, n]) => plural(n, k));
  return parts.length ? parts.join(", ") : "nothing";
}

const REWARD_WORDS = {
  "-": "",
  henchman: "+1 henchman",
  draw: "draw 1 scheme",
  remove_hazard: "remove a hazard",
  sabotage: "may sabotage a job",
  hazard: "place a hazard",
  move_watchdog: "move a Watchdog",
};

function jobCard(job, extra = {}) {
  const j = typeof job === "string" ? JOBS[job] : job;
  if (!j) return "";
  const gains = [];
  if (j.infamy) gains.push(`${j.infamy} Infamy`);
  if (j.rep) gains.push(`${j.rep} Rep (${j.factions.map(factionName).join(" or ")})`);
  const reward = REWARD_WORDS[j.reward] !== undefined ? REWARD_WORDS[j.reward] : j.reward;
  if (reward) gains.push(reward);
  const cls = ["job"].concat(extra.classes || []);
  return `<div class="${cls.join(" ")}" data-job="${esc(j.id)}" title="${esc(`${j.name}: pay ${requiresText(j.requires)}; gain ${gains.join(", ") || "nothing"}. Stand-in job.`)}">
    <div class="job-name">${esc(j.name)}${reconMark()}</div>
    <div class="job-line"><span class="pay">${esc(requiresText(j.requires))}</span> → <b>${esc(gains.join(", ") || "–")}</b></div>
  </div>`;
}

function schemeCard(card, extra = {}) {
  const s = typeof card === "string" ? SCHEMES[card] : card;
  if (!s) return "";
  const cls = ["scheme", `fac-${s.faction}`].concat(extra.classes || []);
  const round = s.round === "any" ? "" : `<span class="badge">${esc(s.round)} only</span>`;
  return `<div class="${cls.join(" ")}" data-card="${esc(s.id)}" title="${esc(`${s.name} (${factionName(s.faction)}): ${s.text} Stand-in scheme.`)}">
    <div class="scheme-name">${esc(s.name)}${reconMark()}</div>
    <div class="scheme-fac">${esc(factionName(s.faction))} ${round}</div>
    <div class="scheme-text">${esc(s.text)}</div>
  </div>`;
}

/* --- the board: six sectors with Watchdogs, hazards, figures and available jobs ------- */

function figureDisc(state, f) {
  const p = state.players[f.seat];
  const colour = f.figure === "accomplice" ? "black" : p ? p.colour : "grey";
  const who = p ? p.name : `Seat ${f.seat + 1}`;
  const label = f.figure === "accomplice" ? `${who}'s accomplice` : who;
  return `<span class="figure col-${esc(colour)}" data-testid="figure" data-seat="${f.seat}" data-figure="${esc(f.figure)}" title="${esc(label)}">${esc(who.slice(0, 1).toUpperCase())}</span>`;
}

function sectorTile(state, sector, ctx) {
  const s = SECTORS[sector];
  const dogs = state.watchdogs.filter((w) => w === sector).length;
  const cls = ["sector"];
  if (dogs) cls.push("watched");
  const pickable = ctx.sectorPick && ctx.sectorPick.allowed.has(sector);
  if (pickable) cls.push("selectable");
  if (ctx.sectorPick && ctx.sectorPick.picked.includes(sector)) cls.push("picked");
  const space = (kind) => {
    const id = `${sector}/${kind}`;
    const fig = state.figures.find((f) => f.space === id);
    const hazard = state.hazards.includes(id);
    const spaceCls = ["space", `space-${kind}`];
    if (ctx.spacePick && ctx.spacePick.has(id)) spaceCls.push("selectable");
    let label;
    if (kind === "hq") label = `HQ · ${esc(factionName(s.hq))}`;
    else if (kind === "supply") label = s.supply === "special" ? "Supply · Day: recover 3 bribes, Night: 1 Infamy" : `Supply · 1 ${esc(s.supply)}`;
    else label = "Job";
    const role = spaceCls.includes("selectable") ? ' role="button" tabindex="0"' : "";
    return `<div class="${spaceCls.join(" ")}" data-space="${id}"${role}>
      <span class="space-label">${label}</span>
      ${hazard ? '<span class="hazard" data-testid="hazard" title="A hazard: no figure can be placed here">hazard</span>' : ""}
      ${fig ? figureDisc(state, fig) : ""}</div>`;
  };
  const jobs = state.jobs.filter((j) => j.sector === sector);
  const chosen = (state.players || []).filter((p) => p.sector === sector || p.accomplice_sector === sector);
  const role = pickable ? ' role="button" tabindex="0"' : "";
  return `<div class="${cls.join(" ")}" data-sector="${sector}" data-testid="sector"${role}>
    <div class="sector-head"><b>${sector}</b> ${esc(s.name)}${reconMark("Stand-in board: no public source gives the supply spaces.")}
      ${dogs ? `<span class="watchdog" data-testid="watchdog" title="A Watchdog: this sector's card cannot be chosen">Watchdog${dogs > 1 ? " ×2" : ""}</span>` : ""}</div>
    ${space("job")}${space("hq")}${space("supply")}
    ${jobs.length ? `<div class="sector-jobs">${jobs.map((j) => jobCard(j)).join("")}</div>` : ""}
    ${chosen.length ? `<div class="small muted chosen-by">Chosen by ${chosen.map((p) => esc(p.name) + (p.accomplice_sector === sector && p.sector !== sector ? " (accomplice)" : "")).join(", ")}</div>` : ""}
  </div>`;
}

/* --- the contact track with the running auction ------------------------------------- */

function trackHtml(state) {
  const a = state.auction;
  const name = seatNamer(state);
  if (!state.contact_track.length) return '<p class="muted">No contacts revealed yet.</p>';
  return state.contact_track.map((c) => {
    const cls = ["contact"];
    let status = "";
    if (a && a.position === c.position) {
      cls.push("current");
      const bids = state.players.map((p) => {
        const n = a.bids[p.seat] || 0;
        const high = a.high === p.seat;
        const passed = a.passes.includes(p.seat);
        return `<li class="${high ? "high" : ""}${passed ? " passed" : ""}" data-testid="bid" data-seat="${p.seat}">${swatch(p.colour)}${esc(p.name)}: <b>${n}</b>${high ? " (high)" : ""}${passed ? " · passed" : ""}</li>`;
      }).join("");
      status = `<div class="auction" data-testid="auction"><b>Auction running</b><ul class="bids">${bids}</ul></div>`;
    } else if (c.result === "won") {
      cls.push("won");
      status = `<div class="small">Won by ${seatChip(state, c.winner)}</div>`;
    } else if (c.result === "unclaimed") {
      cls.push("unclaimed");
      status = '<div class="small muted">Unclaimed</div>';
    } else {
      status = '<div class="small muted">Auction to come</div>';
    }
    const facs = c.factions.length ? ` <span class="small muted">${esc(c.factions.map(factionName).join(", "))}</span>` : "";
    return `<li class="${cls.join(" ")}" data-contact="${esc(c.id)}" data-testid="contact">
      <div><span class="pos">${c.position + 1}</span> <b>${esc(c.name)}</b>${facs}</div>
      <div class="small contact-text">${esc(c.text)}</div>${status}</li>`;
  }).join("") + (name ? "" : "");
}

/* --- the players: resources, bribes, Reputation tracks, Infamy, schemes (count) ------- */

function repTrack(p, faction) {
  const n = p.reputation[faction] || 0;
  const pips = [1, 2, 3, 4, 5].map((i) => `<span class="pip${i <= n ? " on" : ""}"></span>`).join("");
  const perks = (CAT.perks[faction] || []).filter((k) => k.level <= n).map((k) => k.name);
  return `<div class="rep fac-${faction}" title="${esc(`${factionName(faction)}: ${n} Reputation${perks.length ? `; perks: ${perks.join(", ")}` : ""}`)}">
    <span class="rep-name">${esc(factionName(faction).split(" ")[0])}</span>${pips}<span class="rep-n" data-testid="rep-${faction}">${n}</span></div>`;
}

function playerCard(state, p, ctx) {
  const awaiting = new Set(state.awaiting || []);
  const winners = new Set(state.winners || []);
  const badges = [];
  if (ctx.me === p.seat) badges.push('<span class="badge you">you</span>');
  if (!state.over && state.bodyguard === p.seat) badges.push('<span class="badge bodyguard" title="Holds the bodyguard marker: opens each auction">bodyguard</span>');
  if (!state.over && awaiting.has(p.seat)) badges.push(`<span class="badge turn">${state.step === "sector" ? "choosing" : "to act"}</span>`);
  if (state.step === "sector" && p.chosen) badges.push('<span class="badge sealed" data-testid="chosen">chosen</span>');
  if (p.resigned) badges.push('<span class="badge out">resigned</span>');
  else if (p.out) badges.push('<span class="badge out">out</span>');
  if (state.over && winners.has(p.seat)) badges.push('<span class="badge win">winner</span>');
  const cls = ["player", `col-border-${p.colour}`];
  if (awaiting.has(p.seat) && !state.over) cls.push("current");
  if (p.out) cls.push("is-out");
  const r = p.resources;
  const b = p.bribes;
  let committed = "";
  if (p.sector) {
    committed = `<div class="small">Sector: <b data-testid="committed">${esc(sectorName(p.sector))}</b>${p.accomplice_sector ? ` · accomplice: <b>${esc(sectorName(p.accomplice_sector))}</b>` : ""}${state.step === "sector" && !state.over ? ' <span class="muted">(sealed: only you see it)</span>' : ""}</div>`;
  }
  const jobs = p.jobs.length
    ? `<span title="${esc(p.jobs.map((j) => j.name).join(", "))}">${p.jobs.length} job${p.jobs.length === 1 ? "" : "s"} done</span>`
    : "no job done";
  let hand = `<span data-testid="hand-size">${p.hand_size}</span> scheme${p.hand_size === 1 ? "" : "s"} in hand`;
  if (p.hand && p.hand.length && ctx.showHands) {
    hand += `<div class="small-hand">${p.hand.map((c) => schemeCard(c)).join("")}</div>`;
  }
  return `<div class="${cls.join(" ")}" data-seat="${p.seat}" data-testid="player">
    <div class="player-head">${swatch(p.colour, p.colour)}<b>${esc(p.name)}</b> ${badges.join(" ")}
      <span class="infamy-pts" title="Infamy (15 wins; 16+ beats 5 Reputation)"><b data-testid="infamy">${p.infamy}</b> Infamy</span></div>
    <div class="reps">${FACTIONS.map((f) => repTrack(p, f)).join("")}</div>
    <div class="tokens small">
      <span class="tok tok-weapon" title="weapons">${r.weapon} weapon${r.weapon === 1 ? "" : "s"}</span>
      <span class="tok tok-data" title="data">${r.data} data</span>
      <span class="tok tok-compound" title="compound">${r.compound} compound</span>
      <span class="tok tok-henchman" title="henchmen: each pair scores 1 Infamy by Night">${p.henchmen} hench.</span>
      <span class="tok tok-favor" title="favors: win an auction at once">${p.favors} favor${p.favors === 1 ? "" : "s"}</span>
    </div>
    <div class="small bribes" data-testid="bribes">Bribes: <b>${b.available}</b> available · ${b.spent} spent · ${b.on_contacts} on contacts</div>
    ${committed}
    <div class="small muted">${jobs} · ${hand}</div>
  </div>`;
}

/* What the round's contacts give their winners this round (Accomplice, Sector Chief...). */
function roundHtml(state) {
  const r = state.this_round || {};
  const name = seatNamer(state);
  const parts = [];
  if (r.accomplice !== null && r.accomplice !== undefined) parts.push(`${esc(name(r.accomplice))} controls the accomplice`);
  if (r.sector_chief !== null && r.sector_chief !== undefined) parts.push(`${esc(name(r.sector_chief))}'s figures ignore Watchdogs`);
  if (r.smuggler !== null && r.smuggler !== undefined) parts.push(`${esc(name(r.smuggler))} is the Smuggler${r.smuggler_forgone ? " (placement forgone)" : ""}`);
  if (r.informant !== null && r.informant !== undefined) parts.push(`${esc(name(r.informant))} may play a second scheme`);
  return parts.length ? `<div class="small round-notes">${parts.join(" · ")}</div>` : "";
}

function supplyHtml(state) {
  const s = state.supply;
  return `<div class="counts small">
    <div>Supply: ${s.weapon} weapons · ${s.data} data · ${s.compound} compound · ${s.henchman} henchmen · ${s.favor} favors</div>
    <div>Also in the supply: <b>${state.watchdogs_in_supply}</b> Watchdog${state.watchdogs_in_supply === 1 ? "" : "s"} · <b>${state.hazards_in_supply}</b> hazard${state.hazards_in_supply === 1 ? "" : "s"}</div>
    <div>Decks: jobs <b>${state.job_deck_size}</b> · contacts <b>${state.contact_deck_size}</b> · schemes ${FACTIONS.map((f) => `${esc(factionName(f).split(" ")[0])} <b>${state.scheme_decks[f]}</b>`).join(" · ")}</div>
  </div>`;
}

function renderBoard(state, ctx) {
  document.getElementById("sectors").innerHTML = Object.keys(SECTORS).map((n) => sectorTile(state, Number(n), ctx)).join("");
  document.getElementById("track").innerHTML = trackHtml(state);
  document.getElementById("round-notes").innerHTML = roundHtml(state);
  document.getElementById("players").innerHTML = state.players.map((p) => playerCard(state, p, ctx)).join("");
  document.getElementById("supply").innerHTML = supplyHtml(state);
  document.getElementById("status").innerHTML = statusLine(state, ctx);
}

function statusLine(state, ctx) {
  const name = seatNamer(state);
  if (state.over) {
    const w = state.winners || [];
    const who = w.length ? listWords(w.map((s) => esc(name(s)))) : "nobody";
    const mine = w.includes(ctx.me) ? " You win!" : "";
    // the engine's own words for why (state.outcome), shown in full in the result panel
    if (state.outcome) return `<b>Game over.</b> ${esc(state.outcome.summary)}${mine}`;
    return `<b>Game over.</b> ${w.length > 1 ? "Shared win: " : "Winner: "}${who}.${mine}`;
  }
  const round = `Round ${state.round} · ${state.day ? "Day" : "Night"}`;
  const phase = PHASES[state.step] || "";
  const waiting = state.awaiting || [];
  let what = STEP_NAMES[state.step] || state.step;
  if (state.step === "auction" && state.auction) what = `auction for the ${esc(contactName(state.auction.contact))} (contact ${state.auction.position + 1} of ${state.contact_track.length})`;
  if (state.step === "reward") {
    const c = state.contact_track.filter((x) => x.result !== "pending").pop();
    if (c) what = `the ${esc(c.name)}'s reward`;
  }
  let who;
  if (state.step === "sector") {
    const left = waiting.filter((s) => s !== ctx.me).map((s) => esc(name(s)));
    who = waiting.includes(ctx.me) ? "<b>Choose your sector</b> in secret" : left.length ? `waiting for ${listWords(left)}` : "revealing";
  } else if (waiting.includes(ctx.me)) {
    who = "<b>your move</b>";
  } else {
    who = waiting.length ? `<b>${listWords(waiting.map((s) => esc(name(s))))}</b> to act` : "";
  }
  return `${round} · ${phase}: ${what}${who ? ` · ${who}` : ""}`;
}

/* --- the move log ------------------------------------------------------------------- */

function eventType(ev) {
  if (ev.type === "stream.Undone") return ev.type;
  return (ev.data && ev.data.type) || ev.type.split(".").pop();
}

const CAUSES = {
  c02: "the Arms Dealer", c03: "the Chemist", c04: "the Cloner", c05: "the Fixer", c06: "the Hacker",
  c07: "the Informant", c08: "the Liaison", c09: "the Peddler", c10: "the Saboteur", c11: "the Sector Chief",
  c12: "the Smuggler", c13: "the Thug", supply: "a supply space", hq: "an HQ", job: "a job",
  perk: "a perk", income: "perk income", henchmen: "henchmen", expense: "bidding", bid: "bidding",
  recover: "the Night's recovery", night: "the Night",
};

function causeWords(cause) {
  if (!cause) return "";
  if (CAUSES[cause]) return ` (${CAUSES[cause]})`;
  if (SCHEMES[cause]) return ` (${schemeName(cause)})`;
  if (JOBS[cause]) return ` (${jobName(cause)})`;
  const perk = /^perk:(\w+):(\d)$/.exec(cause);
  if (perk) return ` (a ${factionName(perk[1])} perk)`;
  return "";
}

/* Decisions the system takes only when a seat's time ran out (I-11.4's minimal default). */
const TIMED_OUT = new Set(["SectorChosen", "BidPassed", "FigurePlaced", "WatchdogMoved", "WatchdogRemoved",
  "SchemeDiscarded", "ThugResolved", "SchemeStepEnded"]);

class MoveLog {
  words(ev, state) {
    const d = ev.data || {};
    const name = seatNamer(state);
    switch (eventType(ev)) {
      case "GameStarted":
        return `The game started: ${listWords(d.names.map((n, i) => `${n} (${d.colours[i]})`))}. Content ${d.content_version} (stand-in jobs, schemes, board and perks).`;
      case "JobDeckShuffled":
        return "The job deck was shuffled.";
      case "SchemeDeckShuffled":
        return d.reason === "reshuffle" ? `The ${factionName(d.faction)} discards were shuffled into a new deck.` : `The ${factionName(d.faction)} scheme deck was shuffled.`;
      case "ContactDeckShuffled":
        return "The 13 contacts were shuffled.";
      case "BodyguardAssigned":
        return `${name(d.seat)} holds the bodyguard marker.`;
      case "WatchdogPlaced":
        return `A Watchdog went to ${sectorName(d.sector)}${d.cause === "c11" ? " (the Sector Chief)" : ""}.`;
      case "RoundStarted":
        return `Round ${d.round}: ${d.day ? "Day" : "Night"} of turn ${d.turn}.`;
      case "ContactsRevealed":
        return `Contacts on the track: ${listWords(d.cards.map(contactName))}.`;
      case "StepStarted":
        if (d.step === "sector") return "Everyone chooses a sector card in secret.";
        return ""; // whose move it is shows on the board; the log tells what they did
      case "WatchdogMoved":
        return `A Watchdog moved from ${sectorName(d.from)} to ${sectorName(d.to)}${causeWords(d.cause)}.`;
      case "WatchdogRemoved":
        return `The Watchdog in ${sectorName(d.sector)} went back to the supply${causeWords(d.cause)}.`;
      case "AuctionOpened":
        return `Auction ${d.position + 1}: the ${contactName(d.contact)}.`;
      case "BidPlaced":
        return `${name(d.seat)} bid ${d.total} on the ${contactName(d.contact)} (paying ${d.expense} bribe as the expense).`;
      case "FavorUsed":
        return `${name(d.seat)} used a favor to win the ${contactName(d.contact)} at once.`;
      case "BidPassed":
        return d.auto ? `${name(d.seat)} could not bid and passed.` : `${name(d.seat)} passed.`;
      case "ContactWon":
        return `${name(d.seat)} won the ${contactName(d.contact)}.`;
      case "ContactUnclaimed":
        return `Nobody bid: the ${contactName(d.contact)} is unclaimed.`;
      case "BodyguardPassed":
        return `${name(d.seat)} takes the bodyguard marker.`;
      case "Gained":
        return `${name(d.seat)} gained ${whatName(d.what, d.n)}${causeWords(d.cause)}.`;
      case "Lost":
        return `${name(d.seat)} lost ${whatName(d.what, d.n)}${causeWords(d.cause)}.`;
      case "BribesSpent":
        return `${name(d.seat)} spent ${d.n} bribe${d.n === 1 ? "" : "s"}${causeWords(d.cause)}.`;
      case "BribesRecovered":
        return `${name(d.seat)} recovered ${d.n} bribe${d.n === 1 ? "" : "s"}${causeWords(d.cause)}.`;
      case "BribesRetrieved":
        return "The bribes on the contacts went to their owners' spent areas.";
      case "ResourceStolen":
        return `${name(d.to)} took 1 ${d.what} from ${name(d.from)}${causeWords(d.cause)}.`;
      case "SchemesDrawn": {
        const n = d.cards ? d.cards.length : d.count;
        const which = d.cards ? `: ${listWords(d.cards.map(schemeName))}` : "";
        return `${name(d.seat)} drew ${n} ${factionName(d.faction)} scheme${n === 1 ? "" : "s"}${which}.`;
      }
      case "SchemeDiscarded":
        return `${name(d.seat)} discarded ${schemeName(d.card)}.`;
      case "SchemeStolen":
        return `${name(d.to)} stole a scheme from ${name(d.from)}${d.card ? `: ${schemeName(d.card)}` : ""}.`;
      case "ThugAsked":
        return `The Thug: ${name(d.rival)} must spend 3 bribes or give ${name(d.seat)} 1 ${d.resource}.`;
      case "ThugResolved":
        return d.cancelled ? `${name(d.rival)} paid 3 bribes to keep the ${d.resource}.` : `${name(d.rival)} let the ${d.resource} go.`;
      case "HazardPlaced":
        return `A hazard went on ${spaceName(d.space)}${causeWords(d.cause)}.`;
      case "HazardRemoved":
        return `The hazard on ${spaceName(d.space)} was removed${causeWords(d.cause)}.`;
      case "JobSabotaged":
        return `${jobName(d.job)} was sabotaged (to the bottom of the job deck)${causeWords(d.cause)}.`;
      case "SectorChosen":
        if (d.sector) return `${name(d.seat)} chose ${sectorName(d.sector)}${d.accomplice ? ` (accomplice: ${sectorName(d.accomplice)})` : ""}, sealed.`;
        return `${name(d.seat)} chose a sector card (sealed).`;
      case "SectorsRevealed":
        return `The sector cards were revealed: ${listWords(d.choices.map(([s, a, b]) => `${name(s)} ${sectorName(a)}${b ? ` (accomplice ${sectorName(b)})` : ""}`))}.`;
      case "FigurePlaced":
        return `${name(d.seat)} placed ${d.figure === "accomplice" ? "the accomplice" : "a figure"} on ${spaceName(d.space)}.`;
      case "FigureNotPlaced":
        return `${name(d.seat)}'s ${d.figure === "accomplice" ? "accomplice" : "figure"} could not be placed${d.reason === "watchdog" ? " (a Watchdog arrived)" : d.reason === "resigned" ? "" : " (no legal space)"}.`;
      case "PlacementForgone":
        return `${name(d.seat)} forgoes a placement (the Smuggler).`;
      case "JobCompleted":
        return `${name(d.seat)} completed ${jobName(d.job)}${d.faction ? ` for ${factionName(d.faction)}` : ""}.`;
      case "PerkReached":
        return `${name(d.seat)} reached ${factionName(d.faction)} level ${d.level}.`;
      case "SchemePhaseStarted":
        return "The scheme phase: each may play one scheme.";
      case "SchemePlayed":
        return `${name(d.seat)} played ${schemeName(d.card)}.`;
      case "SchemeStepEnded":
        return d.passed ? `${name(d.seat)} played no (more) scheme.` : "";
      case "HenchmenScored":
        return `${name(d.seat)}'s henchmen scored ${d.i} Infamy.`;
      case "FiguresCleared":
        return "The figures left the board.";
      case "JobsRefilled":
        return d.cards.length ? `New jobs: ${listWords(d.cards.map(jobName))}.` : "No new jobs.";
      case "DayNightFlipped":
        return d.day ? "Day breaks." : "Night falls.";
      case "PlayerResigned": // the abandonment rule's resign says so (docs/rules.md, "Absent players")
        return ev.origin === "abandon" ? `${name(d.seat)} was absent (too many timeouts in a row) and is out.`
          : `${name(d.seat)} resigned.`;
      case "GameEnded":
        if (!d.winners.length) return "The game ended with no winner.";
        return d.winners.length > 1 ? `The game ended in a shared win: ${listWords(d.winners.map(name))}.` : `${name(d.winners[0])} wins the game!`;
      case "stream.Undone":
        return `A move was taken back (events ${d.from_seq} to ${d.to_seq}).`;
      default:
        return eventType(ev);
    }
  }

  item(ev, state) {
    const type = eventType(ev);
    const minor = ["JobDeckShuffled", "SchemeDeckShuffled", "ContactDeckShuffled", "StepStarted", "BribesRetrieved",
      "FiguresCleared", "SchemeStepEnded", "BribesSpent"].includes(type);
    const timeout = ev.actor === "system" && TIMED_OUT.has(type);
    const cls = [minor ? "minor" : "", type === "RoundStarted" ? "turn" : "", timeout ? "timeout" : ""].join(" ").trim();
    let words = this.words(ev, state);
    if (!words) return "";
    if (timeout) words = `Time ran out: ${words.replace(/\.$/, "")} (the system played the default move).`;
    return `<li data-seq="${ev.seq}" class="${cls}" data-type="${esc(type)}"><span class="seq">${ev.seq}</span> ${esc(words)}</li>`;
  }
}

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
    const s = left / 1000;
    const shown = s >= 60 ? `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}` : `${s.toFixed(1)} s`;
    el.textContent = left > 0 ? `${shown} ${el.dataset.label || "left"}` : "Time is up…";
    el.classList.toggle("urgent", left < 5000);
  });
}
