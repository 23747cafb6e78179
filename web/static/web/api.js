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
