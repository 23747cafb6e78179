/* Scarface 1920's board, drawn from the viewer's view (games/scarface/view.py) and the
   embedded catalogue (names only): the city's districts and tiles, each gang's board and
   thug board, the plan being laid out, the crime track and Eliot Ness, the markets and the
   news. Hidden things are never worked out here: a field the view leaves out (another
   seat's money, hand, jobs) is simply not drawn. Used by the table page and the replay. */
"use strict";

const SF = JSON.parse(document.getElementById("catalogue").textContent);
const GANG_COLOURS = { outfit: "#b33", wolves: "#345", gems: "#1a7f64", northside: "#7a4fb0" };

function sfEsc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function cardName(id) {
  const c = SF.cards[id];
  return c ? c.name : String(id);
}

function cardChip(id, extra = "") {
  const c = SF.cards[id] || {};
  const stats = c.muscle !== undefined ? ` <span class="mi" title="muscle ${c.muscle}, influence ${c.influence}">M${c.muscle} I${c.influence}</span>` : "";
  const tip = c.text || (c.skill ? `skill: ${c.skill}` : c.kind || "");
  return `<span class="card ${sfEsc(c.kind || "")}${extra}" data-card="${sfEsc(id)}" title="${sfEsc(tip)}">${sfEsc(cardName(id))}${stats}</span>`;
}

function gangColour(p) {
  return GANG_COLOURS[p.gang] || "#666";
}

