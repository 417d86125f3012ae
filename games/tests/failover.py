"""Players that survive faults, and a table that checks every acknowledgement they saw.

Black-box helpers for the fault tests (a killed server process, a database restart): real
websocket clients speaking the JSON protocol of docs/protocol.md, nothing else.

- :class:`FailoverPlayer`: one seat's JSON game socket. When the socket closes it connects again
  by itself, to the next address of the shared ``servers`` list (as a browser behind a proxy
  whose upstream died lands on another process), and resumes from the full state frame that
  every new socket gets first.
- :class:`Table`: plays a whole game with its players, **one step at a time**, so that the
  step that takes the game from version ``v`` to ``v + 1`` is always the one the table sent:
  nobody else moves (no bots; a grace period longer than the test).

*Acknowledged*: a player sent a step with ``version: v`` and then received a state frame with
``version: v + 1`` (on the same socket, or on a new one after a reconnect or a ``sync``). That
frame is the only sign a client gets that its step is in; :meth:`Table.check_stored` demands
that each such step is stored as the move of version ``v + 1``, by that seat. A step answered by
an error (``unavailable``: the server could not reach its database) or by a lost socket is
settled by the next state frame: ``v`` means not applied (the table sends it again), ``v + 1``
means applied.
"""

import asyncio
import json
import time
from dataclasses import dataclass, field

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

RETRYABLE = {"unavailable", "busy"}  # a passing refusal: ask again after a moment
QUIET = 3.0  # seconds without the frame a player waits for before it asks for a sync
GIVE_UP = 60.0  # seconds a player keeps trying (to connect, to get an answer) before failing
SYNC = {"sync": True}


class Lost(Exception):
    """The socket closed; the player is connected again and holds a fresh state."""


@dataclass
class Outage:
    """One stretch a player spent without a socket: when it began and how long it took."""

    player: str
    seconds: float


class FailoverPlayer:
    """One seat's JSON game socket that reconnects by itself to the next server address."""

    def __init__(self, name: str, cookie: str, game_id: int, servers: list[int], first: int):
        self.name, self.cookie, self.game_id = name, cookie, game_id
        self.servers = servers  # shared with the test, which may change it (a new process)
        self.index = first
        self.ws = None
        self.state: dict | None = None
        self.outages: list[Outage] = []
        self.errors: list[dict] = []

    @property
    def port(self) -> int:
        return self.servers[self.index % len(self.servers)]

    async def connect(self) -> dict:
        """Connect to the current address, else the next ones in turn, until a server sends
        the first state frame; returns it."""
        delay, deadline = 0.05, time.monotonic() + GIVE_UP
        while True:
            try:
                self.ws = await ws_connect(
                    f"ws://127.0.0.1:{self.port}/ws/games/{self.game_id}/?format=json",
                    additional_headers={"Cookie": self.cookie},
                    origin=f"http://127.0.0.1:{self.port}",
                    open_timeout=5,
                )
                frame = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                if "version" in frame and "players" in frame:
                    self.state = frame
                    return frame
                self.errors.append(frame)  # e.g. "unavailable" before the state: try again
                await self.ws.close()
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} could not connect for {GIVE_UP} s")
            self.index += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)

    async def reconnect(self) -> dict:
        started = time.monotonic()
        self.index += 1  # the address that just failed is tried last
        state = await self.connect()
        self.outages.append(Outage(self.name, time.monotonic() - started))
        return state

    async def send(self, data: dict) -> None:
        """Send a frame; a closed socket raises :class:`Lost` once connected again."""
        try:
            await self.ws.send(json.dumps(data))
        except ConnectionClosed:
            await self.reconnect()
            raise Lost() from None

    async def receive(self, timeout: float = QUIET) -> dict | None:
        """The next frame (``None`` after ``timeout`` seconds of silence); a state frame also
        becomes :attr:`state`. A closed socket raises :class:`Lost` once connected again."""
        try:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        except TimeoutError:
            return None
        except ConnectionClosed:
            await self.reconnect()
            raise Lost() from None
        if "version" in frame and "players" in frame:
            self.state = frame
        elif "error" in frame:
            self.errors.append(frame)
        return frame

    async def sync(self) -> None:
        await self.send({"sync": True})

    async def until_version(self, version: int, timeout: float = 60) -> dict:
        """Wait until this player's state has ``version`` (asking for a sync after a quiet
        spell, and again after a passing error)."""
        deadline = time.monotonic() + timeout
        while self.state["version"] < version:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} stuck at {self.state['version']} < {version}")
            try:
                frame = await self.receive()
                if frame is None:
                    await self.sync()
                elif "error" in frame:
                    assert frame["error"]["code"] in RETRYABLE, frame
                    await asyncio.sleep(0.2)
                    await self.sync()
            except Lost:
                pass
        assert self.state["version"] == version, (self.name, self.state["version"], version)
        return self.state

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


