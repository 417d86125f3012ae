"""The turn clock (``Lobby.turn_clock`` seconds, 0: off; a correspondence lobby's days per
move) runs from ``Game.turn_started_at``, set whenever :func:`turn_of` changes; when it runs out
the bot runner plays the turn and counts a timeout on the seat. A player's vacation since the
turn began moves their deadline on by its length."""

from datetime import UTC, datetime, timedelta

from games import engine, presence


def turn_of(state: engine.Game) -> tuple:
    """What the clock runs for: it restarts whenever this changes."""
    playing = state.phase in (engine.PLAY, engine.FINAL)
    return (state.round, state.phase, state.current if playing else None)


def waiting_for(game, state: engine.Game, players: dict) -> list[int] | None:
    """The seats (bots too) whose step ``game`` waits for; ``None`` once nobody will act."""
    if state.phase == engine.ROUND_OVER:
        humans = [s for s, p in players.items() if not presence.is_bot(p)]
        return [s for s in humans if s not in game.ready]
    if state.phase == engine.REVEAL_PHASE:
        return list(state.to_act())
    if state.phase in (engine.PLAY, engine.FINAL):
        return [state.current]
    return None


def seconds_of(players) -> int:
    """The lobby's seconds per turn, from rows of ``presence.seats_of`` (0: off)."""
    return players[0].turn_clock if players else 0


def deadline(game, players, player=None) -> datetime | None:
    """When the seats ``game`` waits for run out of time (``player``: that seat, its vacations
    added); ``None``: no clock."""
    seconds = seconds_of(players)
    if not seconds or game.turn_started_at is None or game.status != "playing":
        return None
    ends = game.turn_started_at + timedelta(seconds=seconds)
    return ends + paused(getattr(player, "vacations", ()), game.turn_started_at)


def paused(vacations, since: datetime) -> timedelta:
    """How long the ``(start, end)`` ``vacations`` lasted after ``since``."""
    spans = (end - max(start, since) for start, end in vacations)
    return sum((span for span in spans if span > timedelta()), timedelta())


def reminder_at(game, players, player) -> datetime | None:
    """When a quarter of ``player``'s time is left (the reminder of a correspondence game)."""
    ends = deadline(game, players, player)
    return None if ends is None else ends - timedelta(seconds=seconds_of(players) / 4)


def out_of_time(game, players, player, now: datetime) -> bool:
    ends = deadline(game, players, player)
    return ends is not None and ends <= now


def finishes_turn(state: engine.Game, seat: int, step: engine.Action) -> bool:
    """Whether ``step`` ends what the clock waited on ``seat`` for (applied to ``state``)."""
    before = turn_of(state)
    state.apply(seat, step)
    return turn_of(state) != before or seat not in state.to_act()


def public(game, state: engine.Game, players, away) -> dict | None:
    """The public clock, ``{"seconds", "deadline" (ISO 8601 UTC, the first of the humans
    waited for), "seats" (those humans)}``, or ``None`` with no clock or no human waited for."""
    if deadline(game, players) is None:
        return None
    by_seat = {p.seat: p for p in players}
    waiting = waiting_for(game, state, by_seat) or []
    seats = [s for s in waiting if not presence.is_bot(by_seat[s]) and s not in away]
    if not seats:
        return None
    ends = min(deadline(game, players, by_seat[s]) for s in seats)
    stamp = ends.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"seconds": seconds_of(players), "deadline": stamp, "seats": seats}


def deadline_ms(clock: dict) -> int:
    """A public clock's deadline in milliseconds since the epoch (for the page's ticker)."""
    stamp = datetime.fromisoformat(clock["deadline"].replace("Z", "+00:00"))
    return int(stamp.timestamp() * 1000)
