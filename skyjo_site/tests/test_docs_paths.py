"""README.md and docs/ point at files that exist, and the README links every page of docs/.

A file moved or removed fails here until the pages that name it are changed too.
"""

import re

import pytest

from skyjo_site.tests.settings_helpers import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A path in backticks with a folder and a file's ending (or a folder's slash).
PATH = re.compile(r"`([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+/?)`")
ENDINGS = (".py", ".md", ".html", ".js", ".css", ".sh", ".txt", ".toml", "/")
# Where a page's short paths start from: the repository, the page's folder, the engine (its
# page says `tests/helpers.py`), and the folders of templates and static files.
BASES = ["", "docs", "games/engine", "templates", "static"]
# Not in the repository: the project's shared specification, and what the tests write.
OUTSIDE = ("shared/", "test-artifacts/")


def _paths(page):
    for path in sorted(set(PATH.findall(page.read_text()))):
        if path.endswith(ENDINGS) and not path.startswith(OUTSIDE):
            yield path


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_file_a_page_names_exists(page):
    missing = [p for p in _paths(page) if not any((ROOT / base / p).exists() for base in BASES)]
    assert missing == []


def test_the_readmes_layout_links_every_page_of_docs():
    readme = (ROOT / "README.md").read_text()
    layout = next(line for line in readme.splitlines() if line.startswith("| `docs/` |"))
    unlinked = [p.name for p in PAGES[1:] if f"(docs/{p.name})" not in layout]
    assert unlinked == []


# A URL in backticks, perhaps after its method: `/games/<id>/state.json`, `POST /chat/enable/`.
URL = re.compile(r"`(?:(?:GET|POST) )?(/[^`\s]*)`")


def _urls():
    for page in PAGES:
        if page.name != "performance.md":  # its commands are history
            for url in sorted(set(URL.findall(page.read_text()))):
                if not url.startswith(("/usr/", "/work/")):
                    yield page.name, re.sub(r"<[^>]+>", "1", url.split("?")[0])


@pytest.mark.parametrize(("page", "url"), list(_urls()))
def test_every_url_a_page_names_is_one_of_the_sites(page, url):
    from django.urls import Resolver404, resolve
    from django.urls.resolvers import RegexPattern, URLResolver

    from web.sockets.base import UnknownSocket
    from web.sockets.routing import websocket_urlpatterns

    if url.startswith("/ws/"):
        if url == "/ws/":  # the prefix itself, as in "any other path under /ws/"
            return
        match = URLResolver(RegexPattern(r"^/"), websocket_urlpatterns).resolve(url)
        assert match.func.consumer_class is not UnknownSocket
        return
    try:
        resolve(url)
    except Resolver404:
        pytest.fail(f"{page} names {url}, which no URL pattern serves")
