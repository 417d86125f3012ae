"""The base of the site's websockets (docs/protocol.md): authentication, caps, the user's group,
frame admission and the answer to failures. A socket renders in its page's language."""

import asyncio
import json
import logging
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts import access as accounts_access
from core import close_codes
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
from core.when import zone_named
from web.accounts.middleware import scope_language
from web.chat import rendering as chat_rendering
from web.sockets import caps, shedding
from web.sockets.chat import ChatSocket
from web.timezones import COOKIE as TZ_COOKIE

log = logging.getLogger(__name__)

FAILED = object()  # what :meth:`Socket.attempt` returns for a call that failed


class Socket(ChatSocket, AsyncWebsocketConsumer):
    """A logged-in user's socket: anyone else is refused with ``4401``. :meth:`open` reads
    what it shows (``NotFound``: ``4404``; the database down: refused) and calls :meth:`enter`.
    A frame over the rate is refused (``4429`` after SKYJO_WS_MAX_DROPPED); with ``sheds``, one
    past the shedding bound is answered ``busy``; the rest go to :meth:`frame`."""

    sheds = False
    json_mode = False
    accepted = closed = False
    claim = claim_task = user_group = None
    dropped = 0
    label = "socket"  # in the log; its place once open
    error_html = staticmethod(chat_rendering.error_html)

    async def dispatch(self, message):
        """Channels' own, without its hop to a thread for ``close_old_connections`` before every
        handler: a socket reaches the database only through :func:`core.db.in_db_thread`, which
        closes stale connections itself, so a frame or a group message that needs no query runs
        on the event loop alone."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.user = user = self.scope.get("user")
        self.language = settings.LANGUAGE_CODE
        self.zone = None
        self.joined: list[str] = []
        if not (user and user.is_authenticated and user.is_active and not user.is_banned):
            await self.close(code=close_codes.UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        self.zone = zone_named((self.scope.get("cookies") or {}).get(TZ_COOKIE))
        self.query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.bucket = TokenBucket(rate=settings.SKYJO_WS_RATE, burst=settings.SKYJO_WS_BURST)
        try:
            await self.open()
        except (NotFound, *DATABASE_DOWN) as exc:
            await self.leave_groups()
            if isinstance(exc, NotFound):
                await self.close(code=close_codes.NOT_FOUND)
            else:
                await self.failed(exc, "connect")
                await self.close()

    async def open(self) -> None:
        raise NotImplementedError

    def param(self, name: str) -> str | None:
        return self.query.get(name, [None])[0]

    async def join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.joined.append(group)

    async def leave_groups(self) -> None:
        while self.joined:
            await self.channel_layer.group_discard(self.joined.pop(), self.channel_name)

    async def enter(self, *groups: str) -> bool:
        """Claim this socket under the caps, join ``groups`` and the user's group, accept; over a
        cap, accept and close with ``4430`` (a refused handshake would hide the code)."""
        client = self.scope.get("client") or [None]
        claim = {"user_id": self.user.pk, "address": client[0], "channel": self.channel_name}
        full = await sync_to_async(caps.claim, thread_sensitive=False)(**claim)
        if full:
            log.info("socket refused: user %s has too many open (%s cap)", self.user.pk, full)
            await self.accept()
            await self.close(code=close_codes.TOO_MANY_SOCKETS)
            return False
        self.claim = claim
        self.claim_task = asyncio.ensure_future(self.renew_claim())
        for group in groups:
            await self.join(group)
        self.session_tag = accounts_access.session_tag(
            getattr(self.scope.get("session"), "session_key", None)
        )
        self.user_group = accounts_access.user_group(self.user.pk)
        await self.join(self.user_group)
        await self.accept()
        return True

    async def accept(self, *args, **kwargs):
        await super().accept(*args, **kwargs)
        self.accepted = True

    async def close(self, *args, **kwargs):
        self.closed = True
        await super().close(*args, **kwargs)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A push to a client that has just gone (its disconnect still queued) goes nowhere."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.info("%s: closed before a push reached it", self.label)

    async def renew_claim(self) -> None:
        while True:
            await asyncio.sleep(caps.RENEW)
            try:
                await sync_to_async(caps.renew, thread_sensitive=False)(**self.claim)
            except Exception:
                log.warning("could not renew a socket's claim", exc_info=True)

    async def disconnect(self, code):
        if self.claim_task is not None:
            self.claim_task.cancel()
        if self.claim is not None:
            claim, self.claim = self.claim, None
            release = sync_to_async(caps.release, thread_sensitive=False)
            await self.attempt("claim not released", release, **claim)  # else it lapses
        await self.leave_groups()

    async def sockets_close(self, event) -> None:
        """The user's access ended (accounts.access): every socket, or one session's."""
        if event.get("session") in (None, self.session_tag):
            await self.close(code=close_codes.UNAUTHENTICATED)

    async def receive(self, text_data=None, bytes_data=None):
        if self.closed or not self.accepted:
            return
        if settings.RATELIMIT_ENABLE and not self.bucket.take():
            await self.refuse_flood()
            return
        if self.sheds and not shedding.enter():
            await self.send_error(Busy())
            return
        try:
            await self.frame(text_data, bytes_data)
        except ServiceError as exc:
            await self.send_error(exc)
        except Exception as exc:
            await self.failed(exc, "frame", answer=True)
        finally:
            if self.sheds:
                shedding.leave()

    async def frame(self, text_data, bytes_data) -> None:
        raise NotImplementedError

    async def send_error(self, exc: ServiceError, html=None) -> None:
        """``exc`` to this socket only: JSON, or ``html(message, code)`` (``error_html``)."""
        with translation.override(self.language):
            if self.json_mode:
                text = json.dumps(exc.to_json())
            else:
                text = (html or self.error_html)(exc.message, exc.code)
        await self.send(text_data=text)

    async def refuse_flood(self) -> None:
        self.dropped += 1
        limit = settings.SKYJO_WS_MAX_DROPPED
        if self.dropped <= limit:
            if self.dropped == 1:
                log.info("%s: user %s over the frame rate", self.label, self.user.pk)
            message = gettext_lazy("Too many messages at once: this one was ignored. Slow down.")
            await self.send_error(ServiceError(message, code="rate_limited"))
        elif self.dropped == limit + 1:
            log.warning(
                "%s: user %s closed after %s refused frames", self.label, self.user.pk, limit
            )
            await self.close(code=close_codes.RATE_LIMITED)

    async def failed(self, exc: BaseException, what: str, *, answer: bool = False) -> None:
        """Log a failure (a line for the database down or a shutdown, else a traceback); with
        ``answer``, tell the client (``unavailable`` or ``server_error``)."""
        if isinstance(exc, DATABASE_DOWN):
            log.warning("%s: %s: database unavailable: %s", self.label, what, one_line(exc))
            error = Unavailable()
        elif shutting_down(exc):
            log.warning("%s: %s: the server is shutting down", self.label, what)
            return
        else:
            log.error("%s: %s failed", self.label, what, exc_info=exc)
            error = ServiceError("Something went wrong on the server.", code="server_error")
        if answer and not self.closed:
            await self.send_error(error)

    async def attempt(self, what: str, call, *args, **kwargs):
        """``await call(*args, **kwargs)``, or :data:`FAILED` after :meth:`failed`."""
        try:
            return await call(*args, **kwargs)
        except Exception as exc:
            await self.failed(exc, what)
            return FAILED


class UnknownSocket(AsyncWebsocketConsumer):
    """Any other path under ``ws/``: refused (HTTP 403 over Daphne, ``4404`` in process)."""

    async def connect(self):
        await self.close(code=close_codes.NOT_FOUND)
