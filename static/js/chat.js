/* Chat of a lobby or game page (templates/chat/panel.html): sends what is typed, or a quick
   message, as a frame on the page's own websocket (docs/protocol.md, "Chat"); the server
   answers with the message for everyone (or an error in #chat-flash) and keeps the log. */
(function () {
  "use strict";
  var socket = null;

  function flash(text) {
    var f = document.getElementById("chat-flash");
    if (f) { f.textContent = text || ""; f.removeAttribute("data-code"); }
  }
  function send(obj) {
    if (!socket) {
      var c = document.getElementById("chat");
      flash(c ? c.dataset.offline : "");
      return false;
    }
    flash("");
    socket.send(JSON.stringify(obj));
    return true;
  }
  function scrollDown() {
    document.querySelectorAll(".chat-log").forEach(function (log) { log.scrollTop = log.scrollHeight; });
  }

  document.addEventListener("htmx:wsOpen", function (e) { socket = e.detail.socketWrapper; });
  document.addEventListener("htmx:wsClose", function () { socket = null; });
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    if ((e.detail.message || "").indexOf("chat-") >= 0) scrollDown();
  });
  document.addEventListener("submit", function (e) {
    var form = e.target.closest("[data-chat-form]");
    if (!form) return;
    e.preventDefault();
    var input = form.querySelector("input[name=chat]");
    if (input && input.value.trim() && send({ chat: input.value })) input.value = "";
  });
  document.addEventListener("click", function (e) {
    var b = e.target.closest("[data-chat-quick]");
    if (b) send({ quick: b.dataset.chatQuick });
  });
  document.addEventListener("DOMContentLoaded", scrollDown);
})();
