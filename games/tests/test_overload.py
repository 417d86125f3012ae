"""Overload degrades, never loses: a real Daphne process gets more moves than it can serve.

Twenty 4-player games play on one server process as fast as their sockets allow, with a low
``SKYJO_MAX_PENDING_FRAMES`` so that it sheds load. Each game's client behaves as
docs/protocol.md asks: it waits for each answer, sends a ``busy`` frame again after a growing
pause, and resyncs when an answer does not come. Then every acknowledged move must be stored,
every socket must hold its game's final state (the one ``state.json`` serves), and no game may
be stuck.
"""

import asyncio
import json
import random
import urllib.request

import pytest
from channels.db import database_sync_to_async as db
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from websockets.asyncio.client import connect as ws_connect

from games import engine
from games.models import Move
from games.tests.helpers import start_game
from games.tests.live import DEPLOYED_TIMEOUTS, daphne, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GAMES = 20
SEATS = 4
CHANGES = 12  # per game: the 8 reveals, then turns
PENDING = 3  # frames in flight per process before `busy`
ANSWER_TIMEOUT = 30  # seconds to wait for an answer before resyncing


class Sock:
    """One seat's JSON game socket; a reader task keeps its latest state and its errors."""

    def __init__(self, port: int, game_id: int, seat: int, cookie: str):
        self.port, self.game_id, self.seat, self.cookie = port, game_id, seat, cookie
        self.state: dict = {}
        self.states = 0  # state frames received
        self.errors: list[str] = []
        self.changed = asyncio.Event()

    @property
    def version(self) -> int:
        return self.state.get("version", -1)

    async def open(self) -> None:
        self.ws = await ws_connect(
            f"ws://127.0.0.1:{self.port}/ws/games/{self.game_id}/?format=json",
            additional_headers={"Cookie": self.cookie},
            origin=f"http://127.0.0.1:{self.port}",
            open_timeout=60,
            max_queue=None,
        )
        self.take(await asyncio.wait_for(self.ws.recv(), 60))
        self.reader = asyncio.create_task(self.read())

    def take(self, text: str) -> None:
        frame = json.loads(text)
        if "error" in frame:
            self.errors.append(frame["error"]["code"])
        elif "players" in frame:
            self.states += 1
            if frame["version"] >= self.version:
                self.state = frame
        self.changed.set()

    async def read(self) -> None:
        async for text in self.ws:
            self.take(text)

    async def send(self, data: dict) -> None:
        await self.ws.send(json.dumps(data))

    async def wait(self, done, timeout: float) -> bool:
        """Wait until ``done()`` holds; False after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not done():
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), deadline - loop.time())
            except TimeoutError:
                return False
        return True


def legal(frame: dict, seat: int) -> list[dict]:
    grid = frame["players"][seat]["grid"]
    actions = engine.legal_actions(
        phase=frame["phase"],
        current=frame["current"],
        seat=seat,
        drawn=frame["drawn"] is not None,
        revealed=sum(1 for c in grid if c != engine.HIDDEN and c is not None),
        face_down=[c == engine.HIDDEN for c in grid],
        removed=[c is None for c in grid],
    )
    return [a.to_json() for a in actions]


class Client:
    """One game's four seats, played as docs/protocol.md asks of a client."""

    def __init__(self, socks: list[Sock], rng: random.Random):
        self.socks, self.rng = socks, rng
        self.acknowledged: list[tuple[int, int, dict]] = []  # (version, seat, action)
        self.applied = 0  # versions this client's frames added (moves and readies)
        self.busy = 0
        self.resyncs = 0

    async def request(self, sock: Sock, frame: dict, done) -> bool:
        """Send ``frame`` until it is answered: True once ``done()``, False on a refusal."""
        pause = 0.05
        while True:
            errors = len(sock.errors)
            await sock.send(frame)
            answered = await sock.wait(
                lambda n=errors: done() or len(sock.errors) > n, ANSWER_TIMEOUT
            )
            if answered and done():
                return True
            if answered and sock.errors[errors:] == ["busy"]:
                self.busy += 1
                await asyncio.sleep(pause * (0.5 + self.rng.random()))
                pause = min(pause * 2, 1.0)
                continue
            if answered:
                return False  # refused by the rules or the version: resync and choose again
            await self.resync()
            return done()

    async def resync(self) -> None:
        self.resyncs += 1
        for sock in self.socks:
            before = sock.states
            await self.request(sock, {"sync": True}, lambda s=sock, n=before: s.states > n)

    async def settle(self) -> None:
        """Until every seat holds the same version (pushes may still be on their way)."""
        while True:
            top = max(s.version for s in self.socks)
            waits = [s.wait(lambda s=s, t=top: s.version >= t, ANSWER_TIMEOUT) for s in self.socks]
            if all(await asyncio.gather(*waits)):
                return
            await self.resync()

    async def play(self) -> None:
        changes = 0
        while changes < CHANGES:
            await self.settle()
            view = self.socks[0].state
            version = view["version"]
            if view["phase"] == engine.GAME_OVER:
                return
            if view["phase"] == engine.ROUND_OVER:
                for sock in self.socks:
                    before = sock.version
                    if await self.request(
                        sock, {"ready": True}, lambda s=sock, v=before: s.version > v
                    ):
                        self.applied += 1
                        changes += 1
                continue
            movers = [s for s in self.socks if legal(s.state, s.seat)]
            sock = self.rng.choice(movers)
            action = self.rng.choice(legal(sock.state, sock.seat))
            if await self.request(
                sock, {**action, "version": version}, lambda s=sock, v=version: s.version > v
            ):
                self.acknowledged.append((version + 1, sock.seat, action))
                self.applied += 1
                changes += 1


