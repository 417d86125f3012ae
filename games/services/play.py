"""Play: moves, getting ready, rematch, ending, aborting. A move takes no lock: one conditional
write (``... WHERE version = v``) with its Move row decides it; a lost one is judged anew."""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import (
    BadRequest,
    EndingChanged,
    Forfeited,
    GameOver,
    IllegalMove,
    LobbyClosed,
    NoRematch,
    NotAPlayer,
    NotYoursToEnd,
    ServiceError,
    StaleVersion,
    TimeRanOut,
    WrongPhase,
)
from games import clock, engine, movelog, presence, selectors, signals
from games.bots import AWAY_LEVEL
from games.models import Game, GamePlayer, Lobby, Move, Round
from games.presence import Seats
from games.services import announce, held, locks
from games.services.lobbies import check_tables, create_game
from games.services.schedule import restore, schedule
from games.services.turns import note_waiting

# Every human can lose a race for each of their reveals once: then the move is judged anew.
ATTEMPTS = 2 * 8 + 1


@dataclass(frozen=True, slots=True)
class MoveResult:
    game_id: int
    version: int
    seat: int
    action: dict
    phase: str
    drawn: int | None = None  # after a draw: the card, for the drawer's own eyes only


class _Lost(Exception):
    """The conditional write matched no row: another writer changed the game first."""


def game_apply_action(
    *,
    game_id: int,
    action: object,
    version: object,
    user=None,
    seat: int | None = None,
    timed_out: bool = False,
    stand_in: bool = False,
) -> MoveResult:
    """Apply one step of ``user`` (or, for the bot runner, ``seat``; ``timed_out``: its clock
    ran out; ``stand_in``: played for a human seat, not by its player) and save it. Refuses a
    non-player, a game over, a stale ``version`` (but for simultaneous reveals) and what the
    engine refuses, changing nothing."""
    _one_of(user, seat)
    if (timed_out or stand_in) and user is not None:
        raise ValueError("only the runner plays a turn for a player")
    if type(version) is not int:
        raise BadRequest(_('Every action needs the "version" of the state you saw, as an integer.'))
    try:
        step = engine.Action.from_json(action)
    except engine.EngineError as exc:
        raise _engine_error(exc) from None
    fresh = False
    for _attempt in range(ATTEMPTS):
        try:
            return _apply(game_id, step, version, user, seat, timed_out, stand_in, fresh=fresh)
        except _Lost:
            held.forget(game_id)
            fresh = True
    current = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    raise StaleVersion(sent=version, current=current)


def _apply(game_id, step, version, user, seat, timed_out, stand_in, *, fresh) -> MoveResult:
    with transaction.atomic():
        game, state, seats = held.take(game_id, fresh=fresh)
        seat = seat if user is None else player_seat(seats, user)
        round_before, results_before = state.round, len(state.results)
        turn_before = clock.turn_of(state)
        try:
            if user is not None:
                _check_in_time(game, state, seats, seat)
            facts = _judge(game, state, seat, step, version)
        except ServiceError:
            if fresh:
                raise
            raise _Lost from None
        before = game.version
        if state.finished:  # the lobby's row first: the lock order
            game.status, game.finished_at = Game.Status.FINISHED, timezone.now()
            Lobby.objects.filter(
                pk=game.lobby_id, game=game.pk, status=Lobby.Status.PLAYING
            ).update(status=Lobby.Status.FINISHED)
        game.version += 1
        if timed_out:
            facts = {**facts, "timed_out": True}
        game.recent = movelog.push(game.recent, facts, game.version)
        _step_write(game, state, before, seats, turn_before, seat if user else None)
        Move.objects.create(
            game_id=game.pk,
            version=game.version,
            round=round_before,
            seat=seat,
            action=step.to_json(),
            reshuffle=state.last_reshuffle,
            stand_in=stand_in,
        )
        if len(state.results) > results_before:
            _save_scores(game, state, seats)
        announce.game(game, state, {"kind": "move", "seat": seat, "action": step.to_json()}, seats)
        result = MoveResult(game.pk, game.version, seat, step.to_json(), state.phase, state.drawn)
        held.hold(game, state, seats)
        return result


def game_refuse_stale(*, game_id: int, action: object, version: object) -> None:
    """Without a query: refuse a step on a version older than the one this process holds of
    the game (``StaleVersion``), as :func:`game_apply_action` would. Anything else passes."""
    known = held.peek(game_id)
    if known is None or type(version) is not int or version >= known.version:
        return
    try:
        step = engine.Action.from_json(action)
    except engine.EngineError:
        return  # the service says what is wrong with it
    if _stale(known.version, known.phase, step, version):
        raise StaleVersion(sent=version, current=known.version)


