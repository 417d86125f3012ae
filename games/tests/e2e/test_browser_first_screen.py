"""In real Chromium: whenever a player must act (reveal, draw, place, ready) their whole grid,
the piles (or the drawn card) and the prompt are on the first screen, with no scrolling, on a
phone (360x640) and a desktop (1280x720), at tables of 2, 4 and 8, seen from the last seat
(the seat whose grid comes last in seat order). Screenshots: test-artifacts/screenshots/first-*.png.
"""

import pytest

from conftest import PASSWORD
from games import engine, publish, services
from games.models import Game
from games.tests.e2e.test_browser_phones import finish_quickly
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e

VIEWPORTS = {"phone": {"width": 360, "height": 640}, "desktop": {"width": 1280, "height": 720}}

BOXES = """(seat) => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const piles = document.querySelector("#controls .drawn") || document.querySelector(".piles");
  return {
    grid: box(document.querySelector(`#player-${seat} .grid`)),
    piles: box(piles),
    prompt: box(document.querySelector("#controls .prompt")),
    actions: box(document.querySelector("#controls .actions")),
    width: window.innerWidth, height: window.innerHeight,
  };
}"""


def state_of(game):
    game.refresh_from_db()
    return engine.from_snapshot(game.snapshot)


def act(game, user, action):
    game.refresh_from_db()
    services.game_apply_action(game_id=game.pk, user=user, action=action, version=game.version)


def to_the_turn_of(game, users, seat):
    """Everyone turns two cards, then the others play (draw and turn a card) until ``seat``'s
    turn."""
    for user in users:
        for pos in (0, 1):
            act(game, user, {"reveal": pos})
    for _ in range(100):
        state = state_of(game)
        if state.current == seat and state.drawn is None:
            return
        current = state.current
        legal = [a.to_json() for a in state.legal_actions(current)]
        action = next((a for a in legal if "flip" in a or a == {"take": "deck"}), legal[0])
        act(game, users[current], action)
    raise AssertionError("the turn never came")


def inside(box, view) -> bool:
    return (
        box is not None
        and box["top"] >= -1
        and box["left"] >= -1
        and box["bottom"] <= view["height"] + 1
        and box["right"] <= view["width"] + 1
    )


@pytest.mark.parametrize("count", [2, 4, 8])
def test_your_cards_and_choices_are_on_the_first_screen(
    count, daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    base = daphne_server
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    users = [
        django_user_model.objects.create_user(f"player{i}_with_a_long_name", "", PASSWORD)
        for i in range(count)
    ]
    me = count - 1
    game = start_game(*users)
    contexts = {
        name: logged_in_context(browser, base, users[me], viewport=view)
        for name, view in VIEWPORTS.items()
    }
    pages = {name: context.new_page() for name, context in contexts.items()}
    failures = []

    def check(moment):
        for name, page in pages.items():
            page.goto(f"{base}/games/{game.pk}/")
            page.locator("[ws-connect][data-synced]").wait_for(timeout=15_000)
            page.locator("#controls .prompt-act").wait_for(timeout=5_000)
            page.screenshot(path=screenshot_dir / f"first-{name}-{count}-{moment}.png")
            boxes = page.evaluate(BOXES, me)
            for part in ("grid", "piles", "prompt", "actions"):
                if part == "actions" and boxes["actions"] is None:
                    continue
                if not inside(boxes[part], VIEWPORTS[name]):
                    failures.append(f"{name}, {count} players, {moment}: {part} {boxes[part]}")

    check("reveal")
    to_the_turn_of(game, users, me)
    check("draw")
    act(game, users[me], {"take": "deck"})
    check("place")
    act(game, users[me], {"flip": next(p for p in range(12) if p not in (0, 1))})
    finish_quickly(game, users, round_only=True)
    if game.status == Game.Status.PLAYING:
        check("ready")
    for context in contexts.values():
        context.close()
    assert failures == []


GRID_WIDTHS = """() => [...document.querySelectorAll("#board .grid")].map(
  g => Math.round(g.getBoundingClientRect().width))"""


def test_a_spectator_sees_every_grid_alike(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    users = [django_user_model.objects.create_user(f"p{i}", "", PASSWORD) for i in range(9)]
    game = start_game(*users[:8])
    for name, view in VIEWPORTS.items():
        context = logged_in_context(browser, daphne_server, users[8], viewport=view)
        page = context.new_page()
        page.goto(f"{daphne_server}/games/{game.pk}/")
        page.locator("[ws-connect][data-synced]").wait_for(timeout=15_000)
        page.screenshot(path=screenshot_dir / f"first-{name}-spectator.png", full_page=True)
        widths = page.evaluate(GRID_WIDTHS)
        assert len(widths) == 8 and max(widths) - min(widths) <= 1, widths
        context.close()
