/* Tournament pages: the countdowns ([data-countdown], an ISO moment); the player's own row of
   the standings (#live-panel[data-my-entry], the standings being the same for everyone); and
   the player's own new table (#my-table[data-new="1"], pushed by the socket) opened at once
   when the page is in view; in the background the notice and its link stay, and the title
   says so. */
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("data-countdown")) - now) / 1000));
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }

  function markMine() {
    var panel = document.getElementById("live-panel");
    var id = panel && panel.getAttribute("data-my-entry");
    var row = id && panel.querySelector('tr[data-entry="' + id + '"]');
    if (row) row.classList.add("mine");
  }

  var title = document.title;
  function openTable() {
    var box = document.getElementById("my-table");
    var link = document.getElementById("my-table-link");
    if (!box || !link || box.getAttribute("data-new") !== "1") return;
    if (document.visibilityState === "visible") {
      window.location.assign(link.href);
    } else {
      document.title = "● " + title;
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    markMine();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    tick();  // a pushed countdown shows its time at once
    markMine();
    openTable();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") document.title = title;
  });
})();
