"""The board's log of the last moves and its labels: told from the engine's public facts, kept
bounded on the game row, rendered in the reader's language, never telling a hidden card."""

import re

import pytest
from django.utils import translation

from games import movelog, selectors, services
from games.models import Game
from games.tests.helpers import restore, reveal_all, start_game
from web.games import rendering

pytestmark = pytest.mark.django_db


def act(game, user, action):
    game.refresh_from_db()
    return services.game_apply_action(
        game_id=game.pk, user=user, action=action, version=game.version
    )


def board(game, language="en"):
    state = selectors.game_state_by_id(game_id=game.pk, seat=None)
    with translation.override(language):
        return rendering.board_html(state.view, state.meta)


def log_items(html):
    return re.findall(r'<li data-log-version="\d+"[^>]*>([^<]*)</li>', html)


def test_a_turn_is_one_entry_and_a_draw_tells_no_value(alice, bob):
    game = start_game(alice, bob)
    reveal_all(game, [alice, bob])
    state = restore(game)
    users = [alice, bob]
    seat = state.current
    name = users[seat].username
    act(game, users[seat], {"take": "deck"})
    game.refresh_from_db()
    drawn = restore(game).drawn
    assert game.recent[0] == {"kind": "draw", "seat": seat, "v": game.version}
    html = board(game)
    assert log_items(html)[0] == f"{name} drew a card from the draw pile."
    old = state.cards[seat][5]
    act(game, users[seat], {"swap": 5})
    game.refresh_from_db()
    top = game.recent[0]
    assert top["kind"] == "swap" and top["drew"] and top["value"] == drawn
    assert top["replaced"] == old and top["was_down"]
    assert [e["kind"] for e in game.recent[:2]] == ["swap", "reveal"]
    html = board(game)
    assert log_items(html)[0] == (
        f"{name} drew {drawn} and swapped it for a face-down card at row 2, column 2: {old}."
    )
    # The card just placed is marked, and every card says whose it is and where.
    assert re.search(rf'class="cell just-changed" id="cell-{seat}-5"', html)
    label = re.search(rf'id="cell-{seat}-5"[^>]*aria-label="([^"]*)"', html).group(1)
    assert label == f"{name}, row 2, column 2: {drawn}"
    other = 1 - seat
    assert f'aria-label="{users[other].username}, row 3, column 4: face down"' in html
    assert 'role="grid"' not in html


def test_the_log_keeps_only_the_last_moves(alice, bob):
    game = start_game(alice, bob)
    reveal_all(game, [alice, bob])
    users = [alice, bob]
    for _ in range(8):
        state = restore(game)
        act(game, users[state.current], {"take": "discard", "swap": 4})
    game.refresh_from_db()
    assert len(game.recent) == movelog.LOG_SIZE
    assert [e["v"] for e in game.recent] == list(range(game.version, game.version - 5, -1))
    assert len(log_items(board(game))) == movelog.LOG_SIZE


def test_sentences_in_the_readers_language(alice, bob):
    game = start_game(alice, bob)
    reveal_all(game, [alice, bob])
    html = board(game, "de")
    assert "Letzte Spielzüge" in html
    assert "Reihe" in log_items(html)[0]


def test_a_round_and_the_game_ending_are_told_with_the_scores():
    players = ["ann", "ben"]
    facts = {"kind": "flip", "seat": 1, "pos": 0, "value": 3, "discarded": 9, "round_over": 1}
    entry = movelog.push([{"kind": "draw", "seat": 1, "v": 40}], facts, 41)
    assert len(entry) == 1 and entry[0]["drew"]

    class Result:
        ender, doubled, scores = 0, True, (24, 30)

    with translation.override("en"):
        text = movelog.entry_text({**entry[0], "game_over": True}, players, [Result()], [0])
    assert text == (
        "ben drew 9, discarded it and turned up 3 at row 1, column 1. "
        "Round 1 is over: ann 24 (doubled), ben 30. Game over: ann wins."
    )


def test_a_finished_game_keeps_its_log(alice, bob):
    from games.tests.helpers import play_to_end

    game = start_game(alice, bob, end_score=10)
    play_to_end(game, [alice, bob], seed=3)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.recent[0].get("game_over") is True
    assert "Game over:" in log_items(board(game))[0]


def test_the_replay_board_keeps_its_cards_and_piles_out_of_the_tab_order(alice, bob):
    game = start_game(alice, bob)
    state = selectors.game_state_by_id(game_id=game.pk, seat=None)
    meta = {**state.meta, "replay": True}
    html = rendering.board_html(state.view, meta)
    assert html.count('tabindex="-1"') == 24 + 2  # its navigation and move list come first
    assert 'tabindex="-1"' not in board(game)  # the live board: one tab stop per grid (JS)
