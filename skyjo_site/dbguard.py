"""Websocket handshakes while the database is out of reach (a restart, a failover).

Channels' AuthMiddleware reads the session before any consumer runs; when that read fails,
:class:`RefuseWhileDatabaseDown` refuses the handshake with one log line instead of a traceback
and a 500, and the clients connect again by themselves.
"""

import logging

from core.errors import DATABASE_DOWN, one_line

log = logging.getLogger(__name__)


class RefuseWhileDatabaseDown:
    """ASGI middleware around the websocket stack; errors after the accept are not its business
    (Daphne closes the socket with 1011, which clients answer by reconnecting)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        accepted = False

        async def watch(message):
            nonlocal accepted
            accepted = accepted or message["type"] == "websocket.accept"
            await send(message)

        try:
            return await self.app(scope, receive, watch)
        except DATABASE_DOWN as exc:
            if accepted:
                raise
            log.warning(
                "websocket %s refused: database unavailable: %s", scope["path"], one_line(exc)
            )
            await send({"type": "websocket.close"})
