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
  // What was typed and sent last: a refusal (too long, too many) gives it back to the field,
  // for the player to shorten or send again. The field has no maxlength: a paste past it was
  // cut without a word.
  var unsent = null;
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    if ((e.detail.message || "").indexOf("chat-") >= 0) scrollDown();
    var input = document.getElementById("chat-input"), refused = document.getElementById("chat-flash");
    if (unsent !== null && input && !input.value && refused && refused.dataset.code) {
      input.value = unsent;
      unsent = null;
    }
  });
  document.addEventListener("submit", function (e) {
    var form = e.target.closest("[data-chat-form]");
    if (!form) return;
    e.preventDefault();
    var input = form.querySelector("input[name=chat]");
    if (input && input.value.trim() && send({ chat: input.value })) {
      unsent = input.value;
      input.value = "";
    }
  });
  document.addEventListener("click", function (e) {
    var b = e.target.closest("[data-chat-quick]");
    if (b && send({ quick: b.dataset.chatQuick })) unsent = null;
  });
  document.addEventListener("DOMContentLoaded", scrollDown);
})();