function sfWords(key) {
  const spaced = String(key).replace(/_/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/* Every tile or district id a command names as a target, at any depth (a move's "from" is
   where it starts, not a target; a count per district, {"D7": 1}, names D7). */
function commandTargets(data, out = new Set()) {
  const place = (v) => typeof v === "string" && (SF.tiles[v] || SF.districts[v]);
  if (place(data)) {
    out.add(data);
  } else if (Array.isArray(data)) {
    data.forEach((d) => commandTargets(d, out));
  } else if (data && typeof data === "object") {
    Object.entries(data).forEach(([k, v]) => {
      if (place(k)) out.add(k);
      if (k !== "type" && k !== "from") commandTargets(v, out);
    });
  }
  return out;
}

/* target id -> the choices ([option, variant]) that name it. */
function targetsOf(legal) {
  const map = new Map();
  (legal || []).forEach((o, i) => {
    const forms = o.variants && o.variants.length ? o.variants : [o.send];
    forms.forEach((f, j) => {
      for (const t of commandTargets(f)) {
        if (!map.has(t)) map.set(t, []);
        map.get(t).push([i, j]);
      }
    });
  });
  return map;
}

function nameOfSeat(state, seat, names) {
  if (names) return names(seat);
  const p = (state.players || [])[seat];
  return p ? p.name : `seat ${seat}`;
}

function pieces(state, district, names) {
  const out = [];
  for (const p of state.players || []) {
    const n = (p.thugs || {})[district] || 0;
    const cars = (p.cars || []).filter((c) => c === district).length;
    const trucks = (p.trucks || []).filter((c) => c === district).length;
    if (!n && !cars && !trucks) continue;
    const bits = [n ? `${n} thug${n > 1 ? "s" : ""}` : "", cars ? `${cars} car` : "", trucks ? `${trucks} truck` : ""].filter(Boolean);
    out.push(`<span class="piece" style="border-color:${gangColour(p)}" data-seat="${p.seat}" title="${sfEsc(nameOfSeat(state, p.seat, names))}"><i style="background:${gangColour(p)}"></i>${sfEsc(bits.join(", "))}</span>`);
  }
  return out.join("");
}

function drawMap(state, targets, names) {
  const el = document.getElementById("city");
  if (!el) return;
  const police = new Set(state.police || []);
  el.innerHTML = (state.districts || []).map((d) => {
    const tiles = (state.tiles || []).filter((t) => t.district === d.id).map((t) => {
      const owner = t.owner === null || t.owner === undefined ? null : state.players[t.owner];
      const style = owner ? ` style="border-color:${gangColour(owner)};background:${gangColour(owner)}14"` : "";
      const lit = targets.has(t.id) ? " lit" : "";
      const goods = [t.alcohol ? `${t.alcohol} alcohol` : "", t.gun ? `${t.gun} gun${t.gun > 1 ? "s" : ""}` : ""].filter(Boolean).join(", ");
      const sale = (t.sale || []).map((s) => `${s.n} ${s.good}`).join(" + ");
      const biz = (t.businesses || []).map((b) => `<span class="biz">${sfEsc(sfWords(b))}</span>`).join("") +
        (t.nightclub ? '<span class="biz">Nightclub</span>' : "");
      return `<div class="tile${lit}" data-tile="${sfEsc(t.id)}" data-testid="tile"${style}>
        <div class="tname">${sfEsc(t.name)}</div>
        <div class="small">def ${t.defence} · $${t.money}${sale ? ` · sells ${sfEsc(sale)}` : ""}</div>
        <div class="small">${owner ? `<b style="color:${gangColour(owner)}">${sfEsc(nameOfSeat(state, t.owner, names))}</b>` : '<span class="muted">free</span>'}${goods ? ` · ${sfEsc(goods)}` : ""}</div>
        ${biz ? `<div>${biz}</div>` : ""}
      </div>`;
    }).join("");
    const lit = targets.has(d.id) ? " lit" : "";
    const cop = police.has(d.id) ? '<span class="cop" title="a police car">police</span>' : "";
    return `<div class="district${lit}" data-district="${sfEsc(d.id)}" data-testid="district">
      <h4>${sfEsc(d.name)} <span class="muted small">${sfEsc(d.id)}</span> ${cop}</h4>
      <div class="pieces">${pieces(state, d.id, names)}</div>
      <div class="tiles">${tiles}</div></div>`;
  }).join("");
}

function drawTrack(state, names) {
  const el = document.getElementById("crime");
  if (!el) return;
  const rows = (state.players || []).map((p) =>
    `<li data-seat="${p.seat}"><i class="dot" style="background:${gangColour(p)}"></i>${sfEsc(nameOfSeat(state, p.seat, names))}: crime <b>${p.crime}</b> <span class="zone ${sfEsc(p.zone)}">${sfEsc(p.zone)}</span></li>`).join("");
  const news = state.news ? (SF.news[state.news] || {}).name || state.news : "none yet";
  el.innerHTML = `<div class="ness" data-testid="ness">Eliot Ness: <b>${state.ness}</b> · time <b>${state.time}</b> (extra space ${state.extra_space})</div>
    <ul class="crime-list">${rows}</ul>
    <div class="news" data-testid="news">News: <b>${sfEsc(news)}</b> · seen ${(state.news_seen || []).length} · ${state.news_left} left</div>`;
}

function drawMarkets(state) {
  const el = document.getElementById("markets");
  if (!el) return;
  const m = state.market || {};
  const d = state.decks || {};
  const biz = Object.entries(state.businesses_left || {}).map(([k, v]) => `${sfWords(k)} ${v}`).join(" · ");
  const offered = state.offered ? `<div class="offered">Offered to you: ${state.offered.map((c) => cardChip(c)).join("")}</div>`
    : state.offered_count ? `<div class="muted small">${state.offered_count} card(s) offered to the player on turn</div>` : "";
  el.innerHTML = `<div>Associates, low: ${(m.low || []).map((c) => cardChip(c)).join("") || "–"} <span class="muted small">(${m.low_deck} in deck)</span></div>
    <div>Associates, high: ${(m.high || []).map((c) => cardChip(c)).join("") || "–"} <span class="muted small">(${m.high_deck} in deck)</span></div>
    <div class="small">Dealers: ${d.dealers} in deck · jobs ${d.jobs} · raids ${d.raids} · businesses left: ${sfEsc(biz)}</div>${offered}`;
}

function drawPlan(state) {
  const el = document.getElementById("plan");
  if (!el) return;
  if (state.over) {
    el.innerHTML = '<div>Prohibition has ended: the game is over.</div>';
    return;
  }
  const p = (state.players || [])[state.seat] || {};
  const plan = state.plan || {};
  const used = new Set(plan.skills_used || []);
  el.innerHTML = `<div>${sfEsc(p.name || "")}'s plan: ${(p.plan || []).map((c) => cardChip(c, used.has(c) ? " used" : "")).join("") || '<span class="muted">nothing laid out</span>'}</div>
    <div class="small">Muscle <b>${plan.muscle}</b> · influence <b>${plan.influence}</b> · order ${plan.order_used ? "given" : "not given"} · boss skills used ${plan.boss_uses} · step <b>${sfEsc(state.step || "–")}</b> (turn ${state.turn})</div>`;
}

function gangBoard(state, p, opts) {
  const me = opts.me === p.seat;
  const colour = gangColour(p);
  const thugs = Object.entries(p.thugs || {}).map(([k, v]) => `${sfEsc(SF.districts[k] || sfWords(k))} ${v}`).join(" · ");
  const cols = Object.entries(p.columns || {}).map(([k, v]) => `${sfWords(k)} ${v}`).join(" · ");
  const goods = (p.dealer_goods || []).map((s) => `${cardName(s.dealer)}: ${s.n} ${s.good}`).join(" · ");
  const money = p.money !== undefined ? `<div class="money" data-testid="money">Money <b>$${p.money}</b> <span class="muted small">(hidden from the others)</span></div>` : "";
  const hand = p.hand ? `<div>Hand: ${p.hand.map((c) => cardChip(c)).join("")}</div>` : `<div class="small">Hand ${p.hand_count} · deck ${p.deck_count}</div>`;
  const may = new Set(opts.mayComplete || []);
  const jobs = p.jobs ? `<div data-testid="my-jobs">Jobs: ${p.jobs.map((j) => cardChip(j, may.has(j) ? " ready" : "")).join("") || "none"}</div>` : `<div class="small">Jobs in hand ${p.jobs_count}</div>`;
  return `<div class="gang panel${me ? " mine" : ""}" data-seat="${p.seat}" data-testid="gang" style="border-top:4px solid ${colour}">
    <h4>${sfEsc(nameOfSeat(state, p.seat, opts.names))} ${me ? '<span class="badge you">you</span>' : ""} ${opts.awaiting && opts.awaiting.has(p.seat) ? '<span class="badge turn">to move</span>' : ""}${opts.winners && opts.winners.has(p.seat) ? '<span class="badge win">winner</span>' : ""}${p.ring ? ' <span class="badge">ring</span>' : ""}</h4>
    <div class="small">${sfEsc(p.gang_name)} · boss ${sfEsc(p.boss_name)} (level ${p.level}) · crime ${p.crime} · hand limit ${p.hand_limit} · lawyer ${p.lawyer} · recruiter ${p.recruiter}</div>
    ${money}${hand}${jobs}
    <div class="small">Done: ${(p.done_jobs || []).map((j) => cardChip(j)).join("") || "none"}</div>
    <div class="small">Thug board: ${sfEsc(thugs)}</div>
    <div class="small">Cars ${(p.cars || []).map(sfEsc).join(", ") || "–"} · trucks ${(p.trucks || []).map(sfEsc).join(", ") || "–"}</div>
    <div class="small">Columns: ${sfEsc(cols)}</div>
    ${goods ? `<div class="small">Dealers' goods: ${sfEsc(goods)}</div>` : ""}
    ${(p.rows || []).length ? `<div class="small">Rows: ${p.rows.map((r) => r.map((c) => cardChip(c)).join("")).join(" | ")}</div>` : ""}
    <div class="small muted">Aside: ${(p.aside || []).map(cardName).map(sfEsc).join(", ") || "–"} · discard ${(p.discard || []).length}</div>
  </div>`;
}

function drawGangs(state, opts) {
  const el = document.getElementById("gangs");
  if (!el) return;
  const players = [...(state.players || [])];
  players.sort((a, b) => (b.seat === opts.me) - (a.seat === opts.me)); // mine first
  el.innerHTML = players.map((p) => gangBoard(state, p, opts)).join("");
}

function drawFinal(state, names) {
  const el = document.getElementById("final");
  if (!el) return;
  el.hidden = !state.over;
  if (!state.over) return;
  const rows = (state.players || []).map((p) =>
    `<li>${sfEsc(nameOfSeat(state, p.seat, names))}: cash $${(state.cash || [])[p.seat]} · final income $${(state.final_income || [])[p.seat]}</li>`).join("");
  el.innerHTML = `<h3>Prohibition ends</h3><ul>${rows}</ul>`;
}

/* The whole board; opts: me (a seat or null), names (seat -> name), legal, mayComplete. */
function renderBoard(state, opts = {}) {
  const targets = targetsOf(opts.legal || []);
  opts.awaiting = new Set(state.awaiting || []);
  opts.winners = new Set(state.over ? state.winners || [] : []);
  drawMap(state, targets, opts.names);
  drawTrack(state, opts.names);
  drawMarkets(state);
  drawPlan(state);
  drawGangs(state, opts);
  drawFinal(state, opts.names);
  return targets;
}
