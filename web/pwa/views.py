"""The installable app: its manifest, its service worker (from the site's root, to control every
page; it keeps only the static ``SHELL`` and the offline page) and that offline page."""

import hashlib
import json

from django.conf import settings
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

THEME = "#07131f"
SHELL = (
    "css/site.css",
    "css/phones.css",
    "css/game.css",
    "css/chat.css",
    "css/analysis.css",
    "js/page.js",
    "js/sockets.js",
    "js/game.js",
    "js/clock.js",
    "js/chat.js",
    "vendor/htmx.min.js",
    "vendor/htmx-ext-ws.js",
    "img/favicon.svg",
    "img/icons/icon-192.png",
)


@require_safe
@cache_control(max_age=3600)
def manifest(request):
    description = json.dumps(_("Play Skyjo in the browser, with friends or against bots."))
    context = {"description": description, "theme": THEME}
    return render(request, "pwa/manifest.webmanifest", context, "application/manifest+json")


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    shell = [static(path) for path in SHELL]
    offline_url = reverse("pwa:offline")
    version = hashlib.sha256(" ".join(shell).encode()).hexdigest()[:12]
    script = render(
        request,
        "pwa/sw.js",
        {
            "cache": f"skyjo-{version}",
            "shell": json.dumps(shell),
            "offline": json.dumps(offline_url),
            "static_first": json.dumps(not settings.DEBUG),
        },
        content_type="text/javascript",
    )
    script["Service-Worker-Allowed"] = "/"
    return script


@require_safe
@cache_control(no_cache=True)
def offline(request):
    """No player's data: the worker stores this page as it is fetched. In the visitor's
    language, or in ``?language=`` when that names one of the site's."""
    language = request.GET.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return render(request, "pwa/offline.html")
    with translation.override(language):
        page = render(request, "pwa/offline.html")
    page["Content-Language"] = language
    return page
