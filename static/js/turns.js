/* The header's 'your turn' count (#turns-link, its socket /ws/turns/: docs/protocol.md) and the
   browser's notifications (Notification API, no Web Push: only while a page of the site is
   open). The turns socket's events stop at #turns-link: the game, chat and socket scripts
   listen on the document for their own page socket and must not take this one for it;
   sockets.js is told of its opening and closing directly. */
(function () {
  "use strict";
  var KEY = "skyjo-notify";  // "1": the player asked for notifications in this browser
  var EVENTS = ["htmx:wsOpen", "htmx:wsClose", "htmx:wsBeforeMessage", "htmx:wsAfterMessage",
    "htmx:wsConnecting", "htmx:wsError"];
  var shown = null;  // the count last shown

  function count() {
    var el = document.getElementById("turns-count");
    var n = el ? parseInt(el.dataset.count, 10) : NaN;
    return isNaN(n) ? 0 : n;
  }

  function supported() { return "Notification" in window; }
  function wanted() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function pushed() {
    var now = count();
    var el = document.getElementById("turns-count");
    if (shown !== null && now > shown && document.visibilityState === "hidden" && el) notify(el);
    shown = now;
  }

  function notify(el) {
    if (!supported() || !wanted() || Notification.permission !== "granted") return;
    var text = el.dataset.notify;
    if (!text) return;
    try {
      var n = new Notification(text, { tag: "skyjo-turn", lang: document.documentElement.lang });
      var url = el.dataset.url;
      n.onclick = function () { window.focus(); if (url) window.location.assign(url); n.close(); };
    } catch (e) { /* a browser that only notifies from a service worker: nothing shown */ }
  }

  function optIn() {
    var box = document.getElementById("notify-opt");
    var button = document.getElementById("notify-me");
    var state = document.getElementById("notify-state");
    if (!box || !button || !supported()) return;
    function say() {
      var on = Notification.permission === "granted" && wanted();
      var denied = Notification.permission === "denied";
      button.hidden = on || denied;
      if (state) state.textContent = on ? button.dataset.textOn : denied ? button.dataset.textDenied : "";
    }
    box.hidden = false;
    say();
    button.addEventListener("click", function () {
      var asked = Notification.requestPermission(function () {});  // old browsers: a callback
      Promise.resolve(asked).then(function () {
        try { window.localStorage.setItem(KEY, Notification.permission === "granted" ? "1" : "0"); } catch (e) {}
        say();
      });
    });
  }

  // A deferred script runs once the page is parsed, before htmx opens the socket (on
  // DOMContentLoaded): its first event already stops here.
  var link = document.getElementById("turns-link");
  if (link) {
    EVENTS.forEach(function (name) {
      link.addEventListener(name, function (e) {
        if (e.target !== link) return;
        e.stopPropagation();
        if (name === "htmx:wsAfterMessage") pushed();
        // Its reconnection follows the rules of every socket (sockets.js: a pause after 4430).
        if (window.skyjoSockets && name === "htmx:wsOpen") window.skyjoSockets.opened(e);
        if (window.skyjoSockets && name === "htmx:wsClose") window.skyjoSockets.closed(e);
      });
    });
  }
  shown = count();
  document.addEventListener("DOMContentLoaded", optIn);
})();
