/* The one way the pages talk to the server: JSON over /api/v1/ with the session cookie.
   Unsafe methods carry the CSRF token (from the csrftoken cookie) as X-CSRFToken. */
"use strict";

const API = "/api/v1";

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return "";
}

function newKey() {
  if (window.crypto && crypto.randomUUID) {
    try { return crypto.randomUUID(); } catch (e) { /* not a secure context */ }
  }
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `The server answered ${status}.`);
    this.status = status;
    this.code = (body && body.code) || "error";
    this.extra = (body && body.extra) || {};
  }
  /* The message, plus the first field error when the API names fields. */
  describe() {
    const fields = this.extra && this.extra.fields;
    if (fields) {
      const parts = Object.entries(fields).map(([k, v]) => `${k}: ${[].concat(v).join(" ")}`);
      if (parts.length) return `${this.message} (${parts.join("; ")})`;
    }
    return this.message;
  }
}

async function api(method, path, body, options = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    headers["X-CSRFToken"] = cookie("csrftoken");
    headers["Content-Type"] = "application/json";
  }
  if (options.idempotent) headers["Idempotency-Key"] = newKey();
  let response;
  try {
    response = await fetch(API + path, {
      method,
      headers,
      credentials: "same-origin",
      body: method === "GET" || body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, { code: "network", message: "The server cannot be reached. Retrying…" });
  }
  let data = null;
  if (response.status !== 204) {
    try { data = await response.json(); } catch (e) { data = null; }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/* Replaces `el`'s content with `html`, keeping what the player picked in its menus: a
   feed update re-renders the panel, and a menu reset under the pointer sends a choice the
   player never made. A menu keeps its value when the new panel has the same menu (same id, data-field,
   or data-variants and label) with that value among its options. */
function setHtmlKeepingChoices(el, html) {
  const key = (s) => s.id || (s.dataset.field !== undefined ? `f:${s.dataset.field}`
    : s.dataset.variants !== undefined ? `v:${s.dataset.variants}:${s.getAttribute("aria-label")}` : "");
  const picked = new Map();
  for (const s of el.querySelectorAll("select")) if (key(s)) picked.set(key(s), s.value);
  el.innerHTML = html;
  for (const s of el.querySelectorAll("select")) {
    const value = picked.get(key(s));
    if (value !== undefined && [...s.options].some((o) => o.value === value)) s.value = value;
  }
}

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/* A result decided by a tournament director's ruling (the table document's `result`,
   docs/api.md "Rulings"), as a line for a table page: "Decided by a ruling: ...". Empty
   when play decided it. `name(seat)` names a seat. */
function rulingLine(table, name, game) {
  const result = table && table.result;
  if (!result || result.decided_by !== "ruling") return "";
  const winners = table.winners || [];
  const what = result.kind === "void" ? "the game is void"
    : `the win is awarded to ${winners.map((s) => name(s)).join(" and ")}`;
  return ` <span class="badge" data-testid="ruled">Decided by a ruling: ${esc(what)}. <a href="/games/${esc(game)}/replay">See the replay</a></span>`;
}

/* An open takeback request (an undo others must agree to: the game document's
   `takeback`) as this seat sees it: asked to answer, waiting as the asker, or waiting as
   a bystander. `name` names a seat; `detail` says what accepting does in the game. */
function takebackHtml(tb, seat, name, detail = "") {
  const clock = (label) => `<span class="countdown" data-deadline="${tb.deadline_ms}" data-label="${label}"></span>`;
  const asked = tb.responders.filter((s) => !tb.accepted.includes(s)).map((s) => esc(name(s))).join(", ");
  if (tb.responders.includes(seat) && !tb.accepted.includes(seat)) {
    const what = detail ? `: ${detail}` : "";
    return `<div class="takeback" data-testid="takeback"><p class="prompt"><b>${esc(name(tb.seat))}</b> asks to take back their last move${what}. ${clock("left to answer")}</p>` +
      `<div class="actions"><button type="button" class="primary" data-action="takeback-accept" data-id="${esc(tb.id)}">Accept the takeback</button>` +
      `<button type="button" data-action="takeback-decline" data-id="${esc(tb.id)}">Decline</button></div></div>`;
  }
  if (tb.seat === seat) {
    return `<div class="takeback" data-testid="takeback"><p class="muted">You asked ${asked} to let you take back your last move. ${clock("before it expires")}</p></div>`;
  }
  return `<div class="takeback" data-testid="takeback"><p class="muted">${esc(name(tb.seat))} asked to take back their last move; waiting for ${asked}. ${clock("before it expires")}</p></div>`;
}

/* The abandonment rule (docs/rules.md, "Absent players"): who is absent, the claim a
   two-person table offers, and a result decided by abandonment. Every game's page. */
function absenceLine(gameDoc, name, game) {
  const table = gameDoc && gameDoc.table;
  if (!table) return "";
  const result = table.result;
  if (result && result.decided_by === "abandonment") {
    const out = (result.abandoned || []).map((s) => name(s)).join(" and ");
    return ` <span class="badge" data-testid="abandoned">Ended by abandonment: ${esc(out)} ` +
      `timed out ${table.abandon_after} turns in a row and is out.</span>`;
  }
  const absent = gameDoc.absent || [];
  if (!absent.length || table.status !== "started") return "";
  const who = absent.map((s) => name(s)).join(" and ");
  let html = ` <span class="badge" data-testid="absent">${esc(who)} ${absent.length > 1 ? "are" : "is"} ` +
    `absent: ${table.abandon_after} timeouts in a row.</span>`;
  if (gameDoc.claim_available) {
    html += ` <button type="button" class="primary" data-claim="${esc(game)}" data-testid="claim-win">` +
      "Claim the win</button>";
  }
  return html;
}

document.addEventListener("click", async (e) => {
  const button = e.target.closest && e.target.closest("[data-claim]");
  if (!button) return;
  button.disabled = true;
  try {
    await api("POST", `/games/${button.dataset.claim}/claim`);
    showError(null);
  } catch (err) {
    showError(err);
  }
  if (typeof loadState === "function") loadState().catch(() => {});
});

function showError(err) {
  const box = document.getElementById("error");
  if (!box) return;
  if (!err) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = typeof err === "string" ? err : (err.describe ? err.describe() : String(err.message || err));
  box.hidden = false;
}

document.addEventListener("DOMContentLoaded", () => {
  const out = document.getElementById("logout");
  if (out) {
    out.addEventListener("click", async () => {
      try { await api("DELETE", "/auth/session"); } catch (e) { /* signed out already */ }
      window.location.href = "/";
    });
  }
});
