/* Web Push on the notifications settings page (docs/notifications.md, "Web Push"): the
   "Notify me on this device" button subscribes this browser through the service worker with
   the site's VAPID public key (the section's data-vapid-key) and posts the subscription; the
   other button turns it off; "on" is shown only when the browser's subscription is this
   player's (#push-endpoints). Shown only where the browser has PushManager. */
(function () {
  "use strict";
  const box = document.getElementById("push-settings");
  if (!box || !window.isSecureContext || !("serviceWorker" in navigator) ||
      !("PushManager" in window) || !("Notification" in window)) return;
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  const status = box.querySelector(".push-status");
  const csrf = box.querySelector("input[name=csrfmiddlewaretoken]").value;
  // This player's subscribed endpoints: the browser's own subscription may be another's, who
  // logged out here (the server then stopped pushing to it).
  const mine = JSON.parse(document.getElementById("push-endpoints").textContent);

  function keyBytes(text) {
    const base64 = (text + "=".repeat((4 - text.length % 4) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(data),
    }).then((response) => {
      if (response.ok) return response;
      return response.json().catch(() => ({})).then((answer) => {
        throw new Error((answer.error && answer.error.message) || box.dataset.textFailed);
      });
    });
  }

  function show(subscribed, text) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    status.textContent = text || (subscribed ? box.dataset.textOn : "");
  }

  function registration() {
    return navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready);
  }

  function subscribe() {
    on.disabled = true;
    Notification.requestPermission().then((permission) => {
      if (permission !== "granted") throw new Error(box.dataset.textDenied);
      return registration();
    }).then((reg) => reg.pushManager.getSubscription().then((kept) => kept || reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(box.dataset.vapidKey),
    }))).then((subscription) => post(box.dataset.subscribeUrl, subscription.toJSON()))
      .then(() => show(true))
      .catch((error) => show(false, error.message || box.dataset.textFailed))
      .finally(() => { on.disabled = false; });
  }

  function unsubscribe() {
    off.disabled = true;
    registration().then((reg) => reg.pushManager.getSubscription()).then((subscription) => {
      if (!subscription) return null;
      return post(box.dataset.unsubscribeUrl, { endpoint: subscription.endpoint })
        .then(() => subscription.unsubscribe());
    }).then(() => show(false, box.dataset.textOff))
      .catch((error) => show(true, error.message || box.dataset.textFailed))
      .finally(() => { off.disabled = false; });
  }

  on.addEventListener("click", subscribe);
  off.addEventListener("click", unsubscribe);
  box.hidden = false;
  registration().then((reg) => reg.pushManager.getSubscription())
    .then((subscription) => show(Boolean(subscription) && Notification.permission === "granted" &&
      mine.includes(subscription.endpoint)))
    .catch(() => show(false));
})();
