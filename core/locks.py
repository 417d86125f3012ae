"""The site's one lock order, and the only place a row lock is taken.

A transaction locks rows of these models in this order, never back (rows of one model in id
order); each app names its own locks on top of ``hold``. FOR NO KEY UPDATE: rows that refer to a
locked one may still be inserted. Call inside a transaction."""

ORDER = (
    "games.lobby",
    "games.game",
    "accounts.user",
    "tournaments.tournament",
    "chat.message",
    "moderation.report",
)


def hold(rows, *, skip_locked: bool = False):
    """``rows`` (a queryset of a model of ``ORDER``) to be read with their rows locked."""
    label = rows.model._meta.label_lower
    if label not in ORDER:
        raise ValueError(f"{label} has no place in core.locks.ORDER")
    return rows.select_for_update(no_key=True, of=("self",), skip_locked=skip_locked)
