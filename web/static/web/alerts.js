/* Alerts on every game's table page: what the game waits for from the viewer's seat, said
   in the tab's title, by an optional tone and (the tab hidden) by a browser notification;
   a window's panel is brought into view as it opens.

   Decided from the game document alone (GET /games/{id}: `seat`, the view's `awaiting`,
   `legal`, `over` and `winners`, `window_remaining_ms` and `window_pass`), which every game
   serves, so no game is named here. A page calls alertsFollow(doc) after each redraw; the
   controls are web/_alerts.html's. Nothing is asked of the browser on load: the sound is
   off until switched on (remembered in localStorage), and notifications are asked for only
   by their button. */
"use strict";

const ALERT_SOUND_KEY = "fb.alerts.sound";
const ALERT_NOTIFY_KEY = "fb.alerts.notify";
const ALERT_WORDS = {
  turn: "Your turn",
  window: "Your answer is awaited",
  takeback: "A takeback waits for your answer",
  won: "Game over: you won",
  over: "Game over",
};
const ALERT_MARKS = { turn: "▶", window: "⚠", takeback: "⚠", won: "■", over: "■" };

const alertsState = {
  baseTitle: document.title,
  key: null, // what was last announced ("turn:…", "window:<deadline>", "over")
  started: false, // the first document is read (a state found on load is not news)
  audio: null,
};

function alertStore(key, value) {
  try {
    if (value === undefined) return window.localStorage.getItem(key);
    window.localStorage.setItem(key, value);
  } catch (err) { /* private mode: the choice lasts for this page only */ }
  return null;
}

/* What the document asks of this viewer now: {kind, key} or null. `kind`: "window" (a
   timed window waits for my answer), "takeback" (an undo asks my consent), "turn" (the game waits for my move), "won"/"over"
   (a game I sit at has ended). */
function alertOf(doc) {
  if (!doc || !doc.state || doc.seat === null || doc.seat === undefined) return null;
  const state = doc.state;
  const seat = doc.seat;
  if (state.over) return { kind: (state.winners || []).includes(seat) ? "won" : "over", key: "over" };
  // a takeback request (an undo asked of me) appends no event, but waits on my answer
  const tb = doc.takeback;
  if (tb && tb.state === "open" && (tb.responders || []).includes(seat) && !(tb.accepted || []).includes(seat)) {
    return { kind: "takeback", key: `takeback:${tb.id}` };
  }
  const awaiting = state.awaiting || [];
  if (!awaiting.includes(seat)) return null;
  if (Array.isArray(state.legal) && state.legal.length === 0) return null; // nothing I can do
  const windowOpen = doc.window_remaining_ms !== null && doc.window_remaining_ms !== undefined;
  const pass = doc.window_pass;
  if (windowOpen && pass && pass.origin === "manual") return null; // I answered already
  if (windowOpen) {
    const deadline = doc.server_time + doc.window_remaining_ms; // the window's own deadline
    return { kind: "window", key: `window:${deadline}` };
  }
  return { kind: "turn", key: "turn" };
}

function alertTone() {
  if (alertStore(ALERT_SOUND_KEY) !== "on") return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!alertsState.audio) alertsState.audio = new Ctx();
    const ctx = alertsState.audio;
    if (ctx.state === "suspended") ctx.resume();
    const t = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(660, t);
    osc.frequency.setValueAtTime(880, t + 0.12);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.32);
  } catch (err) { /* no sound: the title still says it */ }
}

function notificationsOn() {
  // granted once is not enough: this browser's button switched them on (for every table)
  return "Notification" in window && Notification.permission === "granted" &&
    alertStore(ALERT_NOTIFY_KEY) === "on";
}

function alertNotify(text) {
  if (!document.hidden || !notificationsOn()) return;
  try {
    const n = new Notification(text, { body: alertsState.baseTitle, tag: `fb-${location.pathname}` });
    n.onclick = () => { window.focus(); n.close(); };
  } catch (err) { /* some browsers allow notifications only from a service worker */ }
}

/* Brings the open window's panel into view (the page marks it data-alert-window). */
function alertShowWindow() {
  const panel = [...document.querySelectorAll("[data-alert-window]")].find((el) => !el.hidden && el.offsetParent !== null);
  if (!panel) return;
  const box = panel.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return; // already in view
  panel.scrollIntoView({ block: "start", behavior: "auto" });
}

function alertsFollow(doc) {
  const now = alertOf(doc);
  document.title = now ? `${ALERT_MARKS[now.kind]} ${ALERT_WORDS[now.kind]} · ${alertsState.baseTitle}` : alertsState.baseTitle;
  document.body.dataset.alert = now ? now.kind : "";
  // the switches are for a seat of a running game: hidden for spectators and once it is over
  const controls = document.getElementById("alert-controls");
  const seated = doc && doc.seat !== null && doc.seat !== undefined;
  if (controls) controls.hidden = !seated || Boolean(doc.state && doc.state.over);
  const key = now ? now.key : null;
  const news = key !== null && key !== alertsState.key;
  const first = !alertsState.started;
  alertsState.started = true;
  alertsState.key = key;
  if (!news) return;
  if (now.kind === "window") alertShowWindow();
  if (first) return; // what the page finds as it opens is not news: the title says it
  alertTone();
  alertNotify(ALERT_WORDS[now.kind]);
}

/* --- the controls (web/_alerts.html) ---------------------------------------------------- */

function drawAlertControls() {
  const sound = document.getElementById("alert-sound");
  if (sound) {
    const on = alertStore(ALERT_SOUND_KEY) === "on";
    sound.setAttribute("aria-pressed", String(on));
    sound.textContent = on ? "Sound on" : "Sound off";
    sound.title = on ? "A short tone when the game waits for you (click to switch off)" : "Play a short tone when the game waits for you";
  }
  const notify = document.getElementById("alert-notify");
  if (notify) {
    const supported = "Notification" in window;
    notify.hidden = !supported;
    if (!supported) return;
    const perm = Notification.permission;
    notify.disabled = perm === "denied";
    notify.dataset.permission = perm;
    notify.setAttribute("aria-pressed", String(notificationsOn()));
    notify.textContent = perm === "denied" ? "Notifications blocked by the browser"
      : notificationsOn() ? "Notifications on" : "Notify me when this tab is hidden";
  }
}

function wireAlertControls() {
  const sound = document.getElementById("alert-sound");
  if (sound) {
    sound.addEventListener("click", () => {
      const on = alertStore(ALERT_SOUND_KEY) !== "on";
      alertStore(ALERT_SOUND_KEY, on ? "on" : "off");
      drawAlertControls();
      if (on) alertTone(); // a click lets the page play sound: a sample of the tone
    });
  }
  const notify = document.getElementById("alert-notify");
  if (notify) {
    notify.addEventListener("click", async () => {
      if (!("Notification" in window)) return;
      if (Notification.permission === "granted") {
        alertStore(ALERT_NOTIFY_KEY, notificationsOn() ? "off" : "on");
      } else {
        const answer = await Notification.requestPermission();
        if (answer === "granted") alertStore(ALERT_NOTIFY_KEY, "on");
      }
      drawAlertControls();
    });
  }
  drawAlertControls();
}

wireAlertControls();
