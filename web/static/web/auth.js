/* Sign up (POST /auth/register, then a session) and log in (POST /auth/session). */
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("auth-form");
  const box = document.getElementById("auth-error");
  const fail = (msg) => { box.textContent = msg; box.hidden = false; };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    box.hidden = true;
    const username = form.username.value.trim();
    const password = form.password.value;
    const button = form.querySelector("button[type=submit]");
    if (form.dataset.mode === "signup" && password !== form.password2.value) {
      fail("The two passwords differ.");
      return;
    }
    button.disabled = true;
    try {
      if (!cookie("csrftoken")) await api("GET", "/auth/session");
      if (form.dataset.mode === "signup") {
        await api("POST", "/auth/register", { username, password });
      }
      await api("POST", "/auth/session", { username, password });
      window.location.href = form.dataset.next || "/lobby";
    } catch (err) {
      fail(err.describe ? err.describe() : String(err));
      button.disabled = false;
    }
  });
});
