"""In real Chromium against a live Daphne: an audit with the current axe-core (vendor/) of
every page, the game in each phase and the replay, with no serious or critical violation; and
a whole turn played with the keyboard alone, heard through the live region."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import PASSWORD
from core.access import sync_group
from games import engine, services
from games.models import Game
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import play_to_end, restore, start_game

pytestmark = pytest.mark.e2e

AXE = Axe.from_file(Path(__file__).parent / "vendor" / "axe.min.js")
BLOCKING = ("serious", "critical")


def audit(page, name: str, screenshot_dir=None) -> list[str]:
    """The serious and critical axe-core violations on the page as it is now; a game page once
    its socket's first frame is in (a swap during the audit would be measured half done)."""
    if page.locator("#game[ws-connect]").count():
        page.locator("#game[ws-connect][data-synced]").wait_for()
    if screenshot_dir is not None:
        page.screenshot(path=screenshot_dir / f"a11y-{name}.png", full_page=True)
    violations = AXE.run(page).response["violations"]
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        f" ({' / '.join(check['message'] for n in v['nodes'][:3] for check in n['any'])})"
        for v in violations
        if v["impact"] in BLOCKING
    ]
    return [f"{name}: {b}" for b in bad]


def wait_version(page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#board')?.dataset.version) >= v", arg=version
    )