def _stale(current: int, phase: str, step, version: int) -> bool:
    """Whether ``version`` is not the ``current`` one, but for a simultaneous reveal."""
    simultaneous = step.kind == engine.REVEAL and phase == engine.REVEAL_PHASE
    return version != current and not (simultaneous and 0 <= version <= current)


def _judge(game: Game, state: engine.Game, seat: int, step, version: int) -> dict:
    if game.is_over:
        raise GameOver()
    if _stale(game.version, state.phase, step, version):
        raise StaleVersion(sent=version, current=game.version)
    try:
        return engine.apply_described(state, seat, step)
    except engine.EngineError as exc:
        raise _engine_error(exc) from None


def _check_in_time(game: Game, state: engine.Game, seats: Seats, seat: int) -> None:
    """Refuse a correspondence player who lost on time, or whose time ran out before the
    runner played their turn."""
    if not seats.correspondence or game.is_over:
        return
    player = seats.by_seat()[seat]
    if player.forfeited:
        raise Forfeited()
    waited = clock.waiting_for(game, state, seats.by_seat()) or []
    if seat in waited and clock.out_of_time(game, seats.players, player, timezone.now()):
        raise TimeRanOut()


def game_set_ready(*, game_id: int, user=None, seat: int | None = None) -> int:
    """Mark a player ready for the next round; deal it once every human player is ready."""
    _one_of(user, seat)
    with transaction.atomic():
        game = locks.game(game_id)
        seats = presence.seats_of(game)
        seat = seat if user is None else player_seat(seats, user)
        if game.is_over:
            raise GameOver()
        if game.phase != engine.ROUND_OVER:
            raise WrongPhase(_("You can only get ready for the next round once a round is scored."))
        state = restore(game)
        if user is not None:
            _check_in_time(game, state, seats, seat)
        humans = [p.seat for p in seats.players if not presence.is_bot(p)]
        ready = sorted({*game.ready, seat})
        everyone = all(s in ready for s in humans)
        # Ready again changes nothing, unless nobody is left to wait for: then it deals.
        if seat in game.ready and not everyone:
            return game.version
        turn_before = clock.turn_of(state)
        before = game.version
        game.version += 1
        if everyone:
            deck = engine.full_deck()
            state.rng.shuffle(deck)
            state.next_round(deck)
            Round.objects.create(game=game, number=state.round, deck=deck)
            game.ready = []
            game.recent = movelog.round_dealt(game.recent, state.round, game.version)
            event = {"kind": "round_started", "round": state.round}
        else:
            game.ready = ready
            event = {"kind": "ready", "seat": seat}
        _step_write(game, state, before, seats, turn_before, seat if user else None)
        announce.game(game, state, event, seats)
        held.hold(game, state, seats)
        return game.version


def game_rematch(*, game_id: int, user) -> Game:
    """A new game with the same players and rules, once this one is over (made only once)."""
    with transaction.atomic():
        lobby, game = locks.lobby_and_game(game_id)
        player_seat(presence.seats_of(game), user)
        if game.status != Game.Status.FINISHED:
            raise WrongPhase(_("A rematch can be started only when the game is over."))
        if game.rematch_id:
            return game.rematch
        if lobby.status == Lobby.Status.CLOSED:  # by a moderator: a rematch would reopen it
            raise LobbyClosed()
        if not lobby.offers_rematch:
            raise NoRematch()
        check_tables(user, correspondence=lobby.is_correspondence)
        players = [  # a deleted account's seat: a bot, as it was in this game
            (p.user, p.bot_level or ("" if p.user_id else AWAY_LEVEL))
            for p in game.players.select_related("user")
        ]
        new = create_game(lobby, players)
        game.rematch = new
        game.version += 1
        state = restore(game)
        _write(game, state, game.version - 1, fields=("rematch", "version"))
        held.forget(game.pk)
        lobby.status = Lobby.Status.PLAYING
        lobby.game = new
        lobby.save(update_fields=["status", "game"])
        announce.game(game, state, {"kind": "rematch", "game": new.pk})
        announce.lobby(lobby.pk)
        return new


