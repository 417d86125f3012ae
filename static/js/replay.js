/* Replay page: arrow keys step through the game (the buttons do the htmx requests), and the
   current move stays in sight in the move list. No state here: the URL holds the step. */
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };

  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var link = KEYS[e.key] && document.getElementById(KEYS[e.key]);
    if (!link) return;
    e.preventDefault();
    if (link.getAttribute("aria-disabled") !== "true") link.click();
  });

  function showCurrent() {
    var list = document.getElementById("moves");
    var current = list && list.querySelector(".is-current");
    if (!current) return;
    var box = list.getBoundingClientRect(), item = current.getBoundingClientRect();
    if (item.top < box.top || item.bottom > box.bottom) {
      list.scrollTop += item.top - box.top - (box.height - item.height) / 2;
    }
  }
  document.addEventListener("DOMContentLoaded", showCurrent);
  document.addEventListener("htmx:afterSettle", showCurrent);
})();
