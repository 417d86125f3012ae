"""The stored analysis: computed in the background once a game is over, recomputed only for a
new version, shown in the replay and on the game-over screen, and never while a game runs."""

import random
import re
import secrets
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import pytest
from django.urls import reverse

from analysis import services as analysis_services
from analysis import worker
from analysis.core import VERSION
from analysis.models import GameAnalysis
from analysis.services import analysis_run_due
from games import engine, services
from games.models import Game
from games.tests.helpers import play_one, play_to_end, start_game
from web import runner as autoplay

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, monkeypatch):
    """A finished game of alice and bob (random legal moves: plenty of mistakes)."""
    monkeypatch.setattr(secrets, "randbits", random.Random(4).getrandbits)
    game = start_game(alice, bob, end_score=100)
    play_to_end(game, [alice, bob], seed=1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_the_bot_runner_analyses_a_finished_game_once(finished, monkeypatch, settings):
    settings.SKYJO_ANALYSIS_WORKER = False  # in the runner's thread: the worker's test is below
    monkeypatch.setattr(autoplay, "close_old_connections", lambda: None)
    monkeypatch.setattr(analysis_services, "_next_look", 0.0)
    autoplay._tick()
    row = GameAnalysis.objects.get(game=finished)
    assert row.version == VERSION
    assert [p["seat"] for p in row.data["players"]] == [0, 1]
    assert row.data["decisions"] and row.seconds > 0
    assert analysis_run_due() == 0  # stored: not computed again
    assert GameAnalysis.objects.get(game=finished).computed_at == row.computed_at
    autoplay._tick()  # nothing due: the next look waits IDLE_LOOK seconds
    assert analysis_services._next_look > 0


def test_the_worker_process_computes_what_the_runner_would(finished, monkeypatch, settings):
    """With the worker (the default), a pass hands the game over and returns; a later pass
    stores what the worker computed: the same analysis as in the runner's own thread."""
    settings.SKYJO_ANALYSIS_WORKER = True
    monkeypatch.setattr(autoplay, "close_old_connections", lambda: None)
    monkeypatch.setattr(analysis_services, "_next_look", 0.0)
    monkeypatch.setattr(analysis_services, "_pending", None)
    autoplay._tick()
    assert analysis_services._pending is not None
    assert not GameAnalysis.objects.filter(game=finished).exists()
    _game_id, future = analysis_services._pending
    future.result(timeout=120)  # the worker process starts on first use
    autoplay._tick()
    row = GameAnalysis.objects.get(game=finished)
    assert analysis_services._pending is None and row.seconds > 0
    worker_data = row.data
    settings.SKYJO_ANALYSIS_WORKER = False
    monkeypatch.setattr(analysis_services, "VERSION", VERSION + 1)
    assert analysis_run_due() == 1
    assert GameAnalysis.objects.get(game=finished).data == worker_data


def test_a_worker_that_died_is_replaced_and_the_game_analysed_later(
    finished, monkeypatch, settings
):
    """A worker process that dies (killed, out of memory) stores nothing for the game it held:
    it is dropped, and the next pass hands the game to a new one."""
    settings.SKYJO_ANALYSIS_WORKER = True
    monkeypatch.setattr(autoplay, "close_old_connections", lambda: None)
    monkeypatch.setattr(analysis_services, "_next_look", 0.0)
    monkeypatch.setattr(analysis_services, "_pending", None)
    died = Future()
    died.set_exception(BrokenProcessPool("the worker was killed"))
    dropped = []
    monkeypatch.setattr(worker, "submit", lambda *inputs: died)
    monkeypatch.setattr(worker, "discard", lambda: dropped.append(True))
    autoplay._tick()  # hands the game over
    autoplay._tick()  # finds the worker dead
    assert dropped == [True] and not GameAnalysis.objects.filter(game=finished).exists()
    done = Future()
    monkeypatch.setattr(worker, "submit", lambda *inputs: done)
    autoplay._tick()  # hands it to the next worker
    done.set_result(worker.compute(*analysis_services._inputs(finished.pk)))
    autoplay._tick()
    assert GameAnalysis.objects.get(game=finished).data["decisions"]


def test_a_server_shutting_down_costs_one_line_and_the_game_stays_due(
    finished, monkeypatch, settings, caplog
):
    settings.SKYJO_ANALYSIS_WORKER = True
    monkeypatch.setattr(analysis_services, "_next_look", 0.0)
    monkeypatch.setattr(analysis_services, "_pending", None)

    def refused(*inputs):
        raise RuntimeError("cannot schedule new futures after interpreter shutdown")

    monkeypatch.setattr(worker, "submit", refused)
    analysis_services.analysis_tick()
    (record,) = [r for r in caplog.records if r.name == "analysis.services"]
    assert record.levelname == "WARNING" and record.exc_info is None
    assert analysis_services._pending is None
    assert analysis_services._due(1) == [finished.pk]


def test_a_new_version_is_computed_again(finished, monkeypatch):
    analysis_run_due()
    monkeypatch.setattr(analysis_services, "VERSION", VERSION + 1)
    assert analysis_run_due() == 1
    assert GameAnalysis.objects.get(game=finished).version == VERSION + 1


def test_only_human_seats_are_analysed(alice, monkeypatch):
    monkeypatch.setattr(secrets, "randbits", random.Random(4).getrandbits)
    lobby = services.lobby_create(host=alice, name="Bots", seat_count=2, end_score=30)
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="easy")
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    rng = random.Random(2)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        state = engine.from_snapshot(game.snapshot)
        if state.phase == "round_over":
            services.game_set_ready(game_id=game.pk, user=alice)
            continue
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat)).to_json()
        services.game_apply_action(game_id=game.pk, seat=seat, action=action, version=game.version)
    assert game.status == Game.Status.FINISHED
    analysis_run_due()
    data = GameAnalysis.objects.get(game=game).data
    assert [p["seat"] for p in data["players"]] == [0]
    assert {d["seat"] for d in data["decisions"]} == {0}


