"""Every write of the tournaments app: making them, entries, the ticks that start, seat and end
them, and the results heard from games. Callers use this facade."""

from tournaments.services.creation import tournament_create
from tournaments.services.entries import entry_pause, entry_withdraw, tournament_join
from tournaments.services.ticks import tournament_step, tournaments_tick

__all__ = [
    "entry_pause",
    "entry_withdraw",
    "tournament_create",
    "tournament_join",
    "tournament_step",
    "tournaments_tick",
]
