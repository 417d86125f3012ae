"""The game socket (``/ws/games/<id>/``) of a player or a spectator: HTML (htmx out-of-band
swaps) or JSON (``?format=json``); presence frames with ``?presence=1`` (docs/protocol.md)."""

import asyncio
import contextlib
import json
import time

from django.conf import settings
from django.utils import translation

from core import close_codes
from core.db import in_db_thread
from core.errors import ServiceError, Unavailable, shutting_down
from games import publish, selectors, services
from web.games import rendering
from web.games.presenters import as_seat, json_frame, public_of, view_of_message
from web.sockets import frames, presence_frames
from web.sockets.access import session_alive
from web.sockets.base import FAILED, Socket

# A player's frame is written down as a sign of activity (games.presence) at most this often.
ACTIVE_EVERY = 10


class AccessEnded(Exception):
    """The socket's session has ended or its user was banned since it opened."""


class GameConsumer(Socket):
    sheds = True
    error_html = staticmethod(rendering.error_html)
    version = None  # of the last state frame sent
    last_frame = ()  # that frame's parts
    own_draw = None  # (version, card) this seat drew through this socket
    seat = None
    heartbeat = presence_task = None
    presence = ()  # the offline seats this socket's client shows
    presence_hints = 0  # hints not yet followed by a read
    away = False  # this seat is away in the last frame sent
    checked_version = None  # the version at the heartbeat's last check

    async def open(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.label = f"game socket {self.game_id}"
        self.json_mode = self.param("format") == "json"
        self.wants_presence = self.param("presence") == "1"
        # Joined before the read: a version saved after it arrives as a message.
        await self.join(publish.game_group(self.game_id))
        state = await in_db_thread(self.read_on_join)()
        self.seat = state.seat
        if not await self.enter():
            return
        self.last_seen = self.last_active = time.monotonic()
        self.heartbeat = asyncio.ensure_future(self.beat())
        await self.send_game_state(state)
        self.checked_version = self.version
        await self.send_presence(state.offline)

    async def disconnect(self, code):
        await super().disconnect(code)
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat
            self.heartbeat = None
        if self.presence_task is not None:
            self.presence_task.cancel()
        if self.seat is not None:
            await self.seen(-1)

    def read_on_join(self) -> selectors.GameState:
        """What this user may see (``NotFound`` if nothing); a seat is present, and back."""
        state = self.read_state()
        services.game_player_seen(game_id=self.game_id, user=self.user, change=+1)
        was_away = state.seat is not None and state.seat in state.meta["away"]
        if was_away and services.game_player_reconnected(game_id=self.game_id, seat=state.seat):
            return self.read_state()
        return state

    def read_state(self) -> selectors.GameState:
        return selectors.game_state_for_user(
            game_id=self.game_id, user=self.user, invite_code=self.param("invite")
        )

    async def seen(self, change: int = 0, active: bool = False) -> None:
        """A sign of life of this seat: +1 connect, -1 disconnect, 0 alive; ``active``: a frame
        from the player (it ends a run of turn-clock timeouts)."""
        self.last_seen = time.monotonic()
        if active:
            self.last_active = self.last_seen
        seen = in_db_thread(services.game_player_seen)
        kwargs = {"game_id": self.game_id, "user": self.user, "change": change, "active": active}
        await self.attempt("presence not recorded", seen, **kwargs)

    async def beat(self) -> None:
        """Every SKYJO_WS_HEARTBEAT seconds, without a version since: the full state if behind
        the saved version, else a heartbeat frame. Every SKYJO_HEARTBEAT seconds: a seat's
        presence, the socket's access (``4401`` once ended) and the presence frame."""
        period = min(settings.SKYJO_WS_HEARTBEAT, settings.SKYJO_HEARTBEAT)
        last_check = last_access = time.monotonic()
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            access = now - last_access >= settings.SKYJO_HEARTBEAT - 0.01
            if access:
                last_access = now
            check = now - last_check >= settings.SKYJO_WS_HEARTBEAT - 0.01
            if check:
                last_check = now
                got_versions = self.version is not None and self.version != self.checked_version
                self.checked_version = self.version
                check = not got_versions
            present = (
                self.seat is not None and now - self.last_seen >= settings.SKYJO_HEARTBEAT - 0.01
            )
            if not (check or present or access):
                continue
            try:
                version = await in_db_thread(self.pulse)(check, present, access)
            except AccessEnded:
                await self.close(code=close_codes.UNAUTHENTICATED)
                return
            except Exception as exc:
                await self.failed(exc, "heartbeat")
                if shutting_down(exc):
                    return
                continue
            if access and self.wants_presence:
                await self.recheck_presence()
            if version is None:
                continue
            if self.version is None or version > self.version:
                await asyncio.sleep(0.2)  # a change just committed is usually on its way
                if self.version is None or self.version < version:
                    await self.send_state_or_unavailable()
            else:
                await self.send_heartbeat(version)

    def pulse(self, check: bool, present: bool, access: bool) -> int | None:
        """The heartbeat's one thread hop: access (``AccessEnded``), presence, saved version."""
        if access and not session_alive(self.scope):
            raise AccessEnded
        if present:
            self.last_seen = time.monotonic()
            services.game_player_seen(game_id=self.game_id, user=self.user)
        return selectors.game_version(self.game_id) if check else None

    async def send_heartbeat(self, version: int) -> None:
        if self.json_mode:
            await self.send(text_data=json.dumps({"heartbeat": {"version": version}}))
        else:
            await self.send(text_data=rendering.heartbeat_html(version))

    async def frame(self, text_data, bytes_data) -> None:
        try:
            command, data = frames.parse(text_data, bytes_data, json_mode=self.json_mode)
            if command != "action":
                await self.note_activity()
            if command == "sync":
                await self.sync()
            elif command == "chat":
                await self.chat_receive(data)
            elif command == "ready":
                call = in_db_thread(services.game_set_ready)
                await call(game_id=self.game_id, user=self.user)
            elif command == "rematch":
                call = in_db_thread(services.game_rematch)
                new = await call(game_id=self.game_id, user=self.user)
                if self.json_mode:
                    await self.send(text_data=json.dumps({"rematch": {"game": new.pk}}))
            else:
                await self.move(data)
        except ServiceError:
            await self.note_activity()  # a refused frame is the player's act all the same
            raise

    async def sync(self) -> None:
        """The full state; a socket that sent the saved version sends that frame again."""
        saved = await in_db_thread(selectors.game_version)(game_id=self.game_id)
        if saved is not None and saved == self.version and self.last_frame:
            await self.send(text_data="".join(self.last_frame))
            return
        await self.send_state()

    async def move(self, data: dict) -> None:
        version = data.pop("version", None)
        services.game_refuse_stale(game_id=self.game_id, action=data, version=version)
        result = await in_db_thread(services.game_apply_action)(
            game_id=self.game_id, user=self.user, action=data, version=version
        )
        self.last_active = time.monotonic()  # the move itself ended any run of timeouts
        # This socket's own frame of that version shows the drawn card without a read.
        self.own_draw = (result.version, result.drawn) if result.drawn is not None else None

    async def note_activity(self) -> None:
        """A seat's frame, written down at most every ACTIVE_EVERY seconds (at once when away)."""
        if self.seat is not None and (
            self.away or time.monotonic() - self.last_active > ACTIVE_EVERY
        ):
            await self.seen(active=True)

    async def game_updated(self, event):
        """A new version: a JSON socket joins the message's frame around its own drawn card;
        an HTML socket renders the message's view for its seat."""
        version = event["version"]
        if self.heartbeat is None or (self.version is not None and version <= self.version):
            return
        mine = self.seat is not None and event["drawer"] == self.seat
        drawn = None
        if mine and self.own_draw is not None and self.own_draw[0] == version:
            drawn, mine = self.own_draw[1], False
        if self.version is None or version != self.version + 1 or mine:
            # A gap, or this seat's drawn card from another tab or the bot runner: read it.
            await self.send_state_or_unavailable()
            return
        if self.json_mode:
            head, tail = event["frame"]
            self.note_version(version, event["away"])
            self.last_frame = (head, json.dumps(drawn), tail)
            await self.send(text_data="".join(self.last_frame))
            return
        public, meta = view_of_message(event)
        await self.send_frame(version, public, as_seat(public, self.seat, drawn), meta)

    async def send_state(self):
        state = await in_db_thread(selectors.game_state_by_id)(game_id=self.game_id, seat=self.seat)
        await self.send_game_state(state)

    async def send_state_or_unavailable(self):
        """The full state, or ``unavailable`` (the next change then sends the full state)."""
        if await self.attempt("state not read", self.send_state) is FAILED:
            self.version = None
            await self.send_error(Unavailable())

    async def game_presence(self, event):
        """A seat's socket opened or closed: read beside the handlers (no move waits for it)."""
        if self.heartbeat is None or not self.wants_presence:
            return
        self.presence_hints += 1
        if self.presence_task is None or self.presence_task.done():
            self.presence_task = asyncio.ensure_future(self.follow_presence())

    async def follow_presence(self) -> None:
        """Read and send until every hint so far has been followed by a read begun after it."""
        while self.presence_hints:
            self.presence_hints = 0
            offline = await self.attempt("presence not read", presence_frames.read, self.game_id)
            if offline is FAILED:
                return
            await self.send_presence(offline)

    async def recheck_presence(self) -> None:
        """What a read of this process begun within SKYJO_HEARTBEAT seconds found."""
        recent, max_age = presence_frames.recent, settings.SKYJO_HEARTBEAT
        offline = await self.attempt("presence not read", recent, self.game_id, max_age)
        if offline is not FAILED:
            await self.send_presence(offline)

    async def send_presence(self, offline) -> None:
        """Who the game waits for, if that changed for this socket's client."""
        shown = tuple(o for o in offline if o.seat != self.seat)  # its own socket is open
        if shown == self.presence or not self.wants_presence:
            return
        self.presence = shown
        text = presence_frames.frame(shown, json_mode=self.json_mode, language=self.language)
        await self.send(text_data=text)

    async def send_game_state(self, state: selectors.GameState):
        """The full state, unless this socket already sent a newer version."""
        version = state.meta["version"]
        if self.version is not None and version < self.version:
            return
        await self.send_frame(version, public_of(state.view), state.view, state.meta)

    def note_version(self, version: int, away) -> None:
        """The version this socket sends now, and whether its seat is ``away`` in it."""
        self.version = version
        self.away = self.seat is not None and self.seat in away

    async def send_frame(self, version, public, view, meta):
        """JSON: this seat's view. HTML: the shared public board and this seat's controls."""
        self.note_version(version, meta.get("away", ()))
        if self.json_mode:
            self.last_frame = (json_frame(view, version, meta),)
        else:
            board = rendering.board_for(public, meta, self.language)
            with translation.override(self.language):
                controls = rendering.controls_html(view, meta)
            self.last_frame = (board, controls, '<div id="flash" class="flash"></div>')
        await self.send(text_data="".join(self.last_frame))
