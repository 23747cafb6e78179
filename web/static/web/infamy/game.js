/* Infamy's table page: the waiting room before the start (page.js), then the live game.

   State: GET /games/{id} (the viewer's projection, with `legal`: every legal form of each
   command). Updates: long-poll GET /games/{id}/events?after=N&wait=W; new events go to the
   move log and trigger a fresh state read. Moves: POST /games/{id}/commands with an
   Idempotency-Key. The page holds no rules: every control is built from `legal`. */
"use strict";

const GAME = CFG.gameId;
let doc = null; // the last game document
let clockOffset = 0; // server_time - Date.now()
let lastSeq = 0;
let busy = false;
let confirmResign = false;
let feedFailed = false;
let sectorPick = []; // the sealed choice being prepared: [own] or [own, accomplice]
let form = null; // a command being prepared from its variants: {command, variants, chosen, title}
let figure = null; // the figure being placed ("own" | "accomplice")
const log = new MoveLog();

/* --- the waiting room (page.js draws it) --------------------------------------------- */

function tableInfo(table) {
  const o = table.options || {};
  return `Infamy · ${table.mode} table · ${table.size} seats` +
    ` · ${o.sector_seconds || 60} s for the sealed sector choice` +
    (table.turn_seconds ? ` · ${table.turn_seconds} s per move (then ${table.turn_action === "bot" ? "a bot plays" : "the minimal default is played"})` : "") +
    ` · undo ${table.undo === "off" ? "off" : "allowed"}`;
}

/* --- talking to the server ----------------------------------------------------------- */

function me() {
  return doc ? doc.seat : null;
}

async function loadState() {
  const fresh = await api("GET", `/games/${GAME}`);
  if (doc && fresh.version < doc.version) return; // an older read that lost the race
  clockOffset = fresh.server_time - Date.now();
  doc = fresh;
  draw();
}

function useCommandResult(res) {
  if (doc && res.version < doc.version) return;
  clockOffset = res.server_time - Date.now();
  doc = { ...doc, version: res.version, state: res.state, server_time: res.server_time,
    table: res.table || doc.table, undo_available: res.undo_available, turn_deadline: res.turn_deadline,
    takeback: res.takeback };
  draw();
}

/* A takeback request (an undo the next person must agree to) appends no event: while one
   may come (the game waits on me) or one is open, read the game every two seconds. */
setInterval(() => {
  if (!doc || doc.state.over || busy || document.hidden || form) return;
  const seat = me();
  if ((seat !== null && (doc.state.awaiting || []).includes(seat)) || doc.takeback) loadState().catch(() => {});
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
    html += log.item(ev, doc.state);
  }
  if (!html) return events.length > 0;
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
      else if (doc.state.deadline) await loadState(); // a timed step may have closed
      if (feedFailed) { showError(null); feedFailed = false; }
    } catch (err) {
      showError(err);
      feedFailed = true;
      await sleep(2000);
    }
  }
}

function clearPicks() {
  sectorPick = [];
  form = null;
  figure = null;
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  draw();
  try {
    const res = await api("POST", `/games/${GAME}${path}`, body, { idempotent: true });
    clearPicks();
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
      clearPicks();
      try { await loadState(); } catch (e) { /* the feed will catch up */ }
    }
  } finally {
    busy = false;
    draw();
  }
}

/* Every command but the sealed choice carries the version it was chosen at: a move made
   on a stale picture is refused (409) and the page reloads. The sealed choice does not
   depend on the others' commitments, which move the version while a seat chooses. */
function command(cmd) {
  const body = { command: cmd };
  if (cmd.type !== "choose_sector" && cmd.type !== "resign") body.expected_version = doc.version;
  return send("/commands", body);
}

/* --- legal options, and forms built from their variants ------------------------------ */

function option(name) {
  return (doc.state.legal || []).find((o) => o.command === name) || null;
}

/* An option's forms without their `type` (each variant is a whole command; the forms and
   buttons below vary the other fields and add the type back when sending). */
function variants(name) {
  const o = option(name);
  return o ? (o.variants || [{}]).map(({ type, ...rest }) => rest) : [];
}

/* {"figure": "own", "choices": {"deck": "pkd"}} -> {"figure": "own", "choices.deck": "pkd"} */
function flatten(v, prefix = "") {
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (x && typeof x === "object" && !Array.isArray(x)) Object.assign(out, flatten(x, `${prefix}${k}.`));
    else out[prefix + k] = x;
  }
  if (!Object.keys(v).length && prefix) out[prefix.slice(0, -1)] = {};
  return out;
}

