"""In real Chromium against a live Daphne: the replay of a finished three-player game, stepped
with the buttons and the arrow keys, on a desktop and on a phone (screenshots)."""

import random
import re
import secrets

import pytest
from django.test import Client

from analysis.services import analysis_compute
from conftest import PASSWORD
from games import engine
from games.models import Lobby
from games.records import game_record
from games.tests.helpers import play_to_end, start_game

pytestmark = pytest.mark.e2e


def logged_in_context(browser, base, user, **options):
    """A browser context holding ``user``'s session (made by Django's test client)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context


def caption_step(page) -> int:
    return int(page.locator("#replay-body").get_attribute("data-step"))


def face_down_cells(page) -> int:
    return page.locator('#board .cell [data-v="?"]').count()


def three_player_game(django_user_model):
    """A finished game of alice, bob and carol, the same every run."""
    users = [
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob", "carol")
    ]
    original = secrets.randbits
    secrets.randbits = random.Random(4).getrandbits
    try:
        game = start_game(*users, end_score=100)
        play_to_end(game, users, seed=2)
    finally:
        secrets.randbits = original
    game.refresh_from_db()
    return game, users


def test_replay_a_finished_game(daphne_server, browser, screenshot_dir, django_user_model):
    base = daphne_server
    game, users = three_player_game(django_user_model)
    positions = list(engine.iter_positions(game_record(game)))
    middle = next(
        p.step
        for p in positions[len(positions) // 3 :]
        if p.kind == engine.DRAW and p.view.phase == engine.PLAY
    )

    context = logged_in_context(browser, base, users[0], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)

    # The game-over screen offers the replay and the record.
    page.goto(f"{base}/games/{game.pk}/")
    page.locator("#replay-link").click()
    page.wait_for_url(f"{base}/games/{game.pk}/replay/")
    assert caption_step(page) == 0
    assert page.locator("#download-record").get_attribute("href") == f"/games/{game.pk}/record.json"

    page.goto(f"{base}/games/{game.pk}/replay/?step={middle}")
    assert face_down_cells(page) == sum(g.count("?") for g in positions[middle].view.grids)
    assert page.locator(".move.is-current").count() == 1
    page.screenshot(path=screenshot_dir / "replay.png", full_page=False)

    # Arrow keys and buttons step with htmx; the URL follows; Back goes to the step before.
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/replay/?step={middle + 1}")
    assert caption_step(page) == middle + 1
    assert face_down_cells(page) == sum(g.count("?") for g in positions[middle + 1].view.grids)
    page.locator("#replay-next").click()
    page.wait_for_url(f"**/replay/?step={middle + 2}")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(f"**/replay/?step={middle + 1}")
    page.go_back()
    page.wait_for_url(f"**/replay/?step={middle + 2}")
    page.keyboard.press("End")
    page.wait_for_url(f"**/replay/?step={len(positions) - 1}")
    page.locator("#board.phase-game_over").wait_for()
    assert page.locator("#replay-next").get_attribute("aria-disabled") == "true"
    page.screenshot(path=screenshot_dir / "replay-end.png", full_page=False)
    page.keyboard.press("Home")
    page.wait_for_url("**/replay/?step=0")
    context.close()

    phone = logged_in_context(
        browser,
        base,
        users[1],
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/games/{game.pk}/replay/?step={middle}")
    page.screenshot(path=screenshot_dir / "replay-phone.png", full_page=False)
    page.locator("#replay-next").tap()
    page.wait_for_url(f"**/replay/?step={middle + 1}")
    page.screenshot(path=screenshot_dir / "replay-phone-full.png", full_page=True)
    phone.close()


def test_a_step_leaves_the_move_list_in_place_and_marks_its_move(
    daphne_server, browser, django_user_model
):
    """The move list came again with every step (a megabyte at each arrow key for a long game,
    its scroll reset): a step's answer now leaves it in place, and the step shown gets the
    highlight and aria-current."""
    base = daphne_server
    game, users = three_player_game(django_user_model)
    analysis_compute(game_id=game.pk)  # before the live server's runner: the list stays "ready"
    last = len(list(engine.iter_positions(game_record(game)))) - 1
    context = logged_in_context(browser, base, users[0], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/games/{game.pk}/replay/?step=10")
    page.evaluate("document.getElementById('moves').dataset.first = '1'")

    def marked():
        return page.evaluate(
            """() => [[...document.querySelectorAll("#moves .move.is-current")].map(li => li.value),
                      [...document.querySelectorAll("#moves [aria-current=step]")].map(
                          a => a.closest("li").value)]"""
        )

    def shows(step):
        """The page at ``step``: the URL pushed, and the list's mark moved (on settling)."""
        page.wait_for_url(f"**/replay/?step={step}")
        page.locator(f'#moves .move.is-current[value="{step}"]').wait_for()
        return marked() == [[step], [step]]

    assert marked() == [[10], [10]]
    with page.expect_response(lambda r: "/replay/?step=11" in r.url) as answer:
        page.keyboard.press("ArrowRight")
    assert shows(11)
    assert '<li class="move' not in answer.value.text()
    assert page.locator("#moves").get_attribute("data-first") == "1"
    assert page.locator("#moves .move").count() == last + 1
    # Keys pressed as soon as each step is in the address bar: still steps, no page loads
    # (a key just after a swap, before htmx settled it, found a plain link).
    loads = []
    page.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else None)
    for step in range(12, 20):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(f"**/replay/?step={step}")
    assert shows(19) and loads == []
    page.keyboard.press("End")
    assert shows(last)
    assert loads == []
    page.locator('#moves .move[value="3"] a').click()
    assert shows(3)
    assert page.locator("#moves").get_attribute("data-first") == "1"
    context.close()


def test_an_invitee_keeps_the_invite_from_the_board_to_the_replay(
    daphne_server, browser, django_user_model
):
    """Someone watching a private game through its invite link opens its replay from the
    game-over board, steps through it and reloads it: every page and request keeps the invite."""
    base = daphne_server
    game, _users = three_player_game(django_user_model)
    Lobby.objects.filter(pk=game.lobby_id).update(is_public=False)
    code = Lobby.objects.get(pk=game.lobby_id).invite_code
    dave = django_user_model.objects.create_user("dave", "dave@example.com", PASSWORD)
    context = logged_in_context(browser, base, dave, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    refused = []
    page.on("response", lambda r: r.status == 404 and refused.append(r.url))

    page.goto(f"{base}/games/{game.pk}/?invite={code}")
    page.locator("#replay-link").click()
    page.wait_for_url(f"{base}/games/{game.pk}/replay/?invite={code}")
    assert caption_step(page) == 0
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"/replay/\?(?=.*step=1)(?=.*invite={code})"))
    assert caption_step(page) == 1
    page.reload()
    assert caption_step(page) == 1
    context.close()
    assert refused == []
