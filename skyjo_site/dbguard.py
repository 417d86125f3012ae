"""Websocket handshakes while the database is out of reach (a restart, a failover).

Channels' AuthMiddleware reads the session and the user from the database before any consumer
runs. When that read fails, Daphne would log a traceback per attempt and answer 500; with every
page reconnecting every few seconds that is a storm. :class:`RefuseWhileDatabaseDown` refuses
such a handshake with one log line instead: the browser (htmx's websocket extension) and the
JSON clients connect again by themselves a moment later.
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
