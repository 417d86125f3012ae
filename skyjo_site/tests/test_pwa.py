"""The installable app (web/pwa): a manifest with what a browser needs to install the site, a
service worker served from the root that keeps only the static shell and the offline page, and
that offline page in the visitor's language, with nothing of a player in it."""

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_icons_and_how_it_opens():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Skyjo Online" and manifest["short_name"] == "Skyjo"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert Client().get(icon["src"]).status_code == 200


def test_every_page_links_the_manifest():
    assert (
        '<link rel="manifest" href="/manifest.webmanifest">' in Client().get("/").content.decode()
    )


def test_the_service_worker_is_served_from_the_root_and_keeps_only_the_shell():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    shell = json.loads(script.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    assert shell and all(url.startswith("/static/") for url in shell)
    assert 'const OFFLINE = "/offline/"' in script
    assert 'request.mode === "navigate"' in script and "cache.match(OFFLINE)" in script


def test_the_offline_page_is_in_the_visitors_language_and_holds_no_player(alice):
    client = Client(headers={"accept-language": "de"})
    client.force_login(alice)
    response = client.get("/offline/")
    page = response.content.decode()
    assert response.status_code == 200 and '<html lang="de">' in page
    assert "Keine Verbindung" in page
    assert "alice" not in page and "csrf" not in page.lower()


def test_the_policy_allows_the_manifest_and_the_worker_from_here():
    policy = Client().get("/")["Content-Security-Policy"]
    assert "manifest-src 'self'" in policy and "worker-src 'self'" in policy


def test_the_worker_asks_for_the_offline_page_in_a_language(alice):
    client = Client(headers={"accept-language": "de"})
    client.force_login(alice)
    response = client.get("/offline/?language=fr")
    assert response["Content-Language"] == "fr"
    assert '<html lang="fr">' in response.content.decode()
    unknown = client.get("/offline/?language=xx")
    assert unknown["Content-Language"] == "de" and "Keine Verbindung" in unknown.content.decode()