def _make_games() -> list[tuple[int, list[str]]]:
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"over{i}", password=make_password(None))
        for i in range(GAMES * SEATS)
    )
    games = []
    for g in range(GAMES):
        seated = users[g * SEATS : (g + 1) * SEATS]
        game = start_game(*seated, disconnect_grace=3600)  # no seat counts as away meanwhile
        games.append((game.pk, [session_cookie(u) for u in seated]))
    return games


def _state_json(port: int, game_id: int, cookie: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/games/{game_id}/state.json", headers={"Cookie": cookie}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _stored_moves(game_id: int) -> set[tuple[int, int, str]]:
    return {
        (version, seat, json.dumps(action, sort_keys=True))
        for version, seat, action in Move.objects.filter(game_id=game_id).values_list(
            "version", "seat", "action"
        )
    }


async def test_overload_sheds_load_and_loses_no_acknowledged_move(settings):
    settings.SKYJO_MAX_PENDING_FRAMES = PENDING
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    games = await db(_make_games)()
    rng = random.Random(8)
    # Daphne as docs/deployment.md runs it: a 30 s handshake limit (its 5 s default closes
    # handshakes on a loaded machine before the overload even starts).
    async with daphne(**DEPLOYED_TIMEOUTS) as port:
        clients = []
        for game_id, cookies in games:
            socks = [Sock(port, game_id, seat, cookie) for seat, cookie in enumerate(cookies)]
            clients.append(Client(socks, random.Random(rng.random())))
        all_socks = [s for c in clients for s in c.socks]
        gate = asyncio.Semaphore(20)  # handshakes in waves, as browsers arrive

        async def open_one(sock):
            async with gate:
                await sock.open()

        await asyncio.wait_for(asyncio.gather(*(open_one(s) for s in all_socks)), 300)
        # Every game at once, each as fast as its answers come: more than the process serves.
        await asyncio.wait_for(asyncio.gather(*(c.play() for c in clients)), 600)
        for client in clients:  # every socket catches up with its game's final state
            await asyncio.wait_for(client.settle(), 300)
        finals = {}
        for game_id, cookies in games:
            finals[game_id] = [
                await asyncio.to_thread(_state_json, port, game_id, cookie) for cookie in cookies
            ]
        for sock in all_socks:
            await sock.ws.close()

    assert sum(c.busy for c in clients) > 0, "the server never shed load: not overloaded"
    for (game_id, _), client in zip(games, clients, strict=True):
        assert client.applied >= CHANGES or finals[game_id][0]["phase"] == engine.GAME_OVER
        stored = await db(_stored_moves)(game_id)
        for version, seat, action in client.acknowledged:
            assert (version, seat, json.dumps(action, sort_keys=True)) in stored
        for sock, final in zip(client.socks, finals[game_id], strict=True):
            assert sock.state == final, f"game {game_id} seat {sock.seat} is not at the end"
        # Nothing applied that its client did not see acknowledged, nothing acknowledged lost.
        assert final["version"] == client.applied
