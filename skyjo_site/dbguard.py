"""Websocket handshakes while the database is out of reach: refused with one log line, not a
traceback (channels' AuthMiddleware reads the session before any consumer runs)."""

import logging

from channels.middleware import BaseMiddleware

from core.errors import DATABASE_DOWN, one_line

log = logging.getLogger(__name__)


class RefuseWhileDatabaseDown(BaseMiddleware):
    """ASGI middleware around the websocket stack, for errors before the accept only."""

    async def __call__(self, scope, receive, send):
        accepted = False

        async def watch(message):
            nonlocal accepted
            accepted = accepted or message["type"] == "websocket.accept"
            await send(message)

        try:
            return await self.inner(scope, receive, watch)
        except DATABASE_DOWN as exc:
            if accepted:
                raise
            log.warning(
                "websocket %s refused: database unavailable: %s", scope["path"], one_line(exc)
            )
            await send({"type": "websocket.close"})
