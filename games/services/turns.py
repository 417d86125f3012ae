"""Whose turn it is in a correspondence game, kept where a page and a mail can ask: the
``GamePlayer.waiting`` flags, written with the step that changes them. Those the game begins to
wait for are told (``signals.turn_waits``, in the transaction), and every player whose list
changed gets their pages told after the commit (``publish.turns_changed``)."""

from django.db import transaction

from games import clock, presence, publish, signals
from games.models import Game, GamePlayer
from games.presence import Seats


def note_waiting(game: Game, state, seats: Seats) -> None:
    """Bring the ``waiting`` flags of ``game``'s humans up to date after a step (or its end)."""
    if not seats.correspondence:
        return
    playing = game.status == Game.Status.PLAYING
    waited = (clock.waiting_for(game, state, seats.by_seat()) or []) if playing else []
    changed = []
    for player in seats.players:
        now_waiting = player.seat in waited and not presence.is_bot(player)
        if player.user_id is not None and player.waiting != now_waiting:
            player.waiting = now_waiting
            changed.append(player)
    if not changed:
        return
    GamePlayer.objects.bulk_update(changed, ["waiting"])
    began = {p.user_id: clock.deadline(game, seats.players, p) for p in changed if p.waiting}
    if began:
        signals.turn_waits.send(Game, game=game, deadlines=began)
    users = [p.user_id for p in changed]
    transaction.on_commit(lambda: publish.turns_changed(users))


def game_remind(*, game: Game, seats: Seats, now) -> None:
    """Tell the humans ``game`` waits for whose reminder time has come and whose time is not
    out (the receivers send each reminder once per turn)."""
    due = {}
    for player in seats.players:
        if player.waiting and not presence.is_bot(player):
            ends = clock.deadline(game, seats.players, player)
            if clock.reminder_at(game, seats.players, player) <= now < ends:
                due[player.user_id] = ends
    if due:
        signals.turn_reminder.send(Game, game=game, deadlines=due)
