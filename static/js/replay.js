/* Replay page: arrow keys step through the game (the buttons do the htmx requests), and the
   current move is marked and stays in sight in the move list. No state here: the URL holds the
   step. */
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
    if (link.getAttribute("aria-disabled") === "true") return;
    // A key pressed just after a step's answer is swapped in, before htmx has settled it,
    // found a plain link: the whole page loaded again. Processing it now is what settling does.
    if (window.htmx) window.htmx.process(link);
    link.click();
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
  /* The analysis's best move at this step (data-best-seat / data-best-pos): outline that card. */
  function showBest() {
    var body = document.getElementById("replay-body");
    var seat = body && body.getAttribute("data-best-seat");
    if (seat === null || seat === undefined) return;
    var cell = body.querySelector('.cell[data-seat="' + seat + '"][data-pos="' + body.getAttribute("data-best-pos") + '"]');
    if (cell) cell.classList.add("is-best");
  }
  /* A step's answer leaves the move list in place (the server sends it only with the page):
     the step shown moves its highlight here. */
  function markCurrent() {
    var body = document.getElementById("replay-body"), list = document.getElementById("moves");
    if (!body || !list) return;
    list.querySelectorAll(".move.is-current").forEach(function (item) {
      item.classList.remove("is-current");
      var link = item.querySelector("a");
      if (link) link.removeAttribute("aria-current");
    });
    var item = list.querySelector('.move[value="' + body.getAttribute("data-step") + '"]');
    if (!item) return;
    item.classList.add("is-current");
    var link = item.querySelector("a");
    if (link) link.setAttribute("aria-current", "step");
  }
  function settle() { markCurrent(); showCurrent(); showBest(); }
  document.addEventListener("DOMContentLoaded", settle);
  document.addEventListener("htmx:afterSettle", settle);
})();
