"""In real Chromium against a live Daphne: the table sees whom it waits for. A player whose
page is closed shows as not connected, with the time left before the bot plays for them, and
the line goes when they are back."""

import re

import pytest

from games import engine, services
from games.models import Game
from games.tests.e2e.test_browser_live_play import game_page
from games.tests.helpers import restore, reveal_all, start_game

pytestmark = pytest.mark.e2e


def test_a_player_who_left_shows_as_not_connected_until_they_are_back(
    daphne_server, browser, screenshot_dir, alice, bob
):
    game = start_game(alice, bob)
    alices_context, alices = game_page(
        browser, daphne_server, alice, game, viewport={"width": 1280, "height": 900}
    )
    line = alices.locator("#presence .presence-line")
    line.wait_for()
    assert line.inner_text().startswith("bob is not connected.")
    left = line.locator(".clock-left").inner_text()
    assert re.fullmatch(r"[01]:\d\d", left), left  # the lobby's 60 s grace, counting down
    alices.screenshot(path=screenshot_dir / "presence-waiting.png")

    bobs_context, _ = game_page(browser, daphne_server, bob, game)
    line.wait_for(state="detached")
    bobs_context.close()  # bob's tab is closed
    line.wait_for()
    assert "bob" in line.inner_text()
    assert Game.objects.get(pk=game.pk).version == 0  # nobody's move turned stale
    alices_context.close()


def bob_to_play(game: Game, alice, bob) -> None:
    """Both reveal, then alice plays until the turn is bob's (seat 1)."""
    reveal_all(game, [alice, bob])
    while restore(game).current != 1:
        state = restore(game)
        step = engine.view_of(state, 0).legal_actions()[0]
        game.refresh_from_db()
        services.game_apply_action(
            game_id=game.pk, user=alice, action=step.to_json(), version=game.version
        )


@pytest.mark.parametrize(
    ("turn_clock", "grace", "sooner"), [(30, 60, "turn clock"), (60, 15, "bot")]
)
def test_a_seat_not_connected_has_one_countdown_the_sooner(
    daphne_server, browser, screenshot_dir, alice, bob, turn_clock, grace, sooner
):
    """Failed on main: "the medium bot plays for them in 0:54" beside a turn clock at 0:47."""
    game = start_game(alice, bob, turn_clock=turn_clock, disconnect_grace=grace)
    bob_to_play(game, alice, bob)
    context, page = game_page(
        browser, daphne_server, alice, game, viewport={"width": 390, "height": 844}
    )
    line = page.locator("#presence .presence-line")
    line.wait_for()
    turn_clock_shown = page.locator("#turn-clock").is_visible()
    own_shown = line.locator(".presence-clock").is_visible()
    page.screenshot(path=screenshot_dir / f"presence-one-countdown-{grace}.png")
    if sooner == "turn clock":
        assert (turn_clock_shown, own_shown) == (True, False)
        assert line.inner_text().strip() == "bob is not connected."
    else:
        assert (turn_clock_shown, own_shown) == (False, True)
        assert "plays for them in" in line.inner_text()
    context.close()
