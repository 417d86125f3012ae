"""Loose ends of issue 13 that need no browser: the site's own error pages, the game-over score
table (the winner first, a doubled score shown with what was doubled) and the lobby's seat count
in the fragment that the lobby socket pushes. (The browser tests: e2e/test_browser_phones.py and
e2e/test_browser_lobby_start.py.)"""

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import permission_denied

from games import engine, services
from web.games import rendering
from web.games.presenters import lobby_context


@pytest.mark.django_db
def test_a_private_lobby_without_its_code_gets_the_sites_own_404_page(client, settings, alice, bob):
    settings.DEBUG = True  # as ./scripts/run serves it: still no debug page
    lobby = services.lobby_create(host=alice, name="Secret", seat_count=2, is_public=False)
    client.force_login(bob)
    response = client.get(
        reverse("games:lobby", args=[lobby.pk]), headers={"accept-language": "de"}
    )
    page = response.content.decode()
    assert response.status_code == 404
    assert 'id="error-page"' in page and "Unter dieser Adresse gibt es nichts" in page
    assert "Einladungslink" in page and "Using the URLconf" not in page


@pytest.mark.django_db
def test_the_403_and_500_pages_are_the_sites_own(rf: RequestFactory, alice):
    request = rf.get("/")
    request.user = alice
    response = permission_denied(request, Exception())
    assert response.status_code == 403 and b'id="error-page"' in response.content
    page = render_to_string("500.html")  # rendered without a request, as Django does
    assert 'data-status="500"' in page and "css/site.css" in page


def game_over_view(doubled: bool) -> engine.View:
    """Three players after two rounds; bea ended round 2 and, if ``doubled``, paid double."""
    second = engine.RoundResult(0, 1, (10, 13, 20), (10, 26 if doubled else 13, 20))
    totals = (60, 30 + second.scores[1], 25)
    return engine.View(
        seat=None,
        players=("ann", "bea", "Medium bot 1"),
        rules=engine.Rules(),
        round=2,
        phase=engine.GAME_OVER,
        current=None,
        starter=0,
        ender=1,
        deck_count=60,
        discard=(5,),
        drawing=False,
        drawn=None,
        grids=((1,) * 12,) * 3,
        revealed=(12, 12, 12),
        totals=totals,
        results=(engine.RoundResult(1, 0, (50, 17, 5), (50, 17, 5)), second),
    )


def test_the_game_over_table_puts_the_winner_first_and_says_what_was_doubled():
    with translation.override("en"):
        html = rendering.board_html(game_over_view(doubled=True), {"game": 1, "version": 9})
    table = html[html.index('<table class="score-table">') :]
    rows = table.split("<tr")[2:]
    assert "Medium bot 1" in rows[0] and "is-winner" in rows[0]  # 25: the lowest total
    heads = [re.search(r'<th scope="row">(.*?)</th>', row)[1] for row in rows]
    names = [re.sub(r'<span class="badge.*?</span>|<[^>]+>', "", h).strip() for h in heads]
    assert names == ["Medium bot 1", "bea", "ann"]
    # Breakable only before "=" (a phone's narrow column shows "13 × 2" over "= 26").
    assert "13\u00a0×\u00a02 =\u00a026" in rows[1] and "×2<" not in table
    assert html.index("score-table") < html.index('class="players')  # above the grids


@pytest.mark.django_db
def test_the_pushed_lobby_fragment_counts_the_seats(alice, bob):
    lobby = services.lobby_create(host=alice, name="Two", seat_count=2)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    context = lobby_context(lobby, alice)
    with translation.override("en"):
        html = render_to_string("games/partials/lobby_seats.html", {**context, "user": alice})
    assert 'id="lobby-summary"' in html and "2 of 2 seats taken" in html


def test_the_connection_mark_says_connected_beside_the_live_pace(client, alice):
    """Failed on main: a live game's header read "Live" and, beside it, "live"."""
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'data-text-open="connected"' in page and 'data-text-open="live"' not in page
