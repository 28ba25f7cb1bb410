// Turn alert (issue 9, flow): when a push makes it this seat's move (the prompt bar or the status
// panel turns data-my-turn="1" and it was not before), a short beep, and, for players who opted in,
// a browser notification while the page is hidden or unfocused. A file, not inline: the CSP
// allows no inline script. The opt-in (#notify-opt-in, in _flow.html) lives in localStorage,
// so a push that re-renders the checkbox never loses it.
(function () {
  "use strict";
  var KEY = "warroom.notify-turn";
  var last = null; // the turn state last seen; null until the page's first look (no beep on load)
  var audio = null;

  function turnElement() {
    return document.getElementById("prompt") || document.getElementById("status");
  }

  function myTurn() {
    var el = turnElement();
    return !!el && el.getAttribute("data-my-turn") === "1";
  }

  function context() {
    var Ctor = window.AudioContext || window.webkitAudioContext;
    if (!Ctor) { return null; }
    if (!audio) { audio = new Ctor(); }
    if (audio.state === "suspended" && audio.resume) { audio.resume(); }
    return audio;
  }

  // browsers start audio only after a gesture: the first click or key at the table unlocks it
  function unlock() {
    try { context(); } catch (e) { /* no audio here: the beep stays silent */ }
    document.removeEventListener("pointerdown", unlock, true);
    document.removeEventListener("keydown", unlock, true);
  }
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);

  function beep() {
    try {
      var ctx = context();
      if (!ctx) { return; }
      var now = ctx.currentTime;
      var tone = ctx.createOscillator();
      var gain = ctx.createGain();
      tone.type = "sine";
      tone.frequency.setValueAtTime(880, now);
      tone.frequency.setValueAtTime(1175, now + 0.12);
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
      tone.connect(gain);
      gain.connect(ctx.destination);
      tone.start(now);
      tone.stop(now + 0.32);
    } catch (e) { /* a page without sound still plays */ }
  }

  function optedIn() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* private mode */ }
  }

  function away() {
    return document.hidden || !document.hasFocus();
  }

  function notify() {
    if (!optedIn() || !away() || !("Notification" in window) || Notification.permission !== "granted") { return; }
    var el = turnElement();
    var title = (el && el.getAttribute("data-notify-title")) || document.title;
    try {
      var note = new Notification(title, { tag: "warroom-turn" });
      note.onclick = function () { window.focus(); note.close(); };
    } catch (e) { /* some browsers allow notifications from a service worker only */ }
  }

  function check() {
    var now = myTurn();
    if (last === false && now) {
      beep();
      notify();
    }
    last = now;
  }

  // the checkbox is re-rendered by pushes: show it where notifications exist, ticked as stored
  function syncToggle() {
    var box = document.getElementById("notify-opt-in");
    if (!box) { return; }
    var label = box.closest("label");
    if (label && "Notification" in window) { label.hidden = false; }
    box.checked = optedIn() && "Notification" in window && Notification.permission === "granted";
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box || box.id !== "notify-opt-in") { return; }
    if (!box.checked) { remember(false); return; }
    if (!("Notification" in window)) { box.checked = false; return; }
    Notification.requestPermission().then(function (answer) {
      remember(answer === "granted");
      syncToggle();
    });
  });

  function refresh() {
    check();
    syncToggle();
  }

  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, refresh);
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", refresh);
  } else {
    refresh();
  }

  window.warroomTurnAlert = { check: check, beep: beep }; // for the browser test's eyes only
})();
