{% load static %}{% autoescape off %}/* Skyjo Online's service worker (web/pwa/views.py): the static shell and the offline page,
   nothing else. Navigations go to the network, the offline page when it fails: one copy per
   language, shown in the language of the latest page. It also shows
   the Web Push notifications (docs/notifications.md, "Web Push") and opens their game. */
"use strict";
const CACHE = "{{ cache }}";
const SHELL = {{ shell }};
const OFFLINE = {{ offline }};
const STATIC_FIRST = {{ static_first }};
const ICON = "{% static 'img/icons/icon-192.png' %}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL.concat([OFFLINE]))).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

function fromNetworkKept(request) {
  return fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  });
}

// The offline page in ``language``, and the latest page's language, under keys of their own:
// copies fetched in any order never take each other's place.
const LATEST = OFFLINE + "language";
function offlineIn(language) {
  return OFFLINE + "?language=" + encodeURIComponent(language);
}

function keepOfflineIn(language) {
  if (!language) return Promise.resolve();
  return caches.open(CACHE).then((cache) => Promise.all([
    cache.put(LATEST, new Response(language)),
    cache.match(offlineIn(language)).then((kept) => kept || cache.add(offlineIn(language))),
  ])).catch(() => undefined);
}

function offlinePage() {
  return caches.open(CACHE).then((cache) => cache.match(LATEST)
    .then((latest) => (latest ? latest.text() : ""))
    .then((language) => (language ? cache.match(offlineIn(language)) : undefined))
    .then((page) => page || cache.match(OFFLINE)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      event.waitUntil(keepOfflineIn(response.headers.get("Content-Language")));
      return response;
    }).catch(offlinePage));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(STATIC_FIRST
      ? caches.match(request).then((kept) => kept || fromNetworkKept(request))
      : fromNetworkKept(request).catch(() => caches.match(request)));
  }
});

// A push's JSON: {title, body, url, tag} (notifications/push.py); no card of any game.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  const options = { body: String(data.body || ""), icon: ICON, data: { url: String(data.url || "/") } };
  if (data.tag) options.tag = String(data.tag);
  event.waitUntil(self.registration.showNotification(String(data.title || "Skyjo Online"), options));
});

// A click focuses a window of the game's page, or opens one; only pages of this site.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => new URL(client.url).pathname === target.pathname && "focus" in client);
    return open ? open.focus() : self.clients.openWindow(target.href);
  }));
});
{% endautoescape %}
