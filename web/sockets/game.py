"""Websockets: one per game page (``/ws/games/<id>/``), the lobby list and each lobby page.

Consumers stay thin: authenticate, parse, call a service in a thread, relay. The game socket
speaks HTML (htmx out-of-band swaps; the default) or JSON (``?format=json``): docs/protocol.md.
Each socket renders its HTML and error messages in the language its page would have
(web.accounts.middleware.scope_language); codes and JSON keys never change with it.
"""

import asyncio
import contextlib
import json
import logging
import time
import uuid
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template import Context
from django.template.defaulttags import CsrfTokenNode
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts import access as accounts_access
from core import close_codes
from core.access import sees_private_games
from core.caches import BoundedCache
from core.db import in_db_thread
from core.errors import (
    DATABASE_DOWN,
    Busy,
    NotFound,
    ServiceError,
    Unavailable,
    one_line,
    shutting_down,
)
from core.token_bucket import TokenBucket
from games import publish, selectors, services
from games.models import Lobby
from web.accounts.middleware import scope_language
from web.games import rendering
from web.games.presenters import as_seat, json_frame, public_of, view_of_message
from web.sockets import access as account_sockets
from web.sockets import caps, frames, presence_frames, shedding
from web.sockets.chat import ChatSocket

log = logging.getLogger(__name__)


MAX_FRAME = frames.MAX_FRAME
# A frame from a player is written down as a sign of activity (games.presence) at most this
# often: it ends a run of turn-clock timeouts, which takes at least two clocks of 15 s to
# build, and a move ends it anyway (services). Every 5 s per socket was a write per second
# for every five players, the most frequent write of a busy server.
ACTIVE_EVERY = 10


def _user_ok(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and not user.is_banned)


class AccessEnded(Exception):
    """The session or user this socket was opened with may no longer act."""


