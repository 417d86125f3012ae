"""The replay page of a game that is over: steps, htmx fragments, refusals, hidden cards, links.

Choice documented in docs/protocol.md: a ``step`` out of range is clamped to the first or last
step; a ``step`` that is no whole number opens the first step, saying why (an htmx step: 400).
"""

import random
import re
import secrets
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from analysis.services import analysis_compute
from games import engine
from games import services as moderation
from games.labels import step_text
from games.models import Game
from games.records import game_record
from games.tests.helpers import play_one, play_to_end, start_game

pytestmark = pytest.mark.django_db
SEED = 4


@pytest.fixture
def finished(alice, bob, monkeypatch):
    """A finished game of two rounds, the same every time (decks from a seeded source)."""
    monkeypatch.setattr(secrets, "randbits", random.Random(SEED).getrandbits)
    game = start_game(alice, bob, end_score=100)
    play_to_end(game, [alice, bob], seed=1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert len(game_record(game)["rounds"]) == 2
    return game


def replay_url(game, step=None):
    url = reverse("games:replay", args=[game.pk])
    return url if step is None else f"{url}?step={step}"


def positions_of(game):
    return list(engine.iter_positions(game_record(game)))


class Cells(HTMLParser):
    """The cards of every grid cell of a rendered board: ``{(seat, pos): (state, data-v)}``."""

    def __init__(self):
        super().__init__()
        self.cells, self.cell = {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "button" and "cell" in classes:
            self.cell = (int(attrs["data-seat"]), int(attrs["data-pos"]))
        elif tag == "span" and "card" in classes and self.cell is not None:
            if "card-back" in classes:
                state = "down"
            elif "card-gone" in classes:
                state = "removed"
            else:
                state = "up"
            self.cells[self.cell] = (state, attrs.get("data-v"))
            self.cell = None


def rendered_cells(html: str) -> dict:
    parser = Cells()
    parser.feed(html)
    return parser.cells


class TestReplayPage:
    def test_it_shows_the_first_a_middle_and_the_last_step(self, client, alice, finished):
        client.force_login(alice)
        positions = positions_of(finished)
        last = len(positions) - 1
        for step in (0, last // 2, last):
            response = client.get(replay_url(finished, step))
            assert response.status_code == 200
            html = response.content.decode()
            assert "<html" in html
            assert f"Step {step} of {last}" in html
            assert 'id="board"' in html and f'data-version="{step}"' in html
            assert escape(step_text(positions[step].facts)) in html
            current = re.findall(r'<a href="[^"]*\?step=(\d+)"[^>]*aria-current="step"', html)
            assert current == [str(step)]
            assert html.count('<li class="move') == len(positions)
        assert "Game over" in html

    def test_the_deal_of_the_next_round_is_a_step(self, client, alice, finished):
        client.force_login(alice)
        deal = next(p for p in positions_of(finished) if p.kind == engine.DEAL and p.round == 2)
        html = client.get(replay_url(finished, deal.step)).content.decode()
        assert "Round 2 · the cards are dealt" in html
        assert 'data-phase="reveal"' in html

    def test_it_starts_at_the_deal(self, client, alice, finished):
        client.force_login(alice)
        html = client.get(replay_url(finished)).content.decode()
        assert f"Step 0 of {len(positions_of(finished)) - 1}" in html
        assert "Round 1 · the cards are dealt" in html
        assert 'id="replay-prev" aria-disabled="true"' in html

    def test_an_htmx_request_gets_the_fragment_only(self, client, alice, finished):
        client.force_login(alice)
        response = client.get(replay_url(finished, 5), HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode().strip()
        assert html.startswith('<div id="replay-body"') and html.endswith("</div>")
        assert "<html" not in html and "site-header" not in html
        assert 'id="board"' in html and 'id="moves"' in html and 'id="replay-next"' in html
        assert "HX-Request" in response["Vary"]

    def test_an_htmx_history_restore_gets_the_whole_page(self, client, alice, finished):
        client.force_login(alice)
        response = client.get(
            replay_url(finished, 5), HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
        )
        assert "<html" in response.content.decode()

    @pytest.mark.parametrize(("asked", "expected"), [("-4", "first"), ("999999", "last")])
    def test_a_step_out_of_range_is_clamped(self, client, alice, finished, asked, expected):
        client.force_login(alice)
        last = len(positions_of(finished)) - 1
        step = 0 if expected == "first" else last
        response = client.get(replay_url(finished, asked))
        assert response.status_code == 200
        assert f"Step {step} of {last}" in response.content.decode()

    @pytest.mark.parametrize("asked", ["abc", "1.5", "", "0x3"])
    def test_a_step_that_is_no_whole_number_opens_the_first_saying_why(
        self, client, alice, finished, asked
    ):
        client.force_login(alice)
        response = client.get(replay_url(finished, asked), follow=True)
        assert response.redirect_chain == [(reverse("games:replay", args=[finished.pk]), 302)]
        page = response.content.decode()
        assert "The step must be a whole number" in page and "Step 0 of " in page
        fragment = client.get(replay_url(finished, asked), headers={"HX-Request": "true"})
        assert fragment.status_code == 400 and "whole number" in fragment.content.decode()

    def test_a_running_game_is_refused(self, client, alice, bob):
        game = start_game(alice, bob, end_score=40)
        client.force_login(alice)
        response = client.get(replay_url(game, 3), follow=True)
        assert response.redirect_chain == [(reverse("games:game", args=[game.pk]), 302)]
        assert "once the game is over" in response.content.decode()
        assert 'id="replay-body"' not in response.content.decode()

    def test_an_aborted_game_can_be_replayed_without_a_record_download(self, client, alice, bob):
        game = start_game(alice, bob, end_score=40)
        rng = random.Random(3)
        for _ in range(30):
            play_one(game, [alice, bob], rng)
        moderation.game_stop(game_id=game.pk)
        client.force_login(bob)
        html = client.get(replay_url(game, 10_000)).content.decode()
        assert "This game was stopped before its end." in html
        assert 'id="download-record"' not in html
        record = client.get(f"/games/{game.pk}/record.json")  # docs/protocol.md: 403
        assert (record.status_code, record.json()["error"]["code"]) == (403, "game_not_finished")
        assert (
            "This game was stopped before its end."
            not in client.get(replay_url(game, 1)).content.decode()
        )

    def test_a_private_game_is_hidden_from_others(self, client, bob, charlie, finished):
        finished.lobby.is_public = False
        finished.lobby.save(update_fields=["is_public"])
        client.force_login(charlie)
        assert client.get(replay_url(finished)).status_code == 404
        client.force_login(bob)
        assert client.get(replay_url(finished)).status_code == 200

    def test_anonymous_visitors_are_sent_to_log_in(self, client, finished):
        response = client.get(replay_url(finished))
        assert response.status_code == 302 and "/login/" in response["Location"]


class TestNoHiddenValue:
    def test_every_face_down_card_renders_as_a_card_back(self, client, alice, finished):
        client.force_login(alice)
        positions = positions_of(finished)
        steps = sorted({*range(0, len(positions), 3), len(positions) - 1})
        for step in steps:
            view = positions[step].view
            html = client.get(replay_url(finished, step), HTTP_HX_REQUEST="true").content.decode()
            cells = rendered_cells(html)
            assert len(cells) == 12 * len(view.players)
            shown = 0
            for seat, grid in enumerate(view.grids):
                for pos, value in enumerate(grid):
                    if value == engine.HIDDEN:
                        assert cells[seat, pos] == ("down", "?"), (step, seat, pos)
                    elif value is None:
                        assert cells[seat, pos] == ("removed", None), (step, seat, pos)
                    else:
                        assert cells[seat, pos] == ("up", str(value)), (step, seat, pos)
                        shown += 1
            visible = [v for state, v in cells.values() if state == "up"]
            assert len(visible) == shown
            assert html.count('data-v="?"') == sum(g.count(engine.HIDDEN) for g in view.grids)

    def test_a_pending_draw_shows_no_value(self, client, alice, finished):
        client.force_login(alice)
        positions = positions_of(finished)
        drawing = next(p for p in positions if p.kind == engine.DRAW and p.view.drawing)
        html = client.get(replay_url(finished, drawing.step)).content.decode()
        assert "holds a drawn card" in html
        assert 'id="drawn-card"' not in html


class TestLinks:
    def test_the_game_over_screen_links_to_the_replay_and_the_record(self, client, alice, finished):
        client.force_login(alice)
        html = client.get(reverse("games:game", args=[finished.pk])).content.decode()
        assert f'href="{replay_url(finished)}"' in html
        assert f'href="{reverse("games:game_record", args=[finished.pk])}"' in html

    def test_the_replay_itself_offers_the_download_and_no_link_to_itself(
        self, client, alice, finished
    ):
        client.force_login(alice)
        html = client.get(replay_url(finished, 10_000)).content.decode()
        assert 'id="download-record"' in html
        assert 'id="replay-offer"' not in html
        record = client.get(reverse("games:game_record", args=[finished.pk]))
        assert record.status_code == 200 and record.json() == game_record(finished)

    def test_the_profile_history_links_to_the_replay(self, client, alice, finished):
        client.force_login(alice)
        html = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
        assert f'href="{replay_url(finished)}"' in html


class TestCost:
    def test_a_step_of_a_replay_shown_before_walks_the_record_only_up_to_it(
        self, client, alice, bob, finished, monkeypatch
    ):
        """Every step (an htmx request per arrow key) walked the whole record and rendered the
        whole move list again: 0.7 s of CPU per step of a game of 2,300 steps (end score 1000,
        8 players), any logged-in user could ask for them in a loop. The move list is rendered
        once per game and language in a process, the record assembled once, and a step walks
        the record up to it without describing the steps before (engine.position_at)."""
        walked, shown = [], []
        original, original_at = engine.iter_positions, engine.position_at

        def counted(record, **kwargs):
            for position in original(record, **kwargs):
                walked.append(position.step)
                yield position

        def counted_at(record, step, **kwargs):
            shown.append(step)
            return original_at(record, step, **kwargs)

        monkeypatch.setattr(engine, "iter_positions", counted)
        monkeypatch.setattr(engine, "position_at", counted_at)
        client.force_login(alice)
        last = len(positions_of(finished)) - 1
        walked.clear()
        first = client.get(replay_url(finished, 3), HTTP_HX_REQUEST="true").content.decode()
        assert walked == list(range(last + 1)) and shown == [3]  # the first time: the list too
        for user in (alice, bob):  # a step shown before, to anyone
            client.force_login(user)
            walked.clear()
            shown.clear()
            with CaptureQueriesContext(connection) as queries:
                html = client.get(replay_url(finished, 5), HTTP_HX_REQUEST="true").content.decode()
            assert walked == [] and shown == [5]
            assert not [q for q in queries if '"games_move"' in q["sql"]]  # the record: kept
            assert html.count('<li class="move') == last + 1
            current = re.findall(r'<a href="[^"]*\?step=(\d+)"[^>]*aria-current="step"', html)
            assert current == ["5"]
            assert re.findall(r'<li class="move is-current[^"]*" value="(\d+)"', html) == ["5"]
            assert "\x00" not in html and "\x01" not in html
        assert re.findall(r'<li class="move is-current[^"]*" value="(\d+)"', first) == ["3"]
        shown.clear()
        html = client.get(replay_url(finished, 10_000)).content.decode()
        assert f"Step {last} of {last}" in html and walked == [] and shown == [last]


class TestMoveListLimit:
    """Rendering a move list is the replay's costly part: SKYJO_RATELIMIT_REPLAY per user counts
    the renders (a list this process has not rendered in that language), not the steps."""

    @pytest.fixture
    def games(self, alice, bob, finished):
        others = []
        for seed in (2, 3):
            game = start_game(alice, bob, end_score=30)
            play_to_end(game, [alice, bob], seed=seed)
            others.append(game)
        return [finished, *others]

    def test_over_the_limit_a_new_list_waits_and_lists_rendered_still_open(
        self, client, alice, bob, games, settings
    ):
        settings.SKYJO_RATELIMIT_REPLAY = "2/h"
        client.force_login(alice)
        assert client.get(replay_url(games[0])).status_code == 200
        for step in range(1, 6):  # steps of a list rendered: not counted
            assert client.get(replay_url(games[0], step), HTTP_HX_REQUEST="true").status_code == 200
        assert client.get(replay_url(games[1])).status_code == 200
        limited = client.get(replay_url(games[2]))
        assert limited.status_code == 429
        text = limited.content.decode()
        assert "You opened many replays in a short time: at most 2 an hour." in text
        assert re.search(r"Try again in \d+ (hour|minutes?|seconds?); the replays you opened", text)
        assert client.get(replay_url(games[1], 4)).status_code == 200  # rendered before
        client.force_login(bob)  # each player has a count of their own
        assert client.get(replay_url(games[2])).status_code == 200

    def test_an_htmx_step_over_the_limit_loads_the_page_that_says_why(
        self, client, alice, games, settings
    ):
        settings.SKYJO_RATELIMIT_REPLAY = "1/h"
        client.force_login(alice)
        assert client.get(replay_url(games[0])).status_code == 200
        limited = client.get(replay_url(games[1], 3), HTTP_HX_REQUEST="true")
        assert limited.status_code == 429 and limited["HX-Refresh"] == "true"

    def test_another_language_is_another_list(self, client, alice, games, settings):
        settings.SKYJO_RATELIMIT_REPLAY = "1/h"
        client.force_login(alice)
        assert client.get(replay_url(games[0])).status_code == 200
        german = client.get(replay_url(games[0]), HTTP_ACCEPT_LANGUAGE="de")
        assert german.status_code == 429
        assert "Du hast in kurzer Zeit viele Wiederholungen geöffnet" in german.content.decode()


class TestKeptMoveList:
    """A step asked for by the replay's own links names the list its page shows (header
    X-Skyjo-Moves: the analysis state it was rendered in): the answer leaves it in place."""

    def get(self, client, game, step, **headers):
        return client.get(replay_url(game, step), **headers).content.decode()

    def test_a_step_from_a_page_with_the_list_leaves_it_in_place(self, client, alice, finished):
        client.force_login(alice)
        page = self.get(client, finished, 3)
        assert """hx-headers='{"X-Skyjo-Moves": "pending"}'""" in page
        html = self.get(client, finished, 4, HTTP_HX_REQUEST="true", HTTP_X_SKYJO_MOVES="pending")
        assert '<li class="move' not in html
        assert '<div class="moves-scroll" id="moves" hx-preserve></div>' in html
        assert 'data-step="4"' in html

    def test_a_list_of_another_state_of_the_analysis_comes_again(self, client, alice, finished):
        """Analysed since the page was loaded: the list comes with its notes."""
        analysis_compute(game_id=finished.pk)
        client.force_login(alice)
        html = self.get(client, finished, 4, HTTP_HX_REQUEST="true", HTTP_X_SKYJO_MOVES="pending")
        assert html.count('<li class="move') == len(positions_of(finished))
        assert """hx-headers='{"X-Skyjo-Moves": "ready"}'""" in html
        assert 'class="move is-current' in html and "hx-preserve" not in html

    def test_a_whole_page_or_a_history_restore_has_the_list(self, client, alice, finished):
        client.force_login(alice)
        page = self.get(client, finished, 4, HTTP_X_SKYJO_MOVES="pending")
        restore = self.get(
            client,
            finished,
            4,
            HTTP_HX_REQUEST="true",
            HTTP_HX_HISTORY_RESTORE_REQUEST="true",
            HTTP_X_SKYJO_MOVES="pending",
        )
        for html in (page, restore):
            assert html.count('<li class="move') == len(positions_of(finished))
