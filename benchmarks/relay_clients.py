"""The relay benchmark's clients: four sockets per game, JSON or HTML, or on the bare echo.
A table plays one move at a time, a random legal step of the acting seat from what its own
socket shows; the move counts once all four sockets hold the new version."""

import asyncio
import contextlib
import html
import json
import re
import time
from typing import NamedTuple

PLAYERS = 4
GAME_OVER, ROUND_OVER, REVEAL = "game_over", "round_over", "reveal"
BUSY_BACKOFF = (0.1, 2.0)  # seconds: first wait after a `busy` answer, and the longest

_VERSION = re.compile(r'data-version="(\d+)"')
_PHASE = re.compile(r'data-phase="(\w+)"')
_CURRENT = re.compile(r'data-current="(\d*)"')
_LEGAL = re.compile(r'data-legal="([^"]*)"')
_CODE = re.compile(r'data-code="(\w+)"')


class Done(NamedTuple):
    """An applied change: sent when, seconds until all 4 sockets held it, versions added."""

    sent: float
    latency: float | None
    round: int
    added: int


class Sock:
    """One player's game socket: its latest state, when each version arrived, what it refused."""

    def __init__(self, table, seat: int, url: str, headers: dict):
        self.table, self.seat, self.url, self.headers = table, seat, url, headers
        self.ws = self.phase = self.current = self.closed_with = None
        self.version = -1
        self.legal: list[dict] = []
        self.reached: dict[int, float] = {}
        self.errors: list[str] = []
        self.gaps = self.received_chars = self.frames = 0
        self.states = 0  # state frames (any version), so that a resync sees its answer

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        origin = "http://" + self.url.split("/")[2]
        self.ws = await connect(
            self.url,
            additional_headers=self.headers,
            origin=origin,
            open_timeout=60,
            max_queue=None,
        )
        self.take(await asyncio.wait_for(self.ws.recv(), 60))

    def take(self, text: str) -> None:
        now = time.perf_counter()
        self.received_chars += len(text)
        self.frames += 1
        state = self.table.parse(self, text)
        if state is None:
            return
        if "error" in state:
            self.errors.append(state["error"])
            self.table.changed.set()
            return
        self.states += 1
        version = state["version"]
        if version > self.version:
            if self.version >= 0 and version > self.version + 1:
                self.gaps += 1
            for v in range(self.version + 1, version + 1):
                self.reached.setdefault(v, now)
            self.version = version
            self.phase, self.current, self.legal = state["phase"], state["current"], state["legal"]
            self.table.changed.set()

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.ws:
                self.take(text)
        except ConnectionClosed as exc:
            self.closed_with = exc.rcvd.code if exc.rcvd else None
        self.table.changed.set()

    async def send(self, data: dict) -> int:
        await self.ws.send(text := json.dumps(data))
        return len(text)


