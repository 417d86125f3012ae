"""In real Chromium at 360×740 against a live Daphne: no page scrolls sideways, with 2, 4 and 8
players (running games against bots, finished games, their replays), and the game-over screen
shows the winner first. Screenshots: test-artifacts/screenshots/phone-*.png."""

import time
from itertools import pairwise

import pytest

from conftest import PASSWORD
from games import engine, publish, services
from games.models import Game
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
# Long names are the hard case for a narrow screen (a username may hold 150 characters).
NAMES = ["alice", "bartholomew_vonlongname", "carol", "dimitrios_papadopoulos", "eve", "fay", "gus"]

OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  return [...document.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > width + 1)
    .slice(0, 5)
    .map(e => `${e.tagName.toLowerCase()}#${e.id}.${[...e.classList].join(".")}`);
}"""


def finish_quickly(game, users, *, round_only: bool = False) -> None:
    """Play ``game`` to its end (``round_only``: to the end of its round) through the
    services, turning a card on every turn (the shortest way to end a round)."""
    for _ in range(1000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        state = engine.from_snapshot(game.snapshot)
        if state.phase == engine.ROUND_OVER:
            if round_only:
                return
            for user in users:
                services.game_set_ready(game_id=game.pk, user=user)
            continue
        seat = state.to_act()[0]
        legal = [a.to_json() for a in state.legal_actions(seat)]
        action = next((a for a in legal if "flip" in a or a == {"take": "deck"}), legal[0])
        services.game_apply_action(
            game_id=game.pk, user=users[seat], action=action, version=game.version
        )
    raise AssertionError("the game did not end")


def wait_for_turn(game, seat: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game.refresh_from_db()
        state = engine.from_snapshot(game.snapshot)
        if state.phase == engine.PLAY and state.current == seat and state.drawn is None:
            return
        time.sleep(0.1)
    raise AssertionError(f"seat {seat} did not get the turn")


def holding_a_drawn_card(user):
    """A game of ``user`` against three medium bots (played by the live server's runner), at
    ``user``'s first turn, with a card drawn from the deck."""
    game = services.bot_game_create(user=user, bots=3, level="medium")
    for pos in (0, 1):
        game.refresh_from_db()
        services.game_apply_action(
            game_id=game.pk, user=user, action={"reveal": pos}, version=game.version
        )
    wait_for_turn(game, seat=0)
    game.refresh_from_db()
    services.game_apply_action(
        game_id=game.pk, user=user, action={"take": "deck"}, version=game.version
    )
    return game


def test_no_page_scrolls_sideways_on_a_phone(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    base = daphne_server
    # Games set up here are seen by the pages; nobody listens to this process's pushes.
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    users = [django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD) for n in NAMES]
    alice = users[0]
    pages = {
        "home": "/",
        "lobbies": "/lobbies/",
        "rules": "/rules/",
        "players": "/players/",
        "settings": "/accounts/settings/",
        "password-change": "/accounts/password_change/",
        "report-player": "/report/player/carol/",
    }
    for count in (2, 4, 8):
        running = services.bot_game_create(user=alice, bots=count - 1, level="medium")
        pages[f"game-{count}-bots"] = f"/games/{running.pk}/"
        if count == 4:  # alice has revealed and holds a drawn card: the widest controls
            drawing = running
        humans = [users[i % len(users)] for i in range(count)]
        if count == 8:  # eight seats need eight people: one more
            humans[-1] = django_user_model.objects.create_user("hannelore_schmidt", "h@x.org")
        finished = start_game(*humans, end_score=1)
        finish_quickly(finished, humans)
        pages[f"game-over-{count}"] = f"/games/{finished.pk}/"
        pages[f"replay-{count}-end"] = f"/games/{finished.pk}/replay/?step=9999"
    pages["replay-8-middle"] = f"/games/{finished.pk}/replay/?step=30"
    lobby = services.lobby_create(host=alice, name="A table with a rather long name", seat_count=8)
    for seat in (1, 2, 3):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=seat, level="strong")
    pages["lobby-8"] = f"/lobbies/{lobby.pk}/"
    pages["profile"] = "/u/alice/"
    private = services.lobby_create(host=users[1], name="Secret", seat_count=2, is_public=False)
    pages["not-found"] = f"/lobbies/{private.pk}/"

    for pos in (0, 1):
        drawing.refresh_from_db()
        services.game_apply_action(
            game_id=drawing.pk, user=alice, action={"reveal": pos}, version=drawing.version
        )
    wait_for_turn(drawing, seat=0)  # the bot runner of the live server plays the bots
    drawing.refresh_from_db()
    services.game_apply_action(
        game_id=drawing.pk, user=alice, action={"take": "deck"}, version=drawing.version
    )
    pages["game-4-bots-drawn"] = f"/games/{drawing.pk}/"

    context = logged_in_context(browser, base, alice, viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    overflowing = {}
    for name, url in pages.items():
        page.goto(base + url)
        if page.locator("[ws-connect]").count():
            page.locator("[ws-connect][data-synced]").wait_for()
        page.screenshot(path=screenshot_dir / f"phone-{name}.png", full_page=True)
        found = page.evaluate(OVERFLOW)
        if found:
            overflowing[name] = found
        if name == "game-4-bots-drawn":
            assert page.locator("#controls .drawn").count() == 1
        if name.startswith("game-over"):  # the winner's line and row come first
            page.screenshot(path=screenshot_dir / f"phone-{name}-first-screen.png")
            assert page.locator(".game-over-title").bounding_box()["y"] < PHONE["height"]
            first = page.locator(".score-table tbody tr").first
            assert "is-winner" in first.get_attribute("class")
    context.close()

    anonymous = browser.new_context(viewport=PHONE)
    page = anonymous.new_page()
    for name, url in {"register": "/accounts/register/", "login": "/accounts/login/"}.items():
        page.goto(base + url)
        page.screenshot(path=screenshot_dir / f"phone-{name}.png", full_page=True)
        if found := page.evaluate(OVERFLOW):
            overflowing[name] = found
    anonymous.close()
    assert overflowing == {}


IN_VIEW = """() => {
  const box = document.getElementById("flash").getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def test_an_error_shows_where_a_phone_player_is_looking(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    base = daphne_server
    # The page does not hear of the move made beside it below, so its tap is on a stale version.
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    game = holding_a_drawn_card(alice)

    context = logged_in_context(browser, base, alice, viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/games/{game.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    game.refresh_from_db()
    services.game_apply_action(  # the same turn, from another device
        game_id=game.pk, user=alice, action={"swap": 5}, version=game.version
    )
    page.locator('.cell.pickable[data-seat="0"][data-pos="11"]').click()
    page.locator("#flash[data-code='stale_version']").wait_for()
    assert page.evaluate(IN_VIEW), "the error is off-screen after the tap"
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate(IN_VIEW), "the error is off-screen at the bottom of the board"
    page.screenshot(path=screenshot_dir / "phone-error-after-tap.png")
    context.close()


# What sticks out: past the screen's right edge, or out of its own box (text that does not
# wrap pokes out of its narrow box without moving any box: a wide screen has room for it);
# not what a box that scrolls or clips holds (a wide score table scrolls inside its own box).
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const held = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
    if (getComputedStyle(a).overflowX !== "visible") return true; return false; };
  return [...document.querySelectorAll("body *")].filter(e => {
    const box = e.getBoundingClientRect();
    if (box.width === 0 || held(e)) return false;
    const text = [...e.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.data.trim());
    const spills = text && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
      && getComputedStyle(e).overflowX === "visible";
    return box.right > width + 1 || spills;
  }).slice(0, 5).map(e => `${e.tagName.toLowerCase()}#${e.id}.${[...e.classList].join(".")}`);
}"""


def test_a_name_of_the_longest_kind_stays_inside_the_pages(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    """A valid name of 24 characters with no place to break it (the most a new name may hold)
    must wrap, on a phone and on a computer: in the lobby list, and on the game page while its
    player holds a drawn card (turn pill, pile, prompt, last moves), has revealed every card
    (the final banner) and has won."""
    base = daphne_server
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    longest = django_user_model.objects.create_user("W" * 24, "w@example.com", PASSWORD)
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    users = [longest, alice]
    game = start_game(longest, alice, end_score=1)
    services.lobby_create(host=longest, name="Open table", seat_count=3)

    def step(until) -> None:
        """Play through the services until ``until(state)``: the long name turns a card on
        each turn (it ends the round), alice swaps her first card (she never does)."""
        for _ in range(200):
            game.refresh_from_db()
            state = engine.from_snapshot(game.snapshot)
            if until(state):
                return
            if state.phase == engine.ROUND_OVER:
                for user in users:
                    services.game_set_ready(game_id=game.pk, user=user)
                continue
            if state.phase == engine.REVEAL_PHASE:
                seat = state.to_act()[0]
                action = state.legal_actions(seat)[0].to_json()
            else:
                seat = state.current
                legal = [a.to_json() for a in state.legal_actions(seat)]
                if state.drawn is None:
                    action = {"take": "deck"}
                else:
                    flips = [a for a in legal if "flip" in a]
                    action = flips[0] if seat == 0 and flips else {"swap": 0}
            services.game_apply_action(
                game_id=game.pk, user=users[seat], action=action, version=game.version
            )
        raise AssertionError("the game did not get there")

    def stuck_out(moment: str) -> None:
        for size, viewport in {"phone": PHONE, "computer": {"width": 1280, "height": 900}}.items():
            context = logged_in_context(browser, base, alice, viewport=viewport)
            page = context.new_page()
            page.set_default_timeout(15_000)
            urls = {moment: f"/games/{game.pk}/"}
            if moment == "drawn":
                urls["lobbies"] = "/lobbies/"
            for name, url in urls.items():
                page.goto(base + url)
                page.locator("[ws-connect][data-synced]").first.wait_for()
                page.screenshot(path=screenshot_dir / f"longest-{name}-{size}.png", full_page=True)
                if found := page.evaluate(STICKING_OUT):
                    overflowing[f"{name} on a {size}"] = found
            context.close()

    overflowing = {}
    step(lambda state: state.phase == engine.PLAY and state.current == 0 and state.drawn)
    stuck_out("drawn")
    step(lambda state: state.phase == engine.FINAL)
    stuck_out("final")
    step(lambda state: state.phase == engine.GAME_OVER)
    stuck_out("game-over")
    assert overflowing == {}


CARD_WIDTHS = """() => [...document.querySelectorAll("#board .cell")].map(c => ({
  seat: c.dataset.seat, width: c.getBoundingClientRect().width}))"""


@pytest.mark.parametrize("players", [2, 3])
def test_a_phone_player_at_a_small_table_sees_cards_big_enough_to_read_and_tap(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch, players
):
    """With 2 or 3 players a phone centres each grid in a narrower column: the cards keep
    their size there (the player's own across the screen, the others' two to a row)."""
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    users = [
        django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
        for n in NAMES[:players]
    ]
    game = start_game(*users)
    context = logged_in_context(browser, daphne_server, users[0], viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{daphne_server}/games/{game.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    page.screenshot(path=screenshot_dir / f"phone-cards-{players}-players.png", full_page=True)
    widths = page.evaluate(CARD_WIDTHS)
    assert len(widths) == 12 * players
    mine = [c["width"] for c in widths if c["seat"] == "0"]
    theirs = [c["width"] for c in widths if c["seat"] != "0"]
    assert min(mine) >= 60, f"the player's own cards are {min(mine):.0f} px wide"
    assert min(theirs) >= 30, f"the other players' cards are {min(theirs):.0f} px wide"
    context.close()


# The game history's result column is read, not scrolled to.
HISTORY_FITS = """() => {
  const table = document.querySelector("table.history");
  return table.offsetWidth <= table.parentElement.clientWidth;
}"""


def test_no_page_scrolls_sideways_on_a_phone_in_any_language(
    daphne_server, browser, django_user_model, monkeypatch
):
    """Longer words than English ("Ergebnis", "Gemeinsame Partien", "Nauwkeurigheid"): the
    profile's game history and the game-over screen's analysis still fit 360 px."""
    from analysis.services import analysis_compute

    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    alice, bob = (
        django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
        for n in ("alice", "bob")
    )
    finished = start_game(alice, bob, end_score=1)
    finish_quickly(finished, [alice, bob])
    analysis_compute(game_id=finished.pk)
    pages = {
        "profile": "/u/alice/",
        "other-profile": "/u/bob/",
        "game-over": f"/games/{finished.pk}/",
        "replay": f"/games/{finished.pk}/replay/",
        "players": "/players/",
        "lobbies": "/lobbies/",
    }
    overflowing = {}
    for language in ("de", "fr", "nb", "nl", "sv"):
        alice.language = language
        alice.save(update_fields=["language"])
        context = logged_in_context(browser, daphne_server, alice, viewport=PHONE)
        page = context.new_page()
        page.set_default_timeout(15_000)
        for name, url in pages.items():
            page.goto(daphne_server + url)
            if page.locator("[ws-connect]").count():
                page.locator("[ws-connect][data-synced]").wait_for()
            if found := page.evaluate(OVERFLOW):
                overflowing[f"{language} {name}"] = found
            if name == "profile" and not page.evaluate(HISTORY_FITS):
                overflowing[f"{language} {name}"] = ["table.history scrolls in its box"]
        context.close()
    assert overflowing == {}


def start_player(game) -> int:
    game.refresh_from_db()
    return engine.from_snapshot(game.snapshot).current


# The table bar's shown pile labels as boxes, left to right, each with its pile's box.
PILES = """() => [...document.querySelectorAll("#game .piles .pile")].filter((p) => p.offsetParent)
  .map((p) => [p.getBoundingClientRect(), p.querySelector(".pile-label").getBoundingClientRect()])
  .filter(([, l]) => l.width > 1)  // else read by screen readers only
  .map(([p, l]) => ({pile: [p.left, p.right], label: [l.left, l.right]}))"""


def test_the_piles_labels_keep_their_words_whole_in_german_on_a_phone(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    """The longest pile label ("Ablagestapel") widens its pile rather than running into the
    next one, and the drawn card's holder is said by the prompt, not under the card."""
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    ann, bob = (
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("ann", "bob")
    )
    ann.language = "de"
    ann.save(update_fields=["language"])
    game = start_game(ann, bob)
    for seat, user in ((0, ann), (0, ann), (1, bob), (1, bob)):
        game.refresh_from_db()
        position = engine.from_snapshot(game.snapshot).legal_actions(seat)[0].to_json()
        services.game_apply_action(
            game_id=game.pk, user=user, action=position, version=game.version
        )
    moves = [{"take": "deck"}, {"swap": 0}] if start_player(game) == 0 else []
    for action in [*moves, {"take": "deck"}]:  # bob holds a drawn card
        game.refresh_from_db()
        user = (ann, bob)[start_player(game)]
        services.game_apply_action(game_id=game.pk, user=user, action=action, version=game.version)
    context = logged_in_context(browser, daphne_server, ann, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{daphne_server}/games/{game.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    page.screenshot(path=screenshot_dir / "piles-german-phone.png")
    piles = page.evaluate(PILES)
    assert len(piles) == 2  # the drawn card's is not shown
    for pile in piles:
        assert pile["pile"][0] <= pile["label"][0] and pile["label"][1] <= pile["pile"][1]
    assert all(a["label"][1] <= b["label"][0] for a, b in pairwise(piles))
    assert "Ablagestapel" in page.locator("#game .piles").inner_text()
    context.close()
