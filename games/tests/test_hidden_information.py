"""Whole games over websockets: every frame each socket receives shows exactly what its
reader may see. No face-down value, no draw pile order, no other player's drawn card."""

import json
import random
import re

import pytest

from games import engine, publish
from games.models import Game
from games.tests.helpers import start_game
from games.tests.ws import db, game_socket, send

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def html_cards(html: str, seat: int) -> list[str]:
    block = html.split(f'id="player-{seat}"')[1].split("</section>")[0]
    return re.findall(r'data-v="([^"]*)"', block)


def check_html(html: str, view: engine.View, version: int) -> None:
    assert f'data-version="{version}"' in html
    for seat, grid in enumerate(view.grids):
        assert html_cards(html, seat) == [str(v) for v in grid if v is not None]
    extra = 1 if view.discard_top is not None else 0
    if view.drawn is not None:
        drawn_block = html.split('id="drawn-card"')[1]
        assert re.search(r'data-v="([^"]*)"', drawn_block).group(1) == str(view.drawn)
        extra += 1
    else:
        assert 'id="drawn-card"' not in html
    shown = sum(1 for v in view.grids for c in v if c is not None)
    assert len(re.findall(r"data-v=", html)) == shown + extra


def check_group_message(message: dict, state: engine.Game) -> None:
    public = engine.view_of(state, None)
    assert set(message) == {"type", "game", "version", "drawer", "away", "frame", "data"}
    data = json.loads(message["data"])
    assert set(data) == {"view", "meta", "event"}
    view = data["view"]
    assert view["drawn"] is None and view["seat"] is None
    assert view["grids"] == [list(g) for g in public.grids]
    frame = json.loads("null".join(message["frame"]))  # as a socket with no drawn card sends it
    assert frame["drawn"] is None
    assert [p["grid"] for p in frame["players"]] == [list(g) for g in public.grids]
    assert "deck" not in str(data["meta"]) and "draw_pile" not in str(message)


@pytest.mark.parametrize("seed", [1, 2])
async def test_every_frame_shows_only_what_its_reader_may_see(
    alice, bob, charlie, django_user_model, monkeypatch, settings, seed
):
    settings.RATELIMIT_ENABLE = False  # whole games at machine speed; limits: test_consumers_flood
    dave = await django_user_model.objects.acreate(username="dave")
    players = [alice, bob, charlie]
    game = await db(start_game)(*players, end_score=25)
    sent = []
    original = publish._send
    monkeypatch.setattr(publish, "_send", lambda g, m: (sent.append(m), original(g, m)))

    readers = [(u, s) for s, u in enumerate(players)] + [(dave, None)]
    sockets = []
    for user, seat in readers:
        for fmt in ("json", "html"):
            comm, first = await game_socket(user, game.pk, fmt)
            sockets.append((comm, seat, fmt))
    rng = random.Random(seed)
    steps = 0
    while True:
        row = await Game.objects.aget(pk=game.pk)
        state = engine.from_snapshot(row.snapshot)
        if row.status != Game.Status.PLAYING:
            break
        if state.phase == engine.ROUND_OVER:
            seat = next(s for s in range(3) if s not in row.ready)
            message = {"ready": True}
        else:
            seat = rng.choice(state.to_act())
            view = engine.view_of(state, seat)
            message = {**rng.choice(view.legal_actions()).to_json(), "version": row.version}
        actor = next(c for c, s, f in sockets if s == seat and f == "json")
        await send(actor, message)
        frames = [(await comm.receive_from(timeout=10), s, f) for comm, s, f in sockets]
        row = await Game.objects.aget(pk=game.pk)
        state = engine.from_snapshot(row.snapshot)
        check_group_message(sent[-1], state)
        for text, s, fmt in frames:
            view = engine.view_of(state, s)
            if fmt == "json":
                assert json.loads(text) == {**view.to_json(), "version": row.version}, text
            else:
                check_html(text, view, row.version)
        steps += 1
        assert steps < 3000
    assert state.finished and steps > 20
    for comm, _, _ in sockets:
        await comm.disconnect()
