/* The turn clock's countdowns (a correspondence game's count days): the board's (#turn-clock)
   and, in the sticky controls, the player's own (#my-clock), each counted down to its
   data-deadline (milliseconds since the epoch, server time). The server plays the turn when it
   runs out; this only shows it. #game's data-server-now (the page's render time) corrects this
   browser's clock, so a clock that is off by minutes still counts the right seconds. It is
   compared with the moment the page's first byte arrived, not with when this script ran: a
   page that took seconds to load would otherwise gain those seconds. */
(function () {
  "use strict";
  var LOW = 10;  // seconds left from which the pill turns red
  var offset = 0;  // server time minus this browser's

  function tick() {
    document.querySelectorAll(".pill-clock[data-deadline]").forEach(count);
    oneCountdown();
  }

  // One countdown per seat, the sooner: a seat not connected has its own (when the bot takes
  // over, #presence) beside the turn clock's (#turn-clock, data-seats: the seats it runs for).
  // The turn clock first: its seat's line then only says it is not connected; the line's
  // first: the turn clock goes once every seat it runs for has a sooner line.
  function oneCountdown() {
    var turn = document.getElementById("turn-clock");
    var seats = turn && turn.dataset.seats ? turn.dataset.seats.split(",") : [];
    var ends = turn ? parseInt(turn.dataset.deadline, 10) : NaN;
    var outrun = 0;
    document.querySelectorAll("#presence .presence-line[data-seat]").forEach(function (line) {
      var own = line.querySelector(".presence-clock");
      var timed = seats.indexOf(line.dataset.seat) >= 0;
      var later = timed && own && ends <= parseInt(own.dataset.deadline, 10);
      line.classList.toggle("clock-sooner", Boolean(later));
      if (timed && !later) outrun += 1;
    });
    if (turn) turn.hidden = seats.length > 0 && outrun === seats.length;
  }

  function count(el) {
    var deadline = parseInt(el.dataset.deadline, 10);
    var left = Math.max(0, Math.ceil((deadline - (Date.now() + offset)) / 1000));
    var most = parseInt(el.dataset.seconds, 10);  // a clock never shows more than a whole turn
    if (!isNaN(most)) left = Math.min(left, most);
    var text = format(left);
    var out = el.querySelector(".clock-left");
    if (out && out.textContent !== text) out.textContent = text;
    el.dataset.left = String(left);
    el.classList.toggle("clock-low", left <= LOW);
  }

  // As web.games.rendering.left_text: "m:ss" under an hour, else "5h 07m" or "2d 03h" (a
  // correspondence clock counts days), in the page's language (#game's data-text-days/-hours).
  function two(n) { return String(n).padStart(2, "0"); }
  function fill(form, values) {
    return form.replace(/%\((\w+)\)s/g, function (_all, name) { return values[name]; });
  }
  function format(left) {
    var texts = (document.getElementById("game") || document.body).dataset;
    if (left >= 86400) {
      return fill(texts.textDays || "%(days)sd %(hours)sh",
        {days: Math.floor(left / 86400), hours: two(Math.floor(left % 86400 / 3600))});
    }
    if (left >= 3600) {
      return fill(texts.textHours || "%(hours)sh %(minutes)sm",
        {hours: Math.floor(left / 3600), minutes: two(Math.floor(left % 3600 / 60))});
    }
    return Math.floor(left / 60) + ":" + two(left % 60);
  }

  function pageArrived() {
    var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (nav && nav.responseStart > 0) return performance.timeOrigin + nav.responseStart;
    return Date.now();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var game = document.getElementById("game");
    var now = game ? parseInt(game.dataset.serverNow, 10) : NaN;
    if (!isNaN(now)) offset = now - pageArrived();
    tick();
    setInterval(tick, 250);
  });
  document.addEventListener("htmx:wsAfterMessage", tick);
})();
