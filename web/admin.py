"""The admin's pages, one module per area (Django's autodiscovery imports this one)."""

from web.accounts import admin as accounts_admin  # noqa: F401
from web.games import admin as games_admin  # noqa: F401
from web.moderation import admin as moderation_admin  # noqa: F401
from web.notifications import admin as notifications_admin  # noqa: F401
from web.puzzles import admin as puzzles_admin  # noqa: F401
