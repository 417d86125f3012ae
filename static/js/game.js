/* Skyjo game page: sends actions as JSON over the htmx websocket, highlights what may be clicked.
   The server decides everything; this script only turns clicks into protocol frames. */
(function () {
  "use strict";
  var socket = null;
  var current = null;  // the WebSocket behind it: a close of an older one (replaced) is no news
  var offline = false;  // the browser says the network is gone: a frame sent now would be lost
  var rematchAsked = false;
  var mode = null;
  var seenVersion = null;

  function $(id) { return document.getElementById(id); }
  function mySeat() { var g = $("game"); return g ? g.dataset.seat : ""; }
  function version() { var b = $("board"); return b ? parseInt(b.dataset.version, 10) : 0; }
  function legal() {
    var c = $("controls");
    try { return c ? JSON.parse(c.dataset.legal || "[]") : []; } catch (e) { return []; }
  }

  // A frame in flight (its send time): a second tap or key press before the answer (a board or
  // an error) is ignored without a word, so that a double input cannot play a stale move.
  var inFlight = null;
  function send(obj) {
    if (!socket || offline) { flash(text("textOffline", "Not connected: reconnecting…")); return; }
    if (inFlight && Date.now() - inFlight < 10000) return;
    obj.version = version();
    inFlight = Date.now();
    socket.send(JSON.stringify(obj));
  }

  function flash(text) {
    var f = $("flash");
    if (f) { f.textContent = text; f.dataset.shown = "1"; }
  }

  function positions(kind) {
    return legal().filter(function (a) {
      if (kind === "discard") return a.take === "discard";
      if (kind === "swap") return "swap" in a && !("take" in a);
      return kind in a;
    }).map(function (a) { return kind === "discard" ? a.swap : a[kind]; });
  }

  function refresh() {
    var v = version();
    if (v !== seenVersion) { seenVersion = v; mode = null; }
    var acts = legal();
    if (!acts.length) mode = null;
    else if (positions("reveal").length) mode = "reveal";
    else if (positions("swap").length) { if (mode !== "flip") mode = "swap"; }
    else if (mode !== "discard") mode = null;
    var pick = mode ? positions(mode) : [];
    var playable = gameText("textPlayable", "playable");
    document.querySelectorAll(".cell").forEach(function (cell) {
      var ok = cell.dataset.seat === mySeat() && pick.indexOf(parseInt(cell.dataset.pos, 10)) >= 0;
      cell.classList.toggle("pickable", ok);
      // A screen reader hears it too: not by colour alone (the outline's shape shows it).
      if (cell.dataset.label === undefined) cell.dataset.label = cell.getAttribute("aria-label") || "";
      cell.setAttribute("aria-label", ok ? cell.dataset.label + ", " + playable : cell.dataset.label);
    });
    roving();
    document.querySelectorAll("[data-mode]").forEach(function (b) {
      b.classList.toggle("active", b.dataset.mode === mode);
    });
    var discard = $("discard-pile"), deck = $("deck-pile");
    if (discard) discard.classList.toggle("pickable", positions("discard").length > 0);
    if (deck) deck.classList.toggle("pickable", acts.some(function (a) { return a.take === "deck"; }));
    var game = $("game");
    if (game) game.dataset.mode = mode || "";
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest("[data-send], [data-mode], .cell, #discard-pile, #deck-pile");
    if (!t) return;
    if (t.dataset.send) {
      var frame = JSON.parse(t.dataset.send);
      if (frame.rematch) rematchAsked = true;
      send(frame);
      return;
    }
    if (t.dataset.mode) { mode = t.dataset.mode; refresh(); return; }
    if (t.id === "deck-pile") { if (t.classList.contains("pickable")) send({ take: "deck" }); return; }
    if (t.id === "discard-pile") { if (t.classList.contains("pickable")) { mode = "discard"; refresh(); } return; }
    if (!t.classList.contains("pickable")) return;
    var pos = parseInt(t.dataset.pos, 10);
    if (mode === "reveal") send({ reveal: pos });
    else if (mode === "swap") send({ swap: pos });
    else if (mode === "flip") send({ flip: pos });
    else if (mode === "discard") send({ take: "discard", swap: pos });
  });

  // Keyboard: one tab stop per grid (the focused card, else the first playable, else the first);
  // arrow keys move between the cards of a grid; Enter and Space press the card (a button).
  function roving() {
    document.querySelectorAll(".grid").forEach(function (grid) {
      var cells = Array.prototype.slice.call(grid.querySelectorAll(".cell"));
      var stop = cells.filter(function (c) { return c === document.activeElement; })[0] ||
        cells.filter(function (c) { return c.classList.contains("pickable"); })[0] || cells[0];
      cells.forEach(function (c) { c.tabIndex = c === stop ? 0 : -1; });
    });
  }
  var MOVES = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -4, ArrowDown: 4 };
  document.addEventListener("keydown", function (e) {
    var cell = e.target.closest && e.target.closest(".cell");
    if (!cell || e.altKey || e.ctrlKey || e.metaKey) return;
    var pos = parseInt(cell.dataset.pos, 10), to = null;
    if (e.key in MOVES) {
      to = pos + MOVES[e.key];
      if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && Math.floor(to / 4) !== Math.floor(pos / 4)) to = null;
    } else if (e.key === "Home") to = Math.floor(pos / 4) * 4;
    else if (e.key === "End") to = Math.floor(pos / 4) * 4 + 3;
    else return;
    e.preventDefault();
    var next = to !== null && to >= 0 && to < 12 && $("cell-" + cell.dataset.seat + "-" + to);
    if (next) { cell.tabIndex = -1; next.tabIndex = 0; next.focus(); }
  });

  // Every frame replaces #board and #controls: the focused element comes back by its id (cells
  // are "cell-<seat>-<pos>"); a button that is gone (e.g. "Draw a card" once drawn) hands the
  // focus to the first card the player may now pick, else to the first action.
  var focusedId = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var a = document.activeElement;
    focusedId = a && a !== document.body && a.id ? a.id : null;
  });
  function restoreFocus() {
    if (!focusedId) return;
    var a = document.activeElement;
    if (a && a !== document.body && document.body.contains(a)) { focusedId = null; return; }
    var el = $(focusedId) || document.querySelector('.cell.pickable[data-seat="' + mySeat() + '"]') ||
      document.querySelector("#controls button, #controls a");
    focusedId = null;
    if (el) { el.focus(); roving(); }
  }

  // The polite live region (#announce, outside the swapped board) says each new step in words:
  // the newest line of the board's move log, then whose turn it is.
  var announced = null, lastTurn = null;
  function newestLog() {
    var li = document.querySelector("#move-log li");
    return li ? { v: parseInt(li.dataset.logVersion, 10), text: li.textContent.trim() } : null;
  }
  function announce() {
    var entry = newestLog(), live = $("announce"), board = $("board");
    if (!entry || !live || !board || (announced !== null && entry.v <= announced)) return;
    announced = entry.v;
    var turn = "";  // whose turn, when it has changed since the last announcement
    if (board.dataset.current !== lastTurn) {
      lastTurn = board.dataset.current;
      turn = lastTurn !== "" && lastTurn === mySeat()
        ? gameText("textYourTurn", "It is your turn.") : (board.dataset.turn || "");
    }
    // The player's own drawn card is in their controls alone ("You drew 7"): said to them too.
    var drawn = document.querySelector("#controls .drawn");
    var mine = drawn ? " " + drawn.textContent.replace(/\s+/g, " ").trim() + "." : "";
    live.textContent = entry.text + mine + (turn ? " " + turn : "");
  }
  function gameText(name, fallback) {
    var g = $("game");
    return (g && g.dataset[name]) || fallback;
  }

  function text(name, fallback) {  // translated texts ride on #conn's data attributes
    var c = $("conn");
    return (c && c.dataset[name]) || fallback;
  }
  function setConn(state, label) {
    var c = $("conn");
    if (c) { c.dataset.state = state; c.textContent = label; }
  }
  // Catching up (docs/protocol.md): every state frame holds the whole board, so a missed one
  // only matters until the next. The heartbeat tells the saved version; behind it, after a
  // reconnect that brought no state, or back on a hidden tab, ask for {"sync": true}. Never
  // more than one pending, waiting longer each time one did not help (up to 30 s).
  var sync = { timer: null, need: 0, wait: 0 };
  function wantSync(need, delay) {
    sync.need = Math.max(sync.need, need);
    if (sync.timer) return;
    sync.timer = setTimeout(function () {
      sync.timer = null;
      if (!socket) return;
      socket.send(JSON.stringify({ sync: true }));
      sync.wait = Math.min(Math.max(sync.wait * 2, 1000), 30000);
    }, Math.max(delay, sync.wait));
  }
  function gotState() {
    if (version() < sync.need) return;
    clearTimeout(sync.timer);
    sync.timer = null;
    sync.need = 0;
    sync.wait = 0;
  }
  function heartbeat() {
    var h = $("heartbeat");
    var saved = h ? parseInt(h.dataset.version, 10) : NaN;
    if (saved > version()) wantSync(saved, 0);
  }

  // The watchdog below: when the server last spoke, and how many heartbeats of silence it waits.
  var heard = Date.now(), patience = 4;
  var wasOpen = false, wrapper = null;
  document.addEventListener("htmx:wsOpen", function (e) {
    socket = wrapper = e.detail.socketWrapper;
    current = e.detail.event ? e.detail.event.target : null;
    heard = Date.now();
    // A new socket starts from "everyone is here": its server says who is not, if anyone.
    var presence = $("presence");
    if (presence) presence.textContent = "";
    if (offline) return;  // the network is gone again: "online" connects anew
    setConn("open", text("textOpen", "connected"));
    if (wasOpen) wantSync(0, 3000);  // the server's first frame is the state: this is a fallback
    wasOpen = true;
  });
  document.addEventListener("htmx:wsClose", function (e) {
    if (current && e.detail.event && e.detail.event.target !== current) return;
    socket = null;
    current = null;
    inFlight = null;
    setConn("closed", text(offline ? "textOffline" : "textClosed", "reconnecting…"));
  });
  // A lost network (Wi-Fi off, a tunnel) may leave the socket open in the browser's eyes: no
  // frame goes through, yet nothing closes it. The page says so at once and sends nothing; back
  // online, it connects anew, and the server's first frame is the whole state.
  window.addEventListener("offline", function () {
    offline = true;
    setConn("closed", text("textOffline", "Not connected: reconnecting…"));
  });
  window.addEventListener("online", function () {
    offline = false;
    setConn("connecting", text("textClosed", "reconnecting…"));
    if (wrapper) wrapper.reconnect();
  });
  // A connection can also die without a word (a phone changing networks, a router gone): the
  // server speaks at least every data-heartbeat milliseconds (a state or a heartbeat frame), so
  // a silence of several means the socket is dead. Connect anew, and wait twice as long the
  // next time until a heartbeat comes again (an overloaded server is late, not dead: no storm).
  setInterval(function () {
    var game = $("game"), period = game ? parseInt(game.dataset.heartbeat, 10) : NaN;
    if (!wrapper || !socket || offline || !(period > 0)) return;
    if (Date.now() - heard < patience * period) return;
    heard = Date.now();
    patience = Math.min(patience * 2, 32);
    setConn("connecting", text("textClosed", "reconnecting…"));
    wrapper.reconnect();
  }, 1000);
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    var message = e.detail.message || "";
    heard = Date.now();
    if (message.indexOf('id="heartbeat"') >= 0) { patience = 4; heartbeat(); }
    if (message.indexOf('id="board"') >= 0) gotState();
    if (/id="(board|flash)"/.test(message)) inFlight = null;
    // The player who asked for the rematch goes there (the others get a link).
    var go = rematchAsked && $("go-rematch");
    if (go) { rematchAsked = false; window.location.assign(go.getAttribute("href")); return; }
    refresh();
    restoreFocus();
    announce();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && socket) wantSync(0, 0);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var entry = newestLog();
    announced = entry ? entry.v : -1;  // what the page showed when loaded is not news
    var board = $("board");
    lastTurn = board ? board.dataset.current : null;
    refresh();
  });
})();