class NoDatabaseHopConsumer(AsyncWebsocketConsumer):
    """channels 4.2+ runs ``close_old_connections`` on the database thread before every handler
    (``AsyncConsumer.dispatch``): a hop per frame and per group message, queued behind every
    service call of the process, so that under load even a ``busy`` answer or a push waits for
    the database. These consumers reach the database only through ``core.db``, which
    closes stale connections itself, before and after each call."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except Disconnected:
            # The client closed the socket while a push to it was on its way (its disconnect is
            # queued behind that push): nobody is left to tell.
            log.info("socket %s closed before a push reached it", self.channel_name)


class UserSocket(ChatSocket, NoDatabaseHopConsumer):
    """A socket of a logged-in user: it closes (``4401``) when their access ends, on whichever
    server process that happens (web.sockets.access). Its chat (lobby and game sockets): the
    ChatSocket mixin."""

    user_group = None
    claim = None
    claim_task = None

    async def claim_socket(self) -> bool:
        """Count this socket against its user's and address's caps (web.sockets.caps); over one,
        accept and close at once with ``4430`` (a refused handshake would hide the code)."""
        client = self.scope.get("client") or [None]
        claim = {
            "user_id": self.scope["user"].pk,
            "address": client[0],
            "channel": self.channel_name,
        }
        full = await sync_to_async(caps.claim, thread_sensitive=False)(**claim)
        if full:
            log.info("socket refused: user %s has too many open (%s cap)", claim["user_id"], full)
            await self.accept()
            await self.close(code=close_codes.TOO_MANY_SOCKETS)
            return False
        self.claim = claim
        self.claim_task = asyncio.ensure_future(self.renew_claim())
        return True

    async def renew_claim(self) -> None:
        while True:
            await asyncio.sleep(caps.RENEW)
            try:
                await sync_to_async(caps.renew, thread_sensitive=False)(**self.claim)
            except Exception:
                log.warning("could not renew a socket's claim", exc_info=True)

    async def release_socket(self) -> None:
        if self.claim_task is not None:
            self.claim_task.cancel()
            self.claim_task = None
        if self.claim is not None:
            claim, self.claim = self.claim, None
            try:
                await sync_to_async(caps.release, thread_sensitive=False)(**claim)
            except Exception as exc:  # it lapses by itself (caps.LAPSE)
                if shutting_down(exc):
                    log.warning("socket claim not released: the server is shutting down")
                else:
                    log.warning("could not release a socket's claim", exc_info=True)

    async def join_user_group(self) -> None:
        self.session_tag = accounts_access.session_tag(
            getattr(self.scope.get("session"), "session_key", None)
        )
        self.user_group = accounts_access.user_group(self.scope["user"].pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)

    async def leave_user_group(self) -> None:
        await self.release_socket()
        if self.user_group:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
            self.user_group = None

    async def sockets_close(self, event) -> None:
        if event.get("session") in (None, self.session_tag):
            await self.close(code=close_codes.UNAUTHENTICATED)

    def check_access(self) -> None:
        """Before a frame changes anything or asks for the state (in its thread):
        ``AccessEnded`` if the session has ended (log-out, password change) or the user was
        banned since the socket opened."""
        if not account_sockets.session_alive(self.scope):
            raise AccessEnded


class GameConsumer(UserSocket):
    """A player's or spectator's connection to one game."""

    presence_task = None  # following presence hints (follow_presence); none before connect

    async def connect(self):
        self.user = self.scope.get("user")
        self.version = None
        self.last_frame = ()  # the parts of the last state frame sent, of version self.version
        self.own_draw = None
        self.group = None
        self.seat = None
        self.heartbeat = None
        self.bucket = TokenBucket(rate=settings.SKYJO_WS_RATE, burst=settings.SKYJO_WS_BURST)
        self.dropped = 0
        self.language = settings.LANGUAGE_CODE
        if not _user_ok(self.user):
            await self.close(code=close_codes.UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.json_mode = query.get("format", [""])[0] == "json"
        # Presence frames go to the clients that ask for them (the game page does): a client
        # written before them reads every frame it gets as a state or an answer.
        self.wants_presence = query.get("presence", [""])[0] == "1"
        # Join the group before reading the state: a version saved after the read then
        # arrives as a message, and one saved before it is in the first frame.
        self.group = publish.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            state = await in_db_thread(self.join)()
        except (NotFound, *DATABASE_DOWN) as exc:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            if isinstance(exc, NotFound):
                await self.close(code=close_codes.NOT_FOUND)
                return
            # Refuse the handshake: clients connect again later.
            log.warning("game socket %s: database unavailable: %s", self.game_id, one_line(exc))
            await self.close()
            return
        self.seat = state.seat
        self.presence = ()  # the offline seats this socket's client shows (presence_frames)
        self.presence_hints = 0  # hints not yet followed by a read
        if not await self.claim_socket():
            return
        await self.join_user_group()
        await self.accept()
        self.last_seen = time.monotonic()
        self.last_active = self.last_seen  # frames after connecting (the player's acts)
        self.away = False  # this seat is away in the last frame sent: its next frame brings it back
        self.checked_version = None  # the version at the heartbeat's last check
        self.heartbeat = asyncio.ensure_future(self.beat())
        await self.send_game_state(state)
        self.checked_version = self.version  # the first check compares with the first state
        await self.send_presence(state.offline)

    async def disconnect(self, code):
        await self.leave_user_group()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat
            self.heartbeat = None
        if self.presence_task is not None:
            self.presence_task.cancel()
        if self.seat is not None:
            await self.seen(-1)

    # ---------------------------------------------------------------- presence

    def join(self) -> selectors.GameState:
        """What this user may see of the game (``NotFound`` if nothing); a player's socket
        counts as present from then on (a no-op for anyone else). One thread hop, three
        queries, nothing replayed; more only when the player comes back after being away."""
        state = selectors.game_state_for_user(game_id=self.game_id, user=self.user)
        services.game_player_seen(game_id=self.game_id, user=self.user, change=+1)
        was_away = state.seat is not None and state.seat in state.meta["away"]
        if was_away and services.game_player_reconnected(game_id=self.game_id, seat=state.seat):
            return selectors.game_state_for_user(game_id=self.game_id, user=self.user)
        return state

    async def seen(self, change: int = 0, active: bool = False) -> None:
        """A sign of life of this seat (games.presence): +1 connect, -1 disconnect, 0 alive;
        ``active``: a frame from the player (it ends a run of turn-clock timeouts)."""
        self.last_seen = time.monotonic()
        if active:
            self.last_active = self.last_seen
        try:
            await in_db_thread(services.game_player_seen)(
                game_id=self.game_id, user=self.user, change=change, active=active
            )
        except DATABASE_DOWN as exc:
            log.warning("game socket %s: presence not recorded: %s", self.game_id, one_line(exc))
        except Exception as exc:
            if not shutting_down(exc):
                log.exception("game socket %s: could not record presence", self.game_id)
                return
            log.warning(
                "game socket %s: presence not recorded: the server is shutting down", self.game_id
            )

    async def beat(self) -> None:
        """Every SKYJO_WS_HEARTBEAT seconds, a socket that got no version since the last check
        reads the game's saved version: behind it (a group message lost on the way), it gets
        the full state, else a heartbeat frame with the version. A socket that got versions
        meanwhile is alive and current but for what is on its way: it reads nothing and is
        sent nothing (an overloaded server sends late; resyncs would only add to its load).
        A player's seat also notes that it is still here (presence) every SKYJO_HEARTBEAT
        seconds; a crashed process stops beating. Every SKYJO_HEARTBEAT seconds the socket's
        access is checked too, so that a socket whose "close" message was lost (web.sockets.access)
        is closed all the same, watching or not, and a socket that asked for presence frames
        checks who the table waits for (a presence hint lost on the way)."""
        period = min(settings.SKYJO_WS_HEARTBEAT, settings.SKYJO_HEARTBEAT)
        last_check = last_access = time.monotonic()
        while True:
            await asyncio.sleep(period)
            access = time.monotonic() - last_access >= settings.SKYJO_HEARTBEAT - 0.01
            if access:
                last_access = time.monotonic()
            check = time.monotonic() - last_check >= settings.SKYJO_WS_HEARTBEAT - 0.01
            if check:
                last_check = time.monotonic()
                got_versions = self.version is not None and self.version != self.checked_version
                self.checked_version = self.version
                check = not got_versions
            present = self.seat is not None and (
                time.monotonic() - self.last_seen >= settings.SKYJO_HEARTBEAT - 0.01
            )
            if not (check or present or access):
                continue
            try:
                version = await in_db_thread(self.pulse)(check, present, access)
            except AccessEnded:
                await self.close(code=close_codes.UNAUTHENTICATED)
                return
            except DATABASE_DOWN as exc:
                log.warning("game socket %s: heartbeat: %s", self.game_id, one_line(exc))
                continue
            except Exception as exc:
                if shutting_down(exc):
                    return
                log.warning("game socket %s: heartbeat failed", self.game_id, exc_info=True)
                continue
            if access and self.wants_presence:
                await self.recheck_presence()
            if version is None:
                continue
            if self.version is None or version > self.version:  # None: a state not sent
                await asyncio.sleep(0.2)  # a change just committed is usually on its way
                if self.version is None or self.version < version:
                    log.info(
                        "game socket %s missed version %s: sent the state", self.game_id, version
                    )
                    await self.send_state_or_unavailable()
            else:
                await self.send_heartbeat(version)

    def pulse(self, check: bool, present: bool, access: bool) -> int | None:
        """This socket's access if ``access`` (``AccessEnded``), this seat's presence if
        ``present``, and the game's version if ``check`` (one thread hop)."""
        if access:
            self.check_access()
        if present:
            self.last_seen = time.monotonic()
            services.game_player_seen(game_id=self.game_id, user=self.user)
        return selectors.game_version(self.game_id) if check else None

    async def send_heartbeat(self, version: int) -> None:
        if self.json_mode:
            await self.send(text_data=json.dumps({"heartbeat": {"version": version}}))
        else:
            await self.send(text_data=rendering.heartbeat_html(version))

    # ---------------------------------------------------------------- from the client

    async def receive(self, text_data=None, bytes_data=None):
        if settings.RATELIMIT_ENABLE and not self.bucket.take():
            await self.refuse_flood()
            return
        if not shedding.enter():
            await self.send_error(Busy())
            return
        try:
            command, data = self.parse(text_data, bytes_data)
            if command != "action":
                await self.note_activity()
            if command == "sync":
                await self.sync()
            elif command == "chat":
                await self.chat_receive(data)
            elif command == "ready":
                await in_db_thread(self.checked)(
                    services.game_set_ready, game_id=self.game_id, user=self.user
                )
            elif command == "rematch":
                new = await in_db_thread(self.checked)(
                    services.game_rematch, game_id=self.game_id, user=self.user
                )
                if self.json_mode:
                    await self.send(text_data=json.dumps({"rematch": {"game": new.pk}}))
            else:
                await self.move(data)
        except AccessEnded:
            await self.close(code=close_codes.UNAUTHENTICATED)
        except ServiceError as exc:
            await self.send_error(exc)
            await self.note_activity()  # a refused frame is the player's act all the same
        except DATABASE_DOWN as exc:
            log.warning("game socket %s: database unavailable: %s", self.game_id, one_line(exc))
            await self.send_error(Unavailable())
        except Exception:
            log.exception("game socket %s failed on a frame", self.game_id)
            await self.send_error(
                ServiceError("Something went wrong on the server.", code="server_error")
            )
        finally:
            shedding.leave()

    async def sync(self) -> None:
        """The full state, as asked. A socket that already sent the saved version sends that
        frame again: it reads only the version (as the heartbeat does), not the whole game. A
        user's sockets could each ask SKYJO_WS_RATE times a second, and every answer read and
        rendered the game (docs/performance.md)."""
        saved = await in_db_thread(self.checked)(selectors.game_version, game_id=self.game_id)
        if saved is not None and saved == self.version and self.last_frame:
            await self.send(text_data="".join(self.last_frame))
            return
        await self.send_state()

    async def move(self, data: dict) -> None:
        version = data.pop("version", None)
        result = await in_db_thread(self.checked)(
            services.game_apply_action,
            game_id=self.game_id,
            user=self.user,
            action=data,
            version=version,
        )
        # The move ended any run of turn-clock timeouts itself (services), so it stands for
        # the player's activity: no write of its own.
        self.last_active = time.monotonic()
        # This socket drew: its own frame of that version can show the card without reading
        # the game back (the group message, handled next, never holds it).
        self.own_draw = (result.version, result.drawn) if result.drawn is not None else None

    async def note_activity(self) -> None:
        """A frame from the player: written down (games.presence) at most every ACTIVE_EVERY
        seconds, and at once while the seat is away (its "I'm back")."""
        if self.seat is None:
            return
        if self.away or time.monotonic() - self.last_active > ACTIVE_EVERY:
            await self.seen(active=True)

    async def refuse_flood(self) -> None:
        """A frame over this socket's rate (SKYJO_WS_RATE, SKYJO_WS_BURST) is not read; after
        SKYJO_WS_MAX_DROPPED such frames the socket is closed."""
        self.dropped += 1
        limit = settings.SKYJO_WS_MAX_DROPPED
        if self.dropped <= limit:
            if self.dropped == 1:
                log.info("game socket %s: user %s over the frame rate", self.game_id, self.user.pk)
            await self.send_error(
                ServiceError(
                    gettext_lazy("Too many messages at once: this one was ignored. Slow down."),
                    code="rate_limited",
                )
            )
        elif self.dropped == limit + 1:
            log.warning(
                "game socket %s: user %s closed after %s refused frames",
                self.game_id,
                self.user.pk,
                limit,
            )
            await self.close(code=close_codes.RATE_LIMITED)

    def checked(self, service, **kwargs):
        """Call ``service`` unless this socket's access has ended (one thread hop for both)."""
        self.check_access()
        return service(**kwargs)

    def parse(self, text_data, bytes_data) -> tuple[str, dict]:
        return frames.parse(text_data, bytes_data, json_mode=self.json_mode)

    # ---------------------------------------------------------------- to the client

    async def game_updated(self, event):
        version = event["version"]
        if self.heartbeat is None:  # refused at connect: a message queued meanwhile goes nowhere
            return
        if self.version is not None and version <= self.version:
            return
        public = view_of_message(event)
        mine = self.seat is not None and public.drawing and public.current == self.seat
        drawn = None
        if mine and self.own_draw is not None and self.own_draw[0] == version:
            drawn, mine = self.own_draw[1], False
        if self.version is None or version != self.version + 1 or mine:
            # A gap, or this seat's drawn card from another tab or the bot runner: read it back.
            await self.send_state_or_unavailable()
            return
        # A JSON frame names no seat: a seat that holds no drawn card sends the public one.
        plain = self.json_mode and drawn is None
        view = public if plain else as_seat(public, self.seat, drawn)
        await self.send_frame(version, public, view, event["meta"])

    async def send_state(self):
        """The full state, read anew (a client's sync checked this socket's access first)."""
        state = await in_db_thread(selectors.game_state_by_id)(game_id=self.game_id, seat=self.seat)
        await self.send_game_state(state)

    async def send_state_or_unavailable(self):
        """The full state; when the database cannot be read, an ``unavailable`` error instead,
        and this socket forgets its version, so the next change sends the full state."""
        try:
            await self.send_state()
        except DATABASE_DOWN as exc:
            log.warning("game socket %s: database unavailable: %s", self.game_id, one_line(exc))
            self.version = None
            await self.send_error(Unavailable())

    async def game_presence(self, event):
        """A player's socket of this game opened or closed (publish.presence_changed). The
        read runs beside this socket's handlers: a move's frame never waits for it."""
        if self.heartbeat is None or not self.wants_presence:  # refused at connect, or not asked
            return
        self.presence_hints += 1
        if self.presence_task is None or self.presence_task.done():
            self.presence_task = asyncio.ensure_future(self.follow_presence())

    async def follow_presence(self) -> None:
        """Read and send until every hint so far has been followed by a read begun after it."""
        while self.presence_hints:
            self.presence_hints = 0
            try:
                offline = await presence_frames.read(self.game_id)
                await self.send_presence(offline)
            except DATABASE_DOWN as exc:
                log.warning("game socket %s: presence not read: %s", self.game_id, one_line(exc))
                return
            except Disconnected:
                return
            except Exception as exc:
                if not shutting_down(exc):
                    log.exception("game socket %s: presence not sent", self.game_id)
                return

    async def recheck_presence(self) -> None:
        """The heartbeat's look at who the table waits for: what a read of this process begun
        within the last SKYJO_HEARTBEAT seconds found (presence_frames.recent)."""
        try:
            offline = await presence_frames.recent(self.game_id, settings.SKYJO_HEARTBEAT)
        except DATABASE_DOWN as exc:
            log.warning("game socket %s: presence not read: %s", self.game_id, one_line(exc))
            return
        await self.send_presence(offline)

    async def send_presence(self, offline) -> None:
        """Who the game waits for, if that changed for this socket's client."""
        shown = presence_frames.shown_to(offline, self.seat)
        if shown == self.presence or not self.wants_presence:
            return
        self.presence = shown
        text = presence_frames.frame(shown, json_mode=self.json_mode, language=self.language)
        await self.send(text_data=text)

    async def send_game_state(self, state: selectors.GameState):
        """The full state, unless this socket sent a newer version while it was read (the
        heartbeat's resync runs beside the pushes): a socket never goes back in time."""
        version = state.meta["version"]
        if self.version is not None and version < self.version:
            return
        await self.send_frame(version, public_of(state.view), state.view, state.meta)

    async def send_frame(self, version, public, view, meta):
        """One frame: in JSON, this seat's view; in HTML, the shared public board (rendered once
        per version and language in this process) and this seat's own controls."""
        self.version = version
        self.away = self.seat is not None and self.seat in meta.get("away", ())
        if self.json_mode:
            self.last_frame = (json_frame(view, version, meta),)
        else:
            # The board is shared with the other sockets (rendering.board_for): kept by reference.
            board = rendering.board_for(public, meta, self.language)
            with translation.override(self.language):
                controls = rendering.controls_html(view, meta)
            self.last_frame = (board, controls, '<div id="flash" class="flash"></div>')
        await self.send(text_data="".join(self.last_frame))

    async def send_error(self, exc: ServiceError):
        with translation.override(self.language):
            if self.json_mode:
                text = json.dumps(exc.to_json())
            else:
                text = rendering.error_html(exc.message, exc.code)
        await self.send(text_data=text)