def focused(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches ``selector`` (the keyboard alone)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def finish_round(game: Game, users, until=(engine.ROUND_OVER, engine.GAME_OVER)) -> None:
    """Through the services: each turn draws and turns a face-down card (else swaps), until
    the round is over (or another phase of ``until``)."""
    for _ in range(200):
        state = restore(game)
        if state.phase in until:
            return
        seat = state.current
        services.game_apply_action(
            game_id=game.pk, user=users[seat], action={"take": "deck"}, version=game.version
        )
        state = restore(game)
        down = [p for p in range(12) if not state.up[seat][p]]
        action = (
            {"flip": down[0]}
            if down
            else {
                "swap": state.cards[seat].index(next(c for c in state.cards[seat] if c is not None))
            }
        )
        services.game_apply_action(
            game_id=game.pk, user=users[seat], action=action, version=game.version
        )
    raise AssertionError("the round did not end")


def test_every_page_passes_axe_and_a_turn_is_played_by_keyboard(
    daphne_server, browser, screenshot_dir, django_user_model
):
    base = daphne_server
    alice, bob = (
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob")
    )

    problems = []
    # Pages without an account.
    anonymous = browser.new_context(viewport={"width": 1280, "height": 900})
    page = anonymous.new_page()
    page.set_default_timeout(15_000)
    for path, name in (
        ("/accounts/login/", "login"),
        ("/accounts/register/", "register"),
        ("/accounts/password_reset/", "password-reset"),
    ):
        page.goto(base + path)
        problems += audit(page, name)
    anonymous.close()

    ctx_a = logged_in_context(browser, base, alice, viewport={"width": 1280, "height": 900})
    ctx_b = logged_in_context(browser, base, bob, viewport={"width": 1280, "height": 900})
    ann, ben = ctx_a.new_page(), ctx_b.new_page()
    for p in (ann, ben):
        p.set_default_timeout(15_000)
    open_lobby = services.lobby_create(host=alice, name="Open table", seat_count=3, end_score=100)
    for path, name in (
        ("/", "home"),
        ("/lobbies/", "lobbies"),
        (f"/lobbies/{open_lobby.pk}/", "lobby"),
        ("/rules/", "rules"),
        ("/players/", "players"),
        ("/u/alice/", "profile"),
        ("/accounts/settings/", "settings"),
        ("/accounts/password_change/", "password-change"),
        ("/accounts/delete/", "delete-account"),
        ("/report/player/bob/", "report"),
        ("/games/999999/", "not-found"),
        ("/moderation/", "forbidden"),
    ):
        ann.goto(base + path)
        problems += audit(ann, name)
    services.lobby_leave(lobby_id=open_lobby.pk, user=alice)

    # The game: reveal phase. Ann turns her two cards with the keyboard alone.
    game = start_game(alice, bob, end_score=500)
    url = f"{base}/games/{game.pk}/"
    for p in (ann, ben):
        p.goto(url)
        p.wait_for_selector('#conn[data-state="open"]')
    problems += audit(ann, "game-reveal", screenshot_dir)
    tab_to(ann, "#player-0 .cell")
    assert focused(ann) == "cell-0-0"
    ann.keyboard.press("Enter")
    wait_version(ann, 1)
    assert focused(ann) == "cell-0-0"  # the board was replaced; the focus stayed on the card
    assert "alice turned up" in ann.locator("#announce").inner_text()
    ann.keyboard.press("ArrowRight")
    assert focused(ann) == "cell-0-1"
    ann.keyboard.press(" ")
    wait_version(ann, 2)
    assert focused(ann) == "cell-0-1"
    ben.locator("#cell-1-0").click()
    wait_version(ben, 3)
    ben.locator("#cell-1-1").click()
    wait_version(ann, 4)
    assert "starts the round" in ann.locator("#announce").inner_text()

    game.refresh_from_db()
    if restore(game).current == 1:  # Ben starts: his turn, heard on Ann's page
        ben.locator("#act-draw").click()
        wait_version(ben, 5)
        ben.locator("#cell-1-5").click()
        wait_version(ann, 6)
        heard = ann.locator("#announce").inner_text()
        assert heard.startswith("bob drew ") and "It is your turn." in heard
        assert ann.locator("#move-log li").first.inner_text() in heard

    # Ann's whole turn by keyboard: Tab to "Draw a card", Enter; the focus goes to a card she
    # may pick; an arrow key and Enter swap the drawn card in.
    game.refresh_from_db()
    version = game.version
    problems += audit(ann, "game-playing", screenshot_dir)
    tab_to(ann, "#act-draw")
    ann.keyboard.press("Enter")
    wait_version(ann, version + 1)
    assert ann.evaluate("document.activeElement.matches('#player-0 .cell.pickable')")
    assert "playable" in ann.evaluate("document.activeElement.getAttribute('aria-label')")
    drawn = ann.locator("#drawn-card .card").get_attribute("data-v")
    heard = ann.locator("#announce").inner_text()
    assert heard == f"alice drew a card from the draw pile. You drew {drawn}."  # still her turn
    problems += audit(ann, "game-drawn-card", screenshot_dir)
    start = focused(ann)
    ann.keyboard.press("ArrowDown")
    target = focused(ann)
    assert target != start and target.startswith("cell-0-")
    ann.keyboard.press("Enter")
    wait_version(ann, version + 2)
    assert focused(ann) == target
    heard = ann.locator("#announce").inner_text()
    assert heard.startswith(f"alice drew {drawn} and swapped it for ")
    assert heard.endswith("It is bob's turn.")
    assert ann.locator(f"#{target}.just-changed").count() == 1
    assert ann.locator("#move-log li").first.inner_text() in heard
    ann.screenshot(path=screenshot_dir / "a11y-after-keyboard-turn.png", full_page=True)
    changed = f"getComputedStyle(document.querySelector('#{target} .card')).animationDuration"
    assert ann.evaluate(changed) != "0s"  # highlighted for a moment...
    ann.emulate_media(reduced_motion="reduce")
    assert float(ann.evaluate(changed).rstrip("s")) < 0.001  # ...but nothing moves on request
    ann.emulate_media(reduced_motion="no-preference")
    phone = logged_in_context(browser, base, alice, viewport={"width": 360, "height": 740})
    small = phone.new_page()
    small.goto(url)
    small.locator("#move-log").wait_for()
    small.screenshot(path=screenshot_dir / "a11y-game-phone.png", full_page=True)
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.close()

    # The last turns, then the round over (played on by the services; the page loaded again).
    finish_round(game, [alice, bob], until=(engine.FINAL,))
    ann.goto(url)
    ann.locator("#final-banner").wait_for()
    problems += audit(ann, "game-last-turns")
    finish_round(game, [alice, bob])
    game.refresh_from_db()
    assert game.phase == engine.ROUND_OVER
    ann.goto(url)
    ann.locator("#scores").wait_for()
    assert "is over:" in ann.locator("#move-log li").first.inner_text()
    problems += audit(ann, "game-round-over", screenshot_dir)

    # Game over and its replay: a short game of its own.
    short = start_game(alice, bob, end_score=10)
    play_to_end(short, [alice, bob], seed=2)
    ann.goto(f"{base}/games/{short.pk}/")
    ann.get_by_text("Game over").first.wait_for()
    problems += audit(ann, "game-over", screenshot_dir)
    ann.goto(f"{base}/games/{short.pk}/replay/?step=9")
    problems += audit(ann, "replay", screenshot_dir)

    # A moderator's pages.
    maud = django_user_model.objects.create_user("maud", "maud@example.com", PASSWORD)
    maud.groups.add(sync_group())
    maud.is_staff = True
    maud.save(update_fields=["is_staff"])
    ctx_m = logged_in_context(browser, base, maud, viewport={"width": 1280, "height": 900})
    mod = ctx_m.new_page()
    mod.set_default_timeout(15_000)
    for path, name in (
        ("/moderation/", "moderation-queue"),
        ("/moderation/log/", "moderation-log"),
        ("/moderation/players/alice/", "moderation-player"),
        (f"/moderation/games/{short.pk}/", "moderation-game"),
    ):
        mod.goto(base + path)
        problems += audit(mod, name)
    for context in (ctx_a, ctx_b, ctx_m):
        context.close()
    assert not problems, "\n".join(problems)
