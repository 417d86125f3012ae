{% autoescape off %}/* Skyjo Online's service worker (web/pwa/views.py): the static shell and the offline page,
   nothing else. Navigations go to the network, the offline page when it fails. */
"use strict";
const CACHE = "{{ cache }}";
const SHELL = {{ shell }};
const OFFLINE = {{ offline }};
const STATIC_FIRST = {{ static_first }};

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

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(STATIC_FIRST
      ? caches.match(request).then((kept) => kept || fromNetworkKept(request))
      : fromNetworkKept(request).catch(() => caches.match(request)));
  }
});
{% endautoescape %}
