"""The close codes of the site's websockets (docs/protocol.md), in one place for the game, lobby
and chat sockets."""

UNAUTHENTICATED = 4401  # not logged in, or the session or user may no longer act
NOT_FOUND = 4404  # no such game or lobby, or not one this user may see
RATE_LIMITED = 4429  # kept on flooding past SKYJO_WS_MAX_DROPPED refused frames
TOO_MANY_SOCKETS = 4430  # over SKYJO_WS_MAX_PER_USER or SKYJO_WS_MAX_PER_ADDRESS