@dataclass
class Step:
    version: int  # the version the step made (the one its acknowledgement carries)
    seat: int
    action: dict
    lost: bool = False  # the socket closed between sending it and seeing it applied


@dataclass
class Table:
    """Plays one game, one step at a time, with one :class:`FailoverPlayer` per seat."""

    players: list[FailoverPlayer]
    version: int = 0
    moves: list[Step] = field(default_factory=list)  # every applied move, acknowledged
    readies: list[Step] = field(default_factory=list)
    resent: int = 0  # steps sent again because the state showed them not applied
    after_send: object = None  # async hook(step_number, player), e.g. to kill a server

    async def open(self) -> None:
        for player in self.players:
            await player.connect()
        self.version = self.players[0].state["version"]

    async def play(self, max_steps: int = 5000) -> dict:
        """Play until the game is over; returns the final state."""
        ready_for: dict[int, set[int]] = {}
        for _ in range(max_steps):
            states = [await p.until_version(self.version) for p in self.players]
            public = [{k: v for k, v in s.items() if k != "drawn"} for s in states]
            assert all(p == public[0] for p in public), "players see different boards"
            state = states[0]
            if state["phase"] == "game_over":
                return state
            if state["phase"] == "round_over":
                done = ready_for.setdefault(state["round"], set())
                seat = min(set(range(len(self.players))) - done)
                await self.step(seat, {"ready": True}, self.readies)
                done.add(seat)
                continue
            seat, action = choose(states)
            await self.step(seat, action, self.moves)
        raise AssertionError(f"the game did not end in {max_steps} steps")

    async def step(self, seat: int, action: dict, log: list[Step]) -> None:
        """Send ``action`` for ``seat`` and wait for its acknowledgement (version + 1)."""
        player, before = self.players[seat], self.version
        frame_out = action if "ready" in action else {**action, "version": before}
        deadline = time.monotonic() + GIVE_UP
        lost = await self._send(player, frame_out)
        if self.after_send is not None:
            await self.after_send(len(self.moves) + len(self.readies), player)
        refused, ever_lost = False, lost
        while True:
            assert time.monotonic() < deadline, f"no answer to {action} of seat {seat}"
            if lost:  # connected again: the fresh state settles the step
                frame = player.state
            else:
                try:
                    frame = await player.receive()
                except Lost:
                    lost = ever_lost = True
                    continue
            if frame is None:  # quiet: the acknowledgement may have been lost on the way
                lost = await self._send(player, SYNC)
                ever_lost = ever_lost or lost
                continue
            if "error" in frame:
                assert frame["error"]["code"] in RETRYABLE, (seat, action, frame)
                refused = True
                await asyncio.sleep(0.2)
                lost = await self._send(player, SYNC)
                ever_lost = ever_lost or lost
                continue
            if "players" not in frame:
                continue
            if frame["version"] == before + 1:
                break
            assert frame["version"] == before, (seat, action, before, frame["version"])
            if lost or refused:  # settled: not applied, so send it again
                self.resent += 1
                refused = False
                lost = await self._send(player, frame_out)
                ever_lost = ever_lost or lost
        self.version = before + 1
        log.append(Step(self.version, seat, action, ever_lost))

    @staticmethod
    async def _send(player: FailoverPlayer, data: dict) -> bool:
        """Send; ``True`` when the socket was lost (the player is connected again)."""
        try:
            await player.send(data)
        except Lost:
            return True
        return False

    @property
    def outages(self) -> list[Outage]:
        return [o for p in self.players for o in p.outages]

    async def close(self) -> None:
        for player in self.players:
            await player.close()


def choose(states: list[dict]) -> tuple[int, dict]:
    """Who acts, and a legal step for them, from the players' views: the lowest seat still
    revealing in the reveal phase, else the current player (draw, then keep a low card)."""
    state = states[0]
    if state["phase"] == "reveal":
        for seat, player in enumerate(state["players"]):
            grid = player["grid"]
            if sum(c not in ("?", None) for c in grid) < 2:
                return seat, {"reveal": grid.index("?")}
        raise AssertionError("reveal phase with every reveal done")
    seat = state["current"]
    mine = states[seat]
    grid = mine["players"][seat]["grid"]
    drawn = mine["drawn"]
    if drawn is None:
        return seat, {"take": "deck"}
    face_down = [p for p, c in enumerate(grid) if c == "?"]
    face_up = [(c, p) for p, c in enumerate(grid) if c not in ("?", None)]
    highest = max(face_up, default=None)
    if highest is not None and highest[0] > drawn and (drawn <= 3 or not face_down):
        return seat, {"swap": highest[1]}
    if face_down and drawn <= 5:
        return seat, {"swap": face_down[0]}
    if face_down:
        return seat, {"flip": face_down[0]}
    return seat, {"swap": highest[1]}
