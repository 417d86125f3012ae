"""In real Chromium against a live Daphne: two players register, meet in a lobby and play a
whole game to its end, each in their own browser context."""

import random
import re

import pytest

from conftest import PASSWORD
from games import engine
from games.models import Game, Round
from games.records import game_record

pytestmark = pytest.mark.e2e

LOW_FIRST_DEAL = [-2] * 5 + [-1] * 10 + [0] * 9


def register(page, base, name):
    page.goto(base + "/accounts/register/")
    page.get_by_label("Player name").fill(name)
    page.get_by_label("E-mail address").fill(f"{name}@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(base + "/")


def rig_first_round(game: Game) -> None:
    """Deal low cards to both players in round 1 so that the game lasts two rounds or more."""
    rest = engine.full_deck()
    for value in LOW_FIRST_DEAL:
        rest.remove(value)
    random.Random(5).shuffle(rest)
    deck = LOW_FIRST_DEAL + rest
    rules = engine.Rules(**game.snapshot["rules"])
    game.snapshot = engine.to_snapshot(engine.Game(game.snapshot["players"], rules, deck=deck))
    game.save(update_fields=["snapshot"])
    Round.objects.filter(game=game, number=1).update(deck=deck)


def wait_version(pages, version):
    for page in pages:
        page.wait_for_selector(f'#board[data-version="{version}"]', state="attached")


def cell(page, seat, pos):
    return page.locator(f'#player-{seat} .cell[data-pos="{pos}"]')


def test_two_players_play_a_whole_game(daphne_server, browser, screenshot_dir):
    base = daphne_server
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ann, ben = pages = [c.new_page() for c in contexts]
    for page in pages:
        page.set_default_timeout(15_000)
    register(ann, base, "ann")
    register(ben, base, "ben")

    # Ann opens a lobby; Ben sees it appear in his live lobby list and sits down.
    ben.goto(base + "/lobbies/")
    ben.wait_for_selector("#conn, #lobby-list")
    ann.goto(base + "/lobbies/")
    ann.get_by_label("Name").fill("Friday night")
    ann.get_by_label("Seats").select_option("2")
    ann.get_by_label("End score").fill("10")
    ann.get_by_role("button", name="Create lobby").click()
    ann.wait_for_url(re.compile(r"/lobbies/\d+/$"))
    ben.get_by_role("link", name=re.compile("Friday night")).click()
    ben.locator("#lobby-panel[data-synced]").wait_for()  # the socket's first frame re-renders
    ben.get_by_role("button", name="Take a seat").click()
    ann.locator("#lobby-seats").get_by_text("ben").wait_for()
    ann.screenshot(path=screenshot_dir / "lobby-full.png", full_page=True)
    ann.get_by_role("button", name="Start the game").click()
    for page in pages:
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        page.wait_for_selector('#conn[data-state="open"]')
    game = Game.objects.get()
    rig_first_round(game)

    shots = set()
    took_discard = False
    for _step in range(600):
        game.refresh_from_db()
        state = engine.from_record(game_record(game))
        version = game.version
        if game.status == Game.Status.FINISHED:
            break
        if state.phase == engine.ROUND_OVER:
            wait_version(pages, version)
            if "round" not in shots:
                shots.add("round")
                assert ann.locator("#scores").is_visible()
                ann.screenshot(path=screenshot_dir / "game-round-end.png", full_page=True)
            seat = next(s for s in (0, 1) if s not in game.ready)
            pages[seat].locator("#act-ready").click()
            wait_version(pages, version + 1)
            continue
        if state.phase == engine.REVEAL_PHASE:
            seat = next(s for s in (0, 1) if len(state.log.reveals[s]) < 2)
            pos = next(p for p in range(12) if not state.up[seat][p])
            wait_version(pages, version)
            cell(pages[seat], seat, pos).click()
            wait_version(pages, version + 1)
            if "reveal" not in shots:
                shots.add("reveal")
                pages[seat].screenshot(path=screenshot_dir / "game-reveal.png", full_page=True)
            continue
        seat = state.current
        page, other = pages[seat], pages[1 - seat]
        wait_version(pages, version)
        face_down = [
            p for p in range(12) if not state.up[seat][p] and state.cards[seat][p] is not None
        ]
        if state.round > 1 and not took_discard:
            took_discard = True
            page.locator("#mode-discard").click()
            target = next(p for p in range(12) if state.cards[seat][p] is not None)
            cell(page, seat, target).click()
            wait_version(pages, version + 1)
            continue
        page.locator("#act-draw").click()
        wait_version(pages, version + 1)
        drawn = engine.from_record(game_record(Game.objects.get())).drawn
        assert page.locator("#drawn-card .card").get_attribute("data-v") == str(drawn)
        assert other.locator("#drawn-card").count() == 0
        if "draw" not in shots:
            shots.add("draw")
            page.screenshot(path=screenshot_dir / "game-private-draw.png", full_page=True)
            other.screenshot(
                path=screenshot_dir / "game-other-player-during-draw.png", full_page=True
            )
        if state.round == 1 and face_down:
            page.locator("#mode-flip").click()
            cell(page, seat, face_down[0]).click()
        else:
            target = (
                face_down[0]
                if face_down
                else next(p for p in range(12) if state.cards[seat][p] is not None)
            )
            cell(page, seat, target).click()
        wait_version(pages, version + 2)
    else:
        raise AssertionError("the game did not end")

    game.refresh_from_db()
    wait_version(pages, game.version)
    for page in pages:
        page.get_by_text("Game over").first.wait_for()
    assert {"reveal", "draw", "round"} <= shots
    assert state.round >= 2
    ann.screenshot(path=screenshot_dir / "game-over.png", full_page=True)
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, storage_state=contexts[1].storage_state()
    )
    small = phone.new_page()
    small.goto(f"{base}/games/{game.pk}/")
    small.screenshot(path=screenshot_dir / "game-over-phone.png", full_page=True)
    record = ann.request.get(f"{base}/games/{game.pk}/record.json").json()
    assert engine.from_record(record).finished
    ann.get_by_role("button", name="Rematch with the same players").click()
    # Ann, who asked, is taken to the rematch; Ben is offered it.
    ann.wait_for_url(lambda url: not url.endswith(f"/games/{game.pk}/"))
    ben.get_by_role("link", name="Go to the rematch").first.wait_for()
    for context in [*contexts, phone]:
        context.close()