def test_nothing_is_analysed_or_shown_while_the_game_runs(client, alice, bob):
    game = start_game(alice, bob, end_score=300)
    rng = random.Random(3)
    for _ in range(30):
        play_one(game, [alice, bob], rng)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert analysis_run_due() == 0
    assert analysis_services.analysis_compute(game_id=game.pk) is None
    assert not GameAnalysis.objects.exists()
    client.force_login(alice)
    response = client.get(reverse("analysis:summary", args=[game.pk]))
    assert response.status_code == 286  # no polling: nothing will come while it runs
    assert "analysis" not in response.content.decode().lower()
    assert client.get(reverse("games:replay", args=[game.pk])).status_code == 302


def test_the_game_over_screen_and_the_replay_poll_until_the_summary_is_there(
    client, alice, finished
):
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[finished.pk])).content.decode()
    assert 'id="analysis-slot"' in page
    url = reverse("analysis:summary", args=[finished.pk])
    pending = client.get(url)
    assert pending.status_code == 200 and "being prepared" in pending.content.decode()
    assert f'hx-get="{url}" hx-trigger="every 3s"' in pending.content.decode()
    replay = client.get(reverse("games:replay", args=[finished.pk])).content.decode()
    assert f'hx-get="{url}" hx-trigger="every 3s"' in replay  # the replay waits for it too
    analysis_run_due()
    ready = client.get(url)
    html = ready.content.decode()
    assert ready.status_code == 286
    assert re.search(r"You lost \d+\.\d expected points", html)
    assert "alice" in html and "bob" in html and "Accuracy" in html


def test_the_replay_shows_labels_the_best_move_and_jumps_between_my_mistakes(
    client, alice, bob, finished
):
    analysis_run_due()
    data = GameAnalysis.objects.get(game=finished).data
    mine = [d for d in data["decisions"] if d["seat"] == 0 and d["label"]]
    assert len(mine) >= 2
    client.force_login(alice)
    url = reverse("games:replay", args=[finished.pk])
    html = client.get(url).content.decode()
    assert 'id="analysis-summary"' in html
    labelled = sum(1 for d in data["decisions"] if d["label"])
    assert len(re.findall(r'class="ann ann-(?:inaccuracy|mistake|blunder)"', html)) == labelled
    assert f'id="mistake-next" href="{url}?step={mine[0]["step"]}"' in html
    first = mine[0]
    page = client.get(f"{url}?step={first['step']}").content.decode()
    assert 'id="analysis-note"' in page and "points lost" in page
    assert 'id="mistake-prev" aria-disabled="true"' in page
    assert f'id="mistake-next" href="{url}?step={mine[1]["step"]}"' in page
    best = first["best"]
    pos = best.get("swap", best.get("flip"))
    if pos is not None:
        assert f"row {pos // 4 + 1}, column {pos % 4 + 1}" in page
        assert f'data-best-seat="0" data-best-pos="{pos}"' in page
    else:
        assert "Best: draw from the pile." in page
    # bob's own mistakes are his to jump between
    client.force_login(bob)
    his = [d["step"] for d in data["decisions"] if d["seat"] == 1 and d["label"]]
    page = client.get(url).content.decode()
    assert f'id="mistake-next" href="{url}?step={his[0]}"' in page