async def _shared(cache: BoundedCache, key, call):
    """``call()``'s task, started by the first socket to ask for ``key`` and awaited by all."""
    task = cache.get(key)
    if task is None:
        task = asyncio.ensure_future(call())
        cache.put(key, task)
    return await asyncio.shield(task)


# The lobby list of a change in one language, being rendered or done (LobbyListConsumer):
# a few changes in the languages of the site.
_lobby_lists = BoundedCache(64)


class LobbyListConsumer(UserSocket):
    """Pushes the list of open public lobbies whenever one opens, fills or starts."""

    async def connect(self):
        if not _user_ok(self.scope.get("user")):
            await self.close(code=close_codes.UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        if not await self.claim_socket():
            return
        await self.channel_layer.group_add(publish.LOBBY_LIST_GROUP, self.channel_name)
        await self.join_user_group()
        await self.accept()
        await self.send(text_data=await in_db_thread(self.render)())

    async def disconnect(self, code):
        await self.leave_user_group()
        await self.channel_layer.group_discard(publish.LOBBY_LIST_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass

    async def lobbies_updated(self, event):
        if event.get("language") == self.language:
            await self.send(text_data=event["html"])
        else:
            await self.send(text_data=await self.shared_render(event.get("change")))

    async def shared_render(self, change: str | None) -> str:
        """The list in this socket's language after ``change`` (a lobby change's id, from
        games.publish), rendered once in this process for every socket that speaks it: each
        socket used to render it itself, so that one player's change cost a render (and its
        queries) per watcher in another language."""
        if not change:
            return await in_db_thread(self.render)()
        return await _shared(
            _lobby_lists, (change, self.language), lambda: in_db_thread(self.render)()
        )

    def render(self) -> str:
        with translation.override(self.language):
            return rendering.lobby_list_html()


# A lobby read after a change, and its page for one kind of viewer in one language, being read
# or rendered or done (LobbyConsumer): a few changes.
_lobby_reads = BoundedCache(64)
_lobby_pages = BoundedCache(512)
# Stands for a socket's CSRF token in a page rendered for several sockets, each of which puts in
# its own: random in each process, so that no name in a page can spell it.
_CSRF_SLOT = "csrf" + uuid.uuid4().hex


def _csrf_input(token: str) -> str:
    """What ``{% csrf_token %}`` renders for ``token`` (nothing for none)."""
    return CsrfTokenNode().render(Context({"csrf_token": token}))


def _read_lobby(lobby_id: int) -> tuple[Lobby, frozenset[int]]:
    lobby = selectors.lobby_with_seats(lobby_id)
    return lobby, selectors.lobby_removed_ids(lobby)


class LobbyConsumer(UserSocket):
    """One lobby page: its seats, re-rendered for this user on every change."""

    async def connect(self):
        self.user = self.scope.get("user")
        self.group = None
        if not _user_ok(self.user):
            await self.close(code=close_codes.UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        self.lobby_id = int(self.scope["url_route"]["kwargs"]["lobby_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.invite = query.get("invite", [None])[0]
        self.csrf = self.scope.get("cookies", {}).get("csrftoken", "")
        try:
            html = await in_db_thread(self.render)()
        except NotFound:
            await self.close(code=close_codes.NOT_FOUND)
            return
        if not await self.claim_socket():
            return
        self.group = publish.lobby_group(self.lobby_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_user_group()
        await self.accept()
        await self.send(text_data=await in_db_thread(self.render)() or html)

    async def disconnect(self, code):
        await self.leave_user_group()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.chat_frame(text_data, bytes_data)

    async def lobby_updated(self, event):
        try:
            html = await self.page_after(event.get("change"))
        except NotFound:  # no longer visible to this user (removed from a private lobby)
            await self.close(code=close_codes.NOT_FOUND)  # and out of its group: no more chat
            return
        await self.send(text_data=html)

    async def page_after(self, change: str | None) -> str:
        """This user's page after ``change`` (a lobby change's id, from games.publish). Every
        socket used to read the lobby and render the page itself: a change cost a render (and
        its queries) per watcher. Now, in this process, the lobby is read once per change and
        the page rendered once per change, language and kind of viewer (the host, the player of
        each seat, a removed user, anyone else holding the same invite), which is all the page
        tells apart; each socket puts in its own CSRF token."""
        if not change:
            return await in_db_thread(self.render)()
        from web.games.views import _lobby_context

        lobby, removed = await _shared(
            _lobby_reads, change, lambda: in_db_thread(_read_lobby)(self.lobby_id)
        )
        selectors.lobby_seen_by(
            lobby,
            user=self.user,
            invite_code=self.invite,
            removed=removed,
            moderator=self.moderator,
        )
        context = _lobby_context(lobby, self.user, self.invite, removed)
        seat = context["my_seat"]
        viewer = (seat.index if seat else None, context["is_host"], context["removed"], self.invite)
        context.update(user=self.user, csrf_token=_CSRF_SLOT)
        page = await _shared(
            _lobby_pages,
            (change, self.language, viewer),
            lambda: in_db_thread(self.render_context)(context),
        )
        return page.replace(_csrf_input(_CSRF_SLOT), _csrf_input(self.csrf))

    def render(self) -> str:
        from web.games.views import _lobby_context

        # Read here, in a database thread: page_after checks again without the database (a
        # change of the user's permissions closes this socket, moderation.signals).
        self.moderator = sees_private_games(self.user)
        lobby = selectors.lobby_seen_by(
            selectors.lobby_with_seats(self.lobby_id),
            user=self.user,
            invite_code=self.invite,
            moderator=self.moderator,
        )
        context = _lobby_context(lobby, self.user, self.invite)
        context.update(user=self.user, csrf_token=self.csrf)
        return self.render_context(context)

    def render_context(self, context: dict) -> str:
        with translation.override(self.language):
            return render_to_string("games/partials/lobby_seats.html", context)


class UnknownSocket(NoDatabaseHopConsumer):
    """Any other path under ``ws/`` (an id out of range included): the handshake is refused
    (HTTP 403 over Daphne; ``4404`` to an in-process client, docs/protocol.md)."""

    async def connect(self):
        await self.close(code=close_codes.NOT_FOUND)