def game_abandon(*, game_id: int, user, counts: bool | None = None) -> bool:
    """The only human of a game against bots ends it: voided before a move of their own, else
    resigned (counts, that player last); or a player aborts a game between people while one of
    them has made no move of their own (voided). Returns whether it counts. ``counts``: what
    the player was told (selectors.ending), else :class:`EndingChanged`."""
    with transaction.atomic():
        lobby, game = locks.lobby_and_game(game_id)
        seats = presence.seats_of(game)
        seat = player_seat(seats, user)
        if game.is_over:
            raise GameOver()
        terms = selectors.ending(game, seat)
        if terms is None:
            raise NotYoursToEnd()
        resign = terms.counts
        if counts is not None and counts != resign:
            raise EndingChanged()
        if lobby is not None and lobby.game_id == game.pk:
            lobby.status = Lobby.Status.FINISHED
            lobby.save(update_fields=["status"])
        abort_game(game, lobby, void=not resign, resigned=seat if resign else None)
        if resign:
            players = seats.players
            best = min(p.total for p in players if p.seat != seat)
            for player in players:
                player.won = player.seat != seat and player.total == best
            GamePlayer.objects.bulk_update(players, ["won"])
            signals.game_resigned.send(Game, game=game, players=players, seat=seat)
        return resign


def abort_game(game: Game, lobby: Lobby | None, *, void: bool, resigned=None) -> bool:
    """Abort ``game`` (locked, after its ``lobby``), voided with ``void``; ``resigned``: the seat
    that resigned. ``False``: it was over already."""
    if game.is_over:
        return False
    game.status = Game.Status.ABORTED
    game.voided, game.resigned = void, resigned
    game.finished_at = timezone.now()
    game.bot_due_at = None
    game.version += 1
    state = restore(game)
    fields = ("status", "voided", "resigned", "finished_at", "bot_due_at", "version")
    _write(game, state, game.version - 1, fields=fields)
    held.forget(game.pk)
    note_waiting(game, state, presence.seats_of(game))
    announce.game(game, state, {"kind": "aborted"})
    if lobby is not None:
        announce.lobby(lobby.pk)
    return True


def _one_of(user, seat) -> None:
    if (user is None) == (seat is None):
        raise ValueError("pass exactly one of user and seat")


def _step_write(game, state, before: int, seats: Seats, turn_before, mover) -> None:
    """Schedule the next look (the clock restarts if the turn changed), then write the step."""
    restart = clock.turn_of(state) != turn_before
    reset = schedule(game, state, seats, restart=restart, mover=mover)
    _write(game, state, before, reset=reset)
    note_waiting(game, state, seats, restarted=restart, mover=mover)


def player_seat(seats: Seats, user) -> int:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAPlayer(_("Log in to play."))
    seat = seats.seat_of(user.pk)
    if seat is None:
        raise NotAPlayer()
    return seat


_STEP = ("snapshot", "phase", "version", "recent", "ready", "bot_due_at", "turn_started_at")


def _write(game: Game, state, before: int, *, fields=_STEP, reset=None) -> None:
    """The conditional write of ``game``'s ``fields`` (``_Lost`` if its version is no longer
    ``before``, or its seats changed) and of ``reset``'s timeouts."""
    if "snapshot" in fields:
        game.snapshot, game.phase = engine.to_snapshot(state), state.phase
        if game.status == Game.Status.FINISHED:
            fields = (*fields, "status", "finished_at")
    game.updated_at = timezone.now()
    values = {name: getattr(game, name) for name in (*fields, "updated_at")}
    rows = Game.objects.filter(
        pk=game.pk, version=before, seats_version=game.seats_version, seed=game.seed
    )
    if not rows.update(**values):
        raise _Lost
    if reset is not None:
        GamePlayer.objects.filter(pk=reset.pk).update(timeouts=0)


def _save_scores(game: Game, state: engine.Game, seats: Seats) -> None:
    """A round was scored: its Round row, the totals and winners, the signals."""
    result = state.results[-1]
    Round.objects.filter(game=game, number=len(state.results)).update(
        starter=result.starter,
        ender=result.ender,
        raw=list(result.raw),
        scores=list(result.scores),
        scored_at=timezone.now(),
    )
    winners = set(state.winners)
    lost_on_time = {p.seat for p in seats.players if p.forfeited}
    if lost_on_time:  # the best of the others win
        rest = [p.seat for p in seats.players if p.seat not in lost_on_time]
        best = min((state.totals[s] for s in rest), default=None)
        winners = {s for s in rest if state.totals[s] == best}
    for player in seats.players:
        player.total = state.totals[player.seat]
        player.won = player.seat in winners
    GamePlayer.objects.bulk_update(seats.players, ["total", "won"])
    signals.round_scored.send(Game, game=game, state=state, players=seats.players)
    if state.finished:
        signals.game_finished.send(
            Game, game=game, players=seats.players, rounds=len(state.results)
        )
        announce.lobby(game.lobby_id)


def _engine_error(exc: engine.EngineError) -> IllegalMove:
    message = str(exc)
    return IllegalMove(message[:1].upper() + message[1:] + ".", code=exc.code)