def test_a_failing_database_costs_one_line_and_the_game_stays_due(finished, monkeypatch, caplog):
    from django.db import OperationalError

    def down(**_kwargs):
        raise OperationalError("server closed the connection unexpectedly\nThis probably means")

    monkeypatch.setattr(analysis_services, "analysis_compute", down)
    assert analysis_run_due() == 0
    (record,) = [r for r in caplog.records if r.name == "analysis.services"]
    assert record.levelname == "WARNING" and record.exc_info is None
    assert "\n" not in record.getMessage()
    monkeypatch.undo()
    assert analysis_run_due() == 1


def test_a_fragment_asked_for_after_the_session_ended_sends_the_browser_to_log_in(alice, bob):
    """The summary is polled by htmx on the game-over screen: once logged out (another tab, an
    expired session) it answered with the login page, which htmx swapped into the screen. Now
    an HX-Redirect to the login page, back to the game page afterwards."""
    from django.test import Client

    from games.tests.helpers import play_to_end, start_game

    game = start_game(alice, bob, end_score=20)
    play_to_end(game, [alice, bob], seed=2)
    page = f"/games/{game.pk}/"
    response = Client().get(
        f"/games/{game.pk}/analysis/",
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"},
    )
    assert response.status_code == 200 and response.content == b""
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"


def test_a_german_player_reads_the_points_lost_with_a_decimal_comma(client, alice, finished):
    """The profile writes "24,5" in German; the analysis beside it wrote "17.3" and "85.0%"."""
    analysis_run_due()
    alice.language = "de"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(reverse("analysis:summary", args=[finished.pk])).content.decode()
    assert re.search(r"Du hast \d+,\d erwartete Punkte verloren", html), html
    assert re.search(r'<td class="num">\d+,\d</td>', html)  # points lost
    assert re.search(r'<td class="num">\d+,\d%</td>', html)  # accuracy
    assert not re.search(r"\d\.\d", html)
    replay = client.get(reverse("games:replay", args=[finished.pk])).content.decode()
    assert re.search(r'data-lost="\d+,\d"', replay) and not re.search(
        r'data-lost="\d+\.\d"', replay
    )


@pytest.mark.parametrize("in_worker", [False, True])
def test_a_game_whose_record_cannot_be_read_is_passed_over(
    finished, alice, bob, monkeypatch, settings, caplog, in_worker
):
    """A finished game whose rows do not make a record (here its snapshot lost the players):
    stored without an analysis, in one log line with its traceback, and the games finished
    before it are analysed. It was due again at every pass, first, and they never were."""
    settings.SKYJO_ANALYSIS_WORKER = in_worker
    monkeypatch.setattr(analysis_services, "_next_look", 0.0)
    monkeypatch.setattr(analysis_services, "_pending", None)
    broken = start_game(alice, bob, end_score=30)
    play_to_end(broken, [alice, bob], seed=2)
    Game.objects.filter(pk=broken.pk).update(snapshot={})
    assert analysis_services._due(2) == [broken.pk, finished.pk]
    for _ in range(3):
        analysis_services.analysis_tick()
        if analysis_services._pending is not None:
            analysis_services._pending[1].result(timeout=120)
    failed = [r for r in caplog.records if r.name == "analysis.services"]
    assert [r.getMessage() for r in failed] == [
        f"analysis: the record of game {broken.pk} cannot be read"
    ]
    assert failed[0].exc_info is not None
    assert GameAnalysis.objects.get(game=broken).data is None
    assert GameAnalysis.objects.get(game=finished).data["decisions"]
    assert analysis_services._due(2) == []
