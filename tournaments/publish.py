"""Telling a tournament's live pages what changed, after the commit. A message names the
tournament's new ``version`` only; each socket reads and renders the standings itself, at most
a few times a second (web.tournaments.socket). Seated players hear of their table."""

from django.db import transaction

from games import publish as games_publish

LIST_GROUP = "tournaments"


def group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def changed(tournament_id: int, version: int) -> None:
    event = {"type": "tournament.changed", "version": version}
    transaction.on_commit(lambda: games_publish._send(group(tournament_id), event))


def seated(tournament_id: int, tables: dict[int, int]) -> None:
    """``tables``: user id -> the game id of their new table."""
    event = {"type": "tournament.seated", "tables": {str(u): g for u, g in tables.items()}}
    transaction.on_commit(lambda: games_publish._send(group(tournament_id), event))


def table_over(tournament_id: int, user_ids: list[int]) -> None:
    """The players of a table whose game has ended: their page's table notice goes."""
    event = {"type": "tournament.table_over", "users": list(user_ids)}
    transaction.on_commit(lambda: games_publish._send(group(tournament_id), event))
