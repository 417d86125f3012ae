"""How a game is stored: a snapshot per version, the history in rows written once, the record
assembled from them, and a move's cost in statements independent of the game's length."""

import random
import secrets

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, services
from games.models import Game, Move, Round
from games.records import game_record
from games.tests.helpers import start_game

pytestmark = pytest.mark.django_db

# Read the game with its lobby (unless this process holds it), read its players, the
# conditional update of the game, insert the move.
MAX_MOVE_STATEMENTS = 4


def statements(queries: CaptureQueriesContext) -> int:
    """Statements of a service call, not counting its transaction's own begin and end (in a
    test, inside the test's transaction, those are savepoints)."""
    return sum(
        not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
        for q in queries.captured_queries
    )


def random_step(state: engine.Game, seat: int, rng: random.Random) -> engine.Action:
    return rng.choice(state.legal_actions(seat))


def drain_the_pile(state: engine.Game, seat: int, rng: random.Random) -> engine.Action:
    """Until the draw pile has run out once in the game: draw, and swap the card into a face-up
    position, so that nobody's last card is turned first. Then at random."""
    legal = state.legal_actions(seat)
    if state.phase == "reveal" or any(
        r.get("reshuffles") for r in engine.to_record(state)["rounds"]
    ):
        return rng.choice(legal)
    if state.drawn is None:
        return engine.draw()
    face_up = [a for a in legal if a.kind == "swap" and state.up[seat][a.pos]]
    return rng.choice(face_up or legal)


def play_along(
    game: Game, users, *, seed: int, until, on_step=None, choose=random_step
) -> engine.Game:
    """Play legal steps (``choose``) through the services, and the same steps on an engine game
    kept in this process (dealt the same decks, reshuffled the same way), until ``until(state)``.
    ``on_step(state, seat, action)`` may make the step itself (and returns True if it did)."""
    rng = random.Random(seed)
    rows = lambda number: Round.objects.get(game=game, number=number)  # noqa: E731
    snapshot = game.snapshot
    kept = engine.Game(snapshot["players"], engine.Rules(**snapshot["rules"]), deck=rows(1).deck)
    while not until(kept):
        game.refresh_from_db()
        if kept.phase == engine.ROUND_OVER:
            for user in users:
                services.game_set_ready(game_id=game.pk, user=user)
            kept.next_round(rows(kept.round + 1).deck)
            continue
        seat = rng.choice(kept.to_act())
        action = choose(kept, seat, rng).to_json()
        if not (on_step and on_step(kept, seat, action)):
            services.game_apply_action(
                game_id=game.pk, user=users[seat], action=action, version=game.version
            )
        reshuffle = Move.objects.filter(game=game).latest("version").reshuffle
        kept.forced_reshuffles = [reshuffle] if reshuffle is not None else []
        kept.apply(seat, engine.Action.from_json(action))
        assert kept.last_reshuffle == reshuffle
    game.refresh_from_db()
    return kept


def test_the_record_assembled_from_rows_is_the_engines_own(django_user_model):
    """A whole game of several rounds (a round scores at most 288, so 300 needs two or more),
    with a reshuffle."""
    users = [django_user_model.objects.create_user(username=f"p{i}") for i in range(8)]
    game = start_game(*users, end_score=300)
    kept = play_along(
        game, users, seed=3, until=lambda state: state.finished, choose=drain_the_pile
    )
    assert game.status == Game.Status.FINISHED and len(kept.results) >= 2
    assert Move.objects.filter(game=game, reshuffle__isnull=False).exists()
    assert game_record(game) == engine.to_record(kept)
    assert engine.from_record(game_record(game)).totals == kept.totals


def test_the_record_of_a_game_in_progress_holds_the_pending_draw(alice, bob):
    game = start_game(alice, bob)
    kept = play_along(game, [alice, bob], seed=5, until=lambda state: state.drawn is not None)
    assert game_record(game) == engine.to_record(kept)
    assert game_record(game)["rounds"][-1]["actions"][-1] == {"take": "deck"}


def test_the_snapshot_is_the_state_and_the_record_is_not_rewritten(alice, bob):
    game = start_game(alice, bob)
    kept = play_along(game, [alice, bob], seed=7, until=lambda state: state.phase == "play")
    saved = engine.from_snapshot(game.snapshot)
    assert engine.view_of(saved, 0) == engine.view_of(kept, 0)
    assert saved.draw_pile == kept.draw_pile and saved.cards == kept.cards
    assert not hasattr(Game, "record") or not any(
        f.name == "record" for f in Game._meta.get_fields()
    )


def test_a_moves_statements_are_as_few_in_round_8_as_in_round_1(alice, bob, monkeypatch):
    """A move costs the same few statements however long the game has run. The decks are
    dealt from a fixed seed: with random ones, random play now and then reached the end score
    (1000, the most a lobby allows) before round 8."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: 20_261_202)
    game = start_game(alice, bob, end_score=1000)
    users = [alice, bob]
    counted: dict[int, list[int]] = {}

    def count(state, seat, action):
        if state.round not in (1, 8) or len(counted.get(state.round, [])) >= 6:
            return False
        if "reveal" in action:
            return False
        with CaptureQueriesContext(connection) as queries:
            services.game_apply_action(
                game_id=game.pk, user=users[seat], action=action, version=game.version
            )
        counted.setdefault(state.round, []).append(statements(queries))
        return True

    play_along(game, users, seed=11, until=lambda state: state.round > 8, on_step=count)
    assert len(counted[1]) == len(counted[8]) == 6
    assert counted[1] == counted[8]
    assert max(counted[8]) <= MAX_MOVE_STATEMENTS
