/* Every websocket of the site (htmx ws extension): how long to wait before connecting again.
   docs/protocol.md lists the close codes. The server decides; this script never storms it. */
(function () {
  "use strict";
  var MAX_WAIT = 60000;

  // A dropped connection (1006, 1011, 1012, 1013; the extension reconnects by itself): never at
  // once, half the doubling wait plus a random half, so that clients of a restarted server do
  // not all come back in the same instant.
  function backoff(retries, base) {
    var wait = Math.min(base * Math.pow(2, Math.min(retries, 8)), MAX_WAIT);
    return wait / 2 + Math.random() * wait / 2;
  }
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retries) { return backoff(retries, 1000); };
  }

  // Per socket element: closes for too many frames or sockets in a row (the wait doubles),
  // when it last opened, and connection attempts in a row that never opened.
  var states = new WeakMap();
  function stateOf(el) {
    var s = states.get(el);
    if (!s) { s = { refused: 0, openedAt: 0, failed: 0, open: false }; states.set(el, s); }
    return s;
  }

  function opened(e) {
    var s = stateOf(e.target);
    s.openedAt = Date.now(); s.open = true; s.failed = 0;
  }

  function closed(e) {
    var s = stateOf(e.target);
    var code = e.detail.event ? e.detail.event.code : 0;
    var wrapper = e.detail.socketWrapper;
    if (!s.open) notOpened(s);
    s.open = false;
    if (code === 4429 || code === 4430) {
      // Too many frames, or too many open sockets for this account or address: come back
      // later (5 s, 10 s, 20 s … up to a minute, with jitter), not at once.
      if (s.openedAt && Date.now() - s.openedAt > 30000) s.refused = 0;  // it stayed open a while
      var wait = backoff(s.refused, 5000);
      s.refused += 1;
      setTimeout(function () { if (document.body.contains(e.target)) wrapper.reconnect(); }, wait);
    } else if (code === 4401 || code === 4404) {
      // 4401: logged out, banned or the password changed; 4404: a lobby you may no longer see
      // (removed from a private one). The page itself then shows what happened.
      reloadOnce("skyjo-reloaded-" + code);
    }
  }

  document.addEventListener("htmx:wsOpen", opened);
  document.addEventListener("htmx:wsClose", closed);
  // For a socket whose events stop before the document (the header's turns socket: turns.js).
  window.skyjoSockets = { opened: opened, closed: closed };

  // A handshake the server refuses (HTTP 403: logged out meanwhile, a game or lobby no longer
  // yours to see) looks to the browser like a dropped connection (1006). After the 2nd, 4th,
  // 8th … attempt in a row that never opened, ask for the page itself: if it sends elsewhere
  // (the log-in page) or refuses, reload once so that the page shows why; if it loads, or the
  // network is down, keep trying as before.
  function notOpened(s) {
    s.failed += 1;
    if (s.failed < 2 || (s.failed & (s.failed - 1)) !== 0) return;
    fetch(window.location.href, { redirect: "manual", cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.type === "opaqueredirect" || response.status === 403 || response.status === 404) {
          reloadOnce("skyjo-reloaded-refused");
        }
      })
      .catch(function () {});
  }

  // Once a minute at most: a page that is refused again stays as it is.
  function reloadOnce(key) {
    var last = parseInt(sessionStorage.getItem(key) || "0", 10);
    if (Date.now() - last > 60000) {
      sessionStorage.setItem(key, String(Date.now()));
      setTimeout(function () { window.location.reload(); }, 500);
    }
  }
})();