class Table:
    """One game of the site and its four sockets."""

    def __init__(self, game_id: int, cookies: list[str], ports: list[int], args, rng):
        self.start(game_id, rng, html=args.format == "html")
        languages = args.languages.split(",")
        query = "" if self.html else "?format=json"
        for seat, cookie in enumerate(cookies):
            port = ports[seat % len(ports)]
            headers = {"Cookie": cookie, "Accept-Language": languages[seat % len(languages)]}
            url = f"ws://127.0.0.1:{port}/ws/games/{game_id}/{query}"
            self.socks.append(Sock(self, seat, url, headers))

    def start(self, game_id: int, rng, html: bool) -> None:
        self.game_id, self.rng, self.html = game_id, rng, html
        self.changed = asyncio.Event()
        self.socks: list[Sock] = []
        self.done: list[Done] = []
        self.round = 1
        self.lost = self.resynced = self.behind = self.busy = 0
        self.sent_chars = self.sent_frames = 0
        self.stuck = self.over = False

    @property
    def version(self) -> int:
        return min(s.version for s in self.socks)

    def errors(self) -> int:
        return sum(len(s.errors) for s in self.socks)

    def parse(self, sock: Sock, text: str) -> dict | None:
        """What a frame says: version, phase, whose turn and this seat's legal steps; or
        ``{"error": code}``; or None for a frame that is neither."""
        if self.html:
            return parse_html(text)
        frame = json.loads(text)
        if "error" in frame:
            return {"error": frame["error"].get("code", "?")}
        if "players" not in frame or "version" not in frame:
            return None
        return {
            "version": frame["version"],
            "phase": frame["phase"],
            "current": frame["current"],
            "legal": json_legal(frame, sock.seat),
        }

    def pick(self) -> tuple[list[Sock], list[dict], int]:
        """Who acts, what they send, and how many versions it adds (from their own views)."""
        lead = self.socks[0]
        if lead.phase == GAME_OVER:
            return [], [], 0
        if lead.phase == ROUND_OVER:
            return self.socks, [{"ready": True}] * PLAYERS, PLAYERS
        if lead.phase == REVEAL:
            sock = self.rng.choice([s for s in self.socks if s.legal])
        else:
            sock = self.socks[lead.current]
        return [sock], [{**self.rng.choice(sock.legal), "version": lead.version}], 1

    async def wait_for(self, target: int, deadline: float, errors_before: int) -> bool:
        while self.version < target:
            closed = any(s.closed_with is not None or s.ws.close_code for s in self.socks)
            remaining = deadline - time.perf_counter()
            if closed or remaining <= 0 or self.errors() > errors_before:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)
        return True

    async def play(self, end: float, interval: float, args) -> None:
        await asyncio.sleep(self.rng.random() * interval)
        tick = time.perf_counter()
        backoff = BUSY_BACKOFF[0]
        while time.perf_counter() < end and not self.stuck and not self.over:
            socks, frames, added = self.pick()
            if not socks:
                self.over = True
                return
            target = self.version + added
            errors_before = self.errors()
            sent = time.perf_counter()
            for sock, frame in zip(socks, frames, strict=True):
                self.sent_chars += await sock.send(frame)
                self.sent_frames += 1
            if await self.wait_for(target, sent + args.timeout, errors_before):
                latency = max(s.reached[target] for s in self.socks) - sent
                self.record(sent, latency if added == 1 else None, added)
                backoff = BUSY_BACKOFF[0]
            elif "busy" in [e for s in self.socks for e in s.errors][errors_before:]:
                self.busy += 1
                await asyncio.sleep(backoff * (0.5 + self.rng.random()))
                backoff = min(backoff * 2, BUSY_BACKOFF[1])
                behind = len({s.version for s in self.socks}) > 1  # resync only if they differ
                if behind and not await self.resync(args.timeout):
                    self.stuck = True
                continue
            else:
                if self.errors() == errors_before:  # no answer at all
                    self.lost += sum(1 for s in self.socks if s.version < target)
                if not await self.resync(args.timeout):
                    self.stuck = True
                    return
                if self.version >= target:
                    self.record(sent, None, added)
            tick += interval
            now = time.perf_counter()
            if now > tick:
                self.behind += interval > 0
                tick = now
            else:
                await asyncio.sleep(tick - now)

    def record(self, sent: float, latency: float | None, added: int) -> None:
        self.done.append(Done(sent, latency, self.round, added))
        if added == PLAYERS:
            self.round += 1

    async def resync(self, timeout: float) -> bool:
        """Ask every socket for the state until each has answered and all agree; ask again after
        a growing pause on ``busy``. False if some socket never answers."""
        self.resynced += 1
        socks = [s for s in self.socks if s.closed_with is None]
        states = {s: s.states for s in socks}
        marks = {s: len(s.errors) for s in socks}
        for sock in socks:
            await sock.send({"sync": True})
        backoff = BUSY_BACKOFF[0]
        deadline = time.perf_counter() + timeout
        while True:
            waiting = [s for s in socks if s.states <= states[s]]
            if not waiting and len({s.version for s in self.socks}) == 1:
                return True
            refused = [s for s in waiting if "busy" in s.errors[marks[s] :]]
            if refused:
                self.busy += len(refused)
                await asyncio.sleep(backoff * (0.5 + self.rng.random()))
                backoff = min(backoff * 2, BUSY_BACKOFF[1])
                for sock in refused:
                    marks[sock] = len(sock.errors)
                    await sock.send({"sync": True})
                deadline = time.perf_counter() + timeout
                continue
            if time.perf_counter() > deadline:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.2)


class EchoTable(Table):
    """Four sockets of one group on the bare echo, with the frame sizes of the real run."""

    def __init__(self, game_id: int, ports: list[int], args, rng, sent_size: int, frame_size: int):
        self.start(game_id, rng, html=False)
        self.socks = [
            Sock(self, seat, f"ws://127.0.0.1:{ports[seat % len(ports)]}/ws/echo/{game_id}/", {})
            for seat in range(PLAYERS)
        ]
        self.sent_size, self.frame_size = sent_size, frame_size

    def parse(self, sock: Sock, text: str) -> dict:
        return {"version": json.loads(text)["version"], "phase": "echo", "current": 0, "legal": []}

    def pick(self) -> tuple[list[Sock], list[dict], int]:
        version = self.version
        frame = {"version": version, "size": self.frame_size, "pad": ""}
        frame["pad"] = "x" * max(0, self.sent_size - len(json.dumps(frame)))
        return [self.socks[version % PLAYERS]], [frame], 1

    async def resync(self, timeout: float) -> bool:
        return False  # the echo keeps no state to resync from


def parse_html(text: str) -> dict | None:
    """A game frame (the board with its version, phase and turn, the seat's controls), an
    error flash, or None (e.g. a heartbeat, which has a version but no board)."""
    version = _VERSION.search(text) if 'id="board"' in text else None
    if version is None:
        if 'data-shown="1"' not in text:
            return None
        code = _CODE.search(text)
        return {"error": code.group(1) if code else "html_error"}
    legal = _LEGAL.search(text)
    current = _CURRENT.search(text)
    return {
        "version": int(version.group(1)),
        "phase": _PHASE.search(text).group(1),
        "current": int(current.group(1)) if current and current.group(1) else None,
        "legal": json.loads(html.unescape(legal.group(1))) if legal else [],
    }


def json_legal(frame: dict, seat: int) -> list[dict]:
    """The legal steps of ``seat``, from its own JSON view only."""
    from games import engine

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


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def open_all(socks: list[Sock]) -> float:
    """Open every socket, 50 handshakes at a time; returns the seconds it took."""
    started = time.perf_counter()
    gate = asyncio.Semaphore(50)

    async def one(sock):
        async with gate:
            await sock.open()

    await asyncio.gather(*(one(s) for s in socks))
    return time.perf_counter() - started