function unflatten(flat) {
  const out = {};
  for (const [k, x] of Object.entries(flat)) {
    const parts = k.split(".");
    let at = out;
    for (const p of parts.slice(0, -1)) at = at[p] = at[p] || {};
    const last = parts[parts.length - 1];
    if (x && typeof x === "object" && !Array.isArray(x) && !Object.keys(x).length) at[last] = at[last] || {};
    else at[last] = x;
  }
  return out;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function label(key, value) {
  const state = doc.state;
  const k = key.split(".").pop();
  if (value === null || value === undefined) {
    return { job: "no job", hazard: "no hazard", sabotage: "do not sabotage", rival: "nobody (decline)", space: "none", accomplice: "–" }[k] || "none";
  }
  if (Array.isArray(value)) {
    if (!value.length) return "none";
    return value.map((x) => label(key, x)).join(" + ");
  }
  switch (k) {
    case "sector": case "accomplice": case "from": case "to":
      return sectorName(value);
    case "faction": case "deck": case "decks":
      return factionName(value);
    case "job": case "sabotage": case "jobs":
      return jobName(value);
    case "hazard": case "space":
      return String(value).includes("/") ? spaceName(value) : String(value);
    case "rival": case "seat":
      return seatNamer(state)(value);
    case "choice":
      return value === "infamy" ? "2 Infamy" : value === "rep" ? "1 Reputation" : value;
    case "figure":
      return value === "accomplice" ? "the accomplice" : "your figure";
    case "card":
      return schemeName(value);
    case "cancel":
      return value ? "spend 3 bribes to keep it" : "let it go";
    default:
      return String(value);
  }
}

const KEY_NAMES = {
  figure: "Figure", space: "Space", job: "Job", faction: "Reputation for", "choices.deck": "Draw from",
  "choices.hazard": "Hazard", "choices.sabotage": "Sabotage", "choices.from": "Watchdog from", "choices.to": "to",
  "choices.rival": "Rival", "choices.resource": "Resource", "choices.space": "Space", "choices.jobs": "Jobs",
  "choices.decks": "Decks", "choices.give": "Give back", "choices.take": "Take", choice: "Take", resource: "Resource",
  deck: "Deck", hazard: "Hazard", sector: "Sector", rival: "Rival", card: "Scheme", from: "From", to: "To",
};

/* A form over `vs` (a command's variants): one select per field that still varies among
   the variants matching the fields chosen before it; the rest are fixed. */
function openForm(command, vs, title) {
  form = { command, variants: vs.map((v) => flatten(v)), chosen: {}, title };
}

function formFields() {
  const keys = Object.keys(form.variants[0] || {});
  const fields = [];
  let pool = form.variants;
  for (const k of keys) {
    const values = [];
    for (const v of pool) if (!values.some((x) => same(x, v[k]))) values.push(v[k]);
    let value = form.chosen[k];
    if (value === undefined || !values.some((x) => same(x, value))) value = values[0];
    form.chosen[k] = value;
    fields.push({ key: k, values, value });
    pool = pool.filter((v) => same(v[k], value));
  }
  return { fields, variant: pool[0] };
}

function formHtml() {
  const { fields } = formFields();
  let html = `<div class="picker" data-testid="form"><h3>${esc(form.title)}</h3>`;
  for (const f of fields) {
    if (f.values.length < 2) {
      const named = ["figure", "space", "card"].includes(f.key); // the form's title says it
      if (!named && f.value !== null && !(typeof f.value === "object" && !Array.isArray(f.value))) {
        html += `<div class="small">${esc(KEY_NAMES[f.key] || f.key)}: <b>${esc(label(f.key, f.value))}</b></div>`;
      }
      continue;
    }
    html += `<label class="field">${esc(KEY_NAMES[f.key] || f.key)}
      <select data-field="${esc(f.key)}" data-testid="field-${esc(f.key)}">${f.values.map((v, i) =>
        `<option value="${i}"${same(v, f.value) ? " selected" : ""}>${esc(label(f.key, v))}</option>`).join("")}</select></label>`;
  }
  html += `<div class="actions"><button type="button" class="primary" data-action="form-send" ${busy ? "disabled" : ""}>Confirm</button>
    <button type="button" data-action="cancel">Cancel</button></div></div>`;
  return html;
}

function sendForm() {
  const { variant } = formFields();
  if (!variant) return undefined;
  return command({ type: form.command, ...unflatten(variant) });
}

/* --- what the seat may do now, step by step ------------------------------------------ */

function buttonsHtml(name, vs, words) {
  // the engine's label of each variant (what it gives) as the button's tooltip
  const key = (v) => JSON.stringify({ type: name, ...v });
  return vs.map((v, i) => {
    const tip = variantLabel(name, (x) => JSON.stringify(x) === key(v));
    return `<button type="button" class="primary" data-action="variant" data-command="${esc(name)}" data-index="${i}"${tip ? ` title="${esc(tip)}"` : ""}>${esc(words(v))}</button>`;
  }).join("");
}

function rewardWords(v) {
  if (v.choice === "infamy") return "Take 2 Infamy";
  if (v.choice === "rep") return `1 Reputation with ${factionName(v.faction)}`;
  if (v.resource && v.rival === null) return `Take 1 ${v.resource}`;
  if (v.deck) return `Draw a ${factionName(v.deck)} scheme`;
  if (v.sector) return `Watchdog to ${sectorName(v.sector)}`;
  if (v.rival !== null && v.rival !== undefined) return `Demand 1 ${v.resource} from ${seatNamer(doc.state)(v.rival)}`;
  return "Decline";
}

function auctionHtml(state) {
  const a = state.auction;
  const p = state.players[me()];
  const bids = variants("bid").map((v) => v.total);
  const high = a.high === null ? 0 : a.bids[a.high];
  const own = a.bids[me()];
  let html = `<p class="prompt">Your move in the auction for the <b>${esc(contactName(a.contact))}</b>: ${esc(CONTACTS[a.contact].text)}</p>
    <p class="small">High bid: <b>${high}</b>${a.high === null ? "" : ` (${esc(seatNamer(state)(a.high))})`}. You have ${own} on it and ${p.bribes.available} bribes available; a bid spends 1 bribe as the expense, then raises your total.</p>
    <div class="actions" data-testid="auction-actions">`;
  if (bids.length) {
    html += `<select id="bid-total" data-testid="bid-total" aria-label="Your total">${bids.map((t) => `<option value="${t}">${t}</option>`).join("")}</select>
      <button type="button" class="primary" data-action="bid">Bid</button>`;
  }
  if (option("favor")) html += '<button type="button" data-action="favor">Use a favor (win at once)</button>';
  if (option("pass")) html += '<button type="button" data-action="pass">Pass</button>';
  return html + "</div>";
}

function sectorHtml(state) {
  const mine = state.players[me()];
  const deadline = state.deadline ? `<div class="countdown" data-deadline="${state.deadline}" data-label="until the cards are revealed" data-testid="countdown"></div>` : "";
  if (!option("choose_sector")) {
    if (mine && mine.chosen) {
      const left = (state.awaiting || []).map((s) => esc(seatNamer(state)(s)));
      return `<p>You chose <b data-testid="my-sector">${esc(sectorName(mine.sector))}</b>${mine.accomplice_sector ? ` (accomplice: ${esc(sectorName(mine.accomplice_sector))})` : ""}, sealed: only you see it until every card is revealed.</p>
        <p class="muted">Waiting for ${listWords(left) || "the reveal"}…</p>${deadline}`;
    }
    return `<p class="muted">The others choose their sectors in secret…</p>${deadline}`;
  }
  const acc = state.this_round && state.this_round.accomplice === me();
  const need = acc ? 2 : 1;
  const prompt = sectorPick.length === 0
    ? "Choose your sector card in secret: click a sector on the board (not one with a Watchdog)."
    : acc && sectorPick.length === 1 ? "Now the accomplice's sector (it may be the same)." : "Commit it: nobody sees it until every card is revealed.";
  let html = `<p class="prompt" data-testid="prompt">${esc(prompt)}</p>${deadline}<div class="choices">`;
  const allowed = sectorChoices(state);
  html += [...allowed].map((s) => `<button type="button" class="choice${sectorPick.includes(s) ? " picked" : ""}" data-action="sector" data-sector="${s}">${esc(sectorName(s))}</button>`).join("");
  html += "</div>";
  if (sectorPick.length) html += `<p>Chosen: <b data-testid="chosen-sector">${sectorPick.map(sectorName).map(esc).join(" · accomplice: ")}</b></p>`;
  html += `<div class="actions"><button type="button" class="primary" data-action="commit" ${sectorPick.length === need && !busy ? "" : "disabled"}>Commit (sealed)</button>`;
  if (sectorPick.length) html += '<button type="button" data-action="cancel">Start over</button>';
  return html + "</div>";
}

/* The sectors the next click may pick, from the choose_sector variants. */
function sectorChoices() {
  const vs = variants("choose_sector");
  if (!sectorPick.length) return new Set(vs.map((v) => v.sector));
  if (vs.some((v) => v.accomplice !== null) && sectorPick.length === 1) {
    return new Set(vs.filter((v) => v.sector === sectorPick[0]).map((v) => v.accomplice));
  }
  return new Set();
}

/* The engine's label of the first variant of option `name` matching `pred`. */
function variantLabel(name, pred) {
  const o = option(name);
  if (!o) return "";
  const vs = o.variants || [o.send];
  const i = vs.findIndex((v) => pred(v));
  return i < 0 ? "" : (o.variant_labels || [])[i] || o.label || "";
}

function placeVariants() {
  return variants("place").filter((v) => v.figure === figure);
}

function placeHtml(state) {
  const mine = state.players[me()];
  const figures = [...new Set(variants("place").map((v) => v.figure).concat(variants("forgo").map((v) => v.figure)))];
  if (!figure || !figures.includes(figure)) figure = figures[0] || null;
  let html = "";
  if (figures.length > 1) {
    html += `<div class="actions">Place: ${figures.map((f) => `<button type="button" class="choice${f === figure ? " picked" : ""}" data-action="figure" data-figure="${esc(f)}">${esc(label("figure", f))}</button>`).join("")}</div>`;
  }
  const sector = figure === "accomplice" ? mine.accomplice_sector : mine.sector;
  html += `<p class="prompt" data-testid="prompt">Place ${esc(label("figure", figure))} in ${esc(sectorName(sector))}: click a bright space on the board.</p><div class="actions">`;
  const kinds = [...new Set(placeVariants().map((v) => v.space))];
  for (const kind of kinds) {
    // what the space gives, as the engine labels the option (a job has several forms)
    const words = kind === "job" ? "Do a job…" : variantLabel("place", (v) => v.figure === figure && v.space === kind);
    html += `<button type="button" class="primary" data-action="space" data-space="${esc(kind)}" data-testid="space-${esc(kind)}">${esc(words)}</button>`;
  }
  if (variants("forgo").some((v) => v.figure === figure)) {
    html += '<button type="button" data-action="forgo">Forgo it (Smuggler: 1 resource and 1 scheme)…</button>';
  }
  return html + "</div>";
}

function placeOn(kind) {
  const vs = placeVariants().filter((v) => v.space === kind);
  if (!vs.length) return undefined;
  if (vs.length === 1) return command({ type: "place", ...vs[0] });
  openForm("place", vs, kind === "job" ? "Do a job" : "Place");
  return draw();
}

function schemeHtml(state) {
  const playable = new Set(variants("play_scheme").map((v) => v.card));
  let html = `<p class="prompt">Scheme phase: ${playable.size ? "click a bright scheme in your hand to play it, or pass." : "you hold no scheme you can play now."}</p>`;
  html += '<div class="actions"><button type="button" data-action="pass">Pass (no scheme)</button></div>';
  return html;
}

function stepHtml(state) {
  // A discard awaited: the Informant's (the reward step) or Informer Network's (the scheme
  // step); rules-1 games name these steps discard and scheme_discard.
  if (variants("discard").length) {
    return `<p class="prompt">Discard a scheme: click one in your hand.</p><div class="actions">${buttonsHtml("discard", variants("discard"), (v) => `Discard ${schemeName(v.card)}`)}</div>`;
  }
  switch (state.step) {
    case "auction": return auctionHtml(state);
    case "sector": return sectorHtml(state);
    case "place": return placeHtml(state);
    case "scheme": return schemeHtml(state);
    case "thug_response": {
      const t = state.thug || {};
      return `<p class="prompt">The Thug wants 1 ${esc(t.resource)} from you.</p><div class="actions">${buttonsHtml("thug_response", variants("thug_response"), (v) => label("cancel", v.cancel))}</div>`;
    }
    case "watchdog":
      return `<p class="prompt">You hold the bodyguard marker: move a Watchdog.</p><div class="actions">${buttonsHtml("move_watchdog", variants("move_watchdog"), (v) => `${sectorName(v.from)} → ${sectorName(v.to)}`)}</div>`;
    case "chief_remove":
      return `<p class="prompt">Sector Chief: remove a Watchdog.</p><div class="actions">${buttonsHtml("remove_watchdog", variants("remove_watchdog"), (v) => `From ${sectorName(v.sector)}`)}</div>`;
    case "reward": {
      const vs = variants("reward");
      const c = state.contact_track.filter((x) => x.result !== "pending").pop();
      const head = `<p class="prompt">Your reward from the ${esc(c ? c.name : "contact")}: ${esc(c ? c.text : "")}</p>`;
      const varying = Object.keys(vs[0] || {}).filter((k) => vs.some((v) => !same(v[k], vs[0][k])));
      if (vs.length > 8 || varying.length > 1) {
        if (!form) openForm("reward", vs, `The ${c ? c.name : "contact"}'s reward`);
        return head + formHtml();
      }
      return `${head}<div class="actions">${buttonsHtml("reward", vs, rewardWords)}</div>`;
    }
    default:
      return "";
  }
}

/* --- drawing ------------------------------------------------------------------------- */

function draw() {
  if (!doc) return;
  const state = doc.state;
  const seat = me();
  const root = document.getElementById("game");
  root.hidden = false;
  root.dataset.version = doc.version;
  root.dataset.step = state.step;
  if (!option("choose_sector")) sectorPick = [];
  if (form && !option(form.command)) form = null;
  const ctx = { me: seat };
  if (option("choose_sector")) ctx.sectorPick = { allowed: sectorChoices(), picked: sectorPick };
  if (option("place") || option("forgo")) {
    placeHtml(state); // settles `figure`
    const mine = state.players[seat];
    const sector = figure === "accomplice" ? mine.accomplice_sector : mine.sector;
    ctx.spacePick = new Set(placeVariants().map((v) => `${sector}/${v.space}`));
  }
  renderBoard(state, ctx);
  showOutcome(state, seatNamer(state));
  // a tournament director decided the result (api.js); a ruled game's state reads as over
  document.getElementById("status").insertAdjacentHTML("beforeend", rulingLine(doc.table, seatNamer(state), GAME) + absenceLine(doc, seatNamer(state), GAME));
  drawClock(state);
  drawHand(state);
  drawActions(state);
  document.getElementById("game-details").innerHTML =
    `Game ${esc(GAME.slice(0, 8))} · version ${doc.version} · content ${esc(state.content_version)} · seed hash <code>${esc((state.seed_hash || "").slice(0, 16))}…</code>`;
  document.getElementById("replay-link-slot").innerHTML =
    state.over ? `<a href="/games/${GAME}/replay" data-testid="replay-link">Watch the replay</a>` : "";
  tickCountdowns(clockOffset);
  if (typeof alertsFollow === "function") alertsFollow(doc); // alerts.js: title, tone, notification
}

/* The step's deadline: the sealed step's (the game's own), or the table's move clock. */
function drawClock(state) {
  const el = document.getElementById("turn-clock");
  // the sealed step's countdown sits in the action panel, beside the choice
  const deadline = state.over || state.step === "sector" ? null : state.deadline || doc.turn_deadline;
  if (!deadline) { el.hidden = true; el.removeAttribute("data-deadline"); return; }
  el.hidden = false;
  el.dataset.deadline = deadline;
  el.dataset.label = state.step === "sector" ? "until the sector cards are revealed"
    : (state.awaiting || []).includes(me()) ? "left for your move" : "left for this move";
}

function drawHand(state) {
  const hand = document.getElementById("hand");
  const mine = me() === null ? null : state.players[me()];
  if (!mine) { hand.innerHTML = '<p class="muted">You are watching this game: schemes in hand are secret.</p>'; return; }
  const playable = new Set(variants("play_scheme").map((v) => v.card));
  const discardable = new Set(variants("discard").map((v) => v.card));
  hand.innerHTML = (mine.hand || []).map((c) => {
    const classes = [];
    if (playable.has(c.id) || discardable.has(c.id)) classes.push("clickable", "playable");
    if (form && form.command === "play_scheme" && form.variants[0] && form.variants[0].card === c.id) classes.push("selected");
    return schemeCard(c, { classes });
  }).join("") || '<p class="muted">No schemes in hand.</p>';
}

function drawActions(state) {
  const panel = document.getElementById("action-panel");
  const seat = me();
  let html = "";
  if (seat === null) {
    html = '<p class="muted">You are watching: you hold no seat at this table.</p>';
  } else if (state.over) {
    html = `<p><b>The game is over.</b> <a class="button primary" href="/games/${GAME}/replay">Watch the replay</a> <a class="button" href="/lobby">Back to the lobby</a></p>`;
  } else if (form && state.step !== "reward" && !variants("discard").length) {
    html = formHtml();
  } else if ((state.awaiting || []).includes(seat) || state.step === "sector") {
    html = stepHtml(state);
  } else {
    const who = (state.awaiting || []).map((s) => esc(seatNamer(state)(s)));
    html = `<p class="muted">Waiting for ${listWords(who) || "the game"}…</p>`;
  }
  if (seat !== null && !state.over && doc.takeback) html = takebackHtml(doc.takeback, seat, seatNamer(state)) + html;
  if (seat !== null && !state.over && !state.players[seat].out) {
    html += '<div class="actions secondary">';
    if (doc.undo_available && !doc.takeback) html += '<button type="button" data-action="undo">Undo my last move</button>';
    html += confirmResign
      ? '<span>Really resign? </span><button type="button" class="danger" data-action="resign-yes">Yes, resign</button><button type="button" data-action="resign-no">No</button>'
      : '<button type="button" class="danger" data-action="resign">Resign…</button>';
    html += "</div>";
  }
  setHtmlKeepingChoices(panel, html);
}

/* --- clicks -------------------------------------------------------------------------- */

function pickSector(sector) {
  if (!option("choose_sector") || busy) return;
  if (!sectorChoices().has(sector)) return;
  sectorPick.push(sector);
  draw();
}

function commitSector() {
  const vs = variants("choose_sector");
  const v = vs.find((x) => x.sector === sectorPick[0] && (sectorPick.length === 1 ? x.accomplice === null : x.accomplice === sectorPick[1]));
  if (!v) return undefined;
  const cmd = { type: "choose_sector", sector: v.sector };
  if (v.accomplice !== null) cmd.accomplice = v.accomplice;
  return command(cmd);
}

function onScheme(card) {
  if (busy) return undefined;
  const discard = variants("discard").find((v) => v.card === card);
  if (discard) return command({ type: "discard", card });
  const vs = variants("play_scheme").filter((v) => v.card === card);
  if (!vs.length) return undefined;
  if (vs.length === 1) return command({ type: "play_scheme", ...vs[0] });
  openForm("play_scheme", vs, `Play ${schemeName(card)}`);
  return draw();
}

function onAction(action, el) {
  switch (action) {
    case "bid":
      return command({ type: "bid", total: Number(document.getElementById("bid-total").value) });
    case "favor":
      return command({ type: "favor" });
    case "pass":
      return command({ type: "pass" });
    case "sector":
      return pickSector(Number(el.dataset.sector));
    case "commit":
      return commitSector();
    case "figure":
      figure = el.dataset.figure;
      form = null;
      return draw();
    case "space":
      return placeOn(el.dataset.space);
    case "forgo":
      openForm("forgo", variants("forgo").filter((v) => v.figure === figure), "Forgo the placement");
      return draw();
    case "variant": {
      const v = variants(el.dataset.command)[Number(el.dataset.index)];
      return v && command({ type: el.dataset.command, ...v });
    }
    case "form-send":
      return sendForm();
    case "cancel":
      clearPicks();
      return draw();
    case "undo":
      return send("/undo");
    case "takeback-accept":
      return send(`/takeback/${el.dataset.id}`, { accept: true });
    case "takeback-decline":
      return send(`/takeback/${el.dataset.id}`, { accept: false });
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
  const space = t.closest(".space.selectable");
  if (space) { placeOn(space.dataset.space.split("/")[1]); return; }
  const sector = t.closest(".sector.selectable");
  if (sector) { pickSector(Number(sector.dataset.sector)); return; }
  const card = t.closest("#hand .scheme.clickable");
  if (card) onScheme(card.dataset.card);
});

document.addEventListener("change", (ev) => {
  const field = ev.target.dataset && ev.target.dataset.field;
  if (!field || !form) return;
  const { fields } = formFields();
  const f = fields.find((x) => x.key === field);
  if (!f) return;
  form.chosen[field] = f.values[Number(ev.target.value)];
  draw();
});

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && (form || sectorPick.length)) { clearPicks(); draw(); }
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList && ev.target.classList.contains("selectable")) {
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
  follow();
}

main();
