/* Small behaviours of every page, kept out of the HTML so that the Content-Security-Policy
   (skyjo_site/csp.py) can refuse every inline script, style and event handler. */
(function () {
  "use strict";

  // A fragment that says where to go (the lobby's game has started) is followed at once, unless
  // this page is already leaving: the host's own "Start the game" form lands on the game by
  // itself, and a second navigation would load it twice. A form another script handles (the
  // chat's, sent on the socket) does not leave: heard on the window, after the document's
  // listeners have had their say.
  var leaving = false;
  window.addEventListener("submit", function (e) {
    if (!e.defaultPrevented && !(e.target && e.target.hasAttribute("hx-post"))) leaving = true;
  });
  window.addEventListener("pageshow", function () { leaving = false; });
  function followRedirect(root) {
    if (leaving || !root || !root.querySelector) return;
    var target = root.matches && root.matches("[data-redirect]") ? root : root.querySelector("[data-redirect]");
    if (target) window.location.href = target.getAttribute("data-redirect");
  }

  // The game page marks the player's own seat with "(you)" in their language: a CSS custom
  // property read by game.css, set here because an inline style would be refused.
  function markMySeat() {
    var game = document.getElementById("game");
    if (game && game.dataset.you) game.style.setProperty("--you-mark", JSON.stringify(" " + game.dataset.you));
  }

  // The player's time zone, for the dates the server writes (web/timezones.py): the next page
  // shows them in it.
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && /^[A-Za-z0-9_+\/-]+$/.test(zone) && document.cookie.indexOf("skyjo_tz=" + zone) < 0) {
      document.cookie = "skyjo_tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
    }
  } catch (e) { /* no Intl: the site's zone */ }

  // The installable app's service worker (web/pwa): the static shell and the offline page.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () { navigator.serviceWorker.register("/sw.js").catch(function () {}); });
  }

  // A private game watched through its invite link (/games/<id>/...?invite=): the page's htmx
  // requests and its links within that game keep the invite, so that the replay, its steps,
  // the record and the analysis open for the invitee too. The shared board carries no invite.
  var invite = new URLSearchParams(window.location.search).get("invite");
  var gamePath = window.location.pathname.match(/^\/games\/\d+\//);
  if (invite && gamePath) {
    document.addEventListener("htmx:configRequest", function (e) {
      if (e.detail.verb === "get" && e.detail.path.indexOf(gamePath[0]) === 0) {
        e.detail.parameters.invite = invite;
      }
    });
    document.addEventListener("click", function (e) {
      var link = e.target.closest && e.target.closest("a[href]");
      if (!link || link.hasAttribute("hx-get")) return;
      var url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname.indexOf(gamePath[0]) !== 0) return;
      url.searchParams.set("invite", invite);
      link.href = url.pathname + url.search + url.hash;
    }, true);
  }

  document.addEventListener("DOMContentLoaded", function () {
    markMySeat();
    followRedirect(document.body);
  });
  document.addEventListener("htmx:load", function (e) { followRedirect(e.target); });
  // A socket's element is marked once its first frame has arrived (browser tests wait for it).
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    if (e.target && e.target.dataset) e.target.dataset.synced = "1";
  });
  document.addEventListener("click", function (e) {
    if (e.target && e.target.classList && e.target.classList.contains("select-on-click")) e.target.select();
  });
})();
