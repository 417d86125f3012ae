"""Every write of the games app: lobbies and moves. Views, consumers and bots call these;
moderators' writes (close a lobby, stop a game) are in games.moderation, which ends a game
through abort_game as a player ending their game against bots (game_abandon) does.

Each service runs in one transaction, locks the row it changes (``select_for_update``), and
tells the world only after the commit (``transaction.on_commit``), so that every accepted action
is in the database before anyone hears of it.

Every row lock of the project is ``no_key=True`` (PostgreSQL's FOR NO KEY UPDATE): no service
changes a key, and such a lock does not hold up the foreign-key check (FOR KEY SHARE, at
commit) of a row inserted elsewhere that refers to the locked one. With plain FOR UPDATE a chat
post in a game (holding its author's row, its message referring to the game) and a round's
last move (holding the game, its results referring to the author) waited for each other.
"""

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from accounts.names import short_name
from core.errors import (
    BadRequest,
    EndingChanged,
    GameOver,
    IllegalMove,
    InvalidLobby,
    LobbyClosed,
    LobbyFull,
    LobbyNotOpen,
    NotAPlayer,
    NotEnoughPlayers,
    NotFound,
    NotHost,
    NotInLobby,
    NotInvited,
    NotYoursToEnd,
    RemovedFromLobby,
    StaleVersion,
    TooManyTables,
    WrongPhase,
)
from core.text import has_nothing_to_see, one_line
from games import clock, compiled, engine, movelog, presence, publish, ratings, selectors
from games.bots import AWAY_LEVEL, LEVEL_LABELS, LEVELS
from games.labels import BOT_LEVEL_LABELS
from games.models import (
    MAX_SEATS,
    MIN_SEATS,
    TURN_CLOCKS,
    Game,
    GamePlayer,
    Lobby,
    Move,
    Round,
    Seat,
)
from stats import recording as stats_recording

MAX_NAME = 60
MAX_END_SCORE = 1000
MAX_GRACE = 3600


@dataclass(frozen=True, slots=True)
class MoveResult:
    game_id: int
    version: int
    seat: int
    action: dict
    phase: str
    drawn: int | None = None  # after a draw: the card, for the drawer's own eyes only


# ---------------------------------------------------------------------------------- lobbies


def lobby_create(
    *,
    host,
    name: str,
    seat_count: int = 4,
    is_public: bool = True,
    end_score: int = 100,
    double_on_tie: bool = True,
    final_reveal_clears_columns: bool = True,
    disconnect_grace: int | None = None,
    turn_clock: int = 0,
) -> Lobby:
    """Open a lobby with ``seat_count`` seats; the host takes seat 0. ``turn_clock``: seconds
    per turn (one of TURN_CLOCKS), 0 for none (games.clock)."""
    if disconnect_grace is None:
        disconnect_grace = settings.SKYJO_DISCONNECT_GRACE
    if type(disconnect_grace) is not int or not 0 <= disconnect_grace <= MAX_GRACE:
        raise InvalidLobby(
            format_lazy(_("The disconnect grace must be from 0 to {max} seconds."), max=MAX_GRACE)
        )
    if type(turn_clock) is not int or turn_clock not in TURN_CLOCKS:
        raise InvalidLobby(
            format_lazy(
                _("The turn clock is off (0) or one of {seconds} seconds."),
                seconds=", ".join(str(s) for s in TURN_CLOCKS if s),
            )
        )
    name = one_line(name or "")
    if has_nothing_to_see(name) or len(name) > MAX_NAME:
        raise InvalidLobby(
            format_lazy(_("A lobby needs a name of 1 to {max} characters."), max=MAX_NAME)
        )
    if type(seat_count) is not int or not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise InvalidLobby(
            format_lazy(_("A lobby has {min} to {max} seats."), min=MIN_SEATS, max=MAX_SEATS)
        )
    if type(end_score) is not int or not 1 <= end_score <= MAX_END_SCORE:
        raise InvalidLobby(
            format_lazy(_("The end score must be from 1 to {max}."), max=MAX_END_SCORE)
        )
    with transaction.atomic():
        _check_tables(host, lock=True)
        lobby = Lobby.objects.create(
            name=name,
            host=host,
            seat_count=seat_count,
            is_public=bool(is_public),
            end_score=end_score,
            double_on_tie=bool(double_on_tie),
            final_reveal_clears_columns=bool(final_reveal_clears_columns),
            disconnect_grace=disconnect_grace,
            turn_clock=turn_clock,
        )
        Seat.objects.bulk_create(
            Seat(lobby=lobby, index=i, user=host if i == 0 else None) for i in range(seat_count)
        )
        announce_lobby(lobby.pk)
    return lobby


def lobby_join(
    *, lobby_id: int, user, invite_code: str | None = None, seat_index: int | None = None
) -> Seat:
    """Sit ``user`` down in the first free seat (or ``seat_index``); joining twice is a no-op."""
    with transaction.atomic():
        lobby = _lock_lobby(lobby_id)
        seats = list(lobby.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is not None:
            return mine
        _check_open(lobby)
        if lobby.removed_users.filter(pk=user.pk).exists():
            raise RemovedFromLobby()
        if not lobby.is_public and not lobby.invited_by(invite_code):
            raise NotInvited()
        _check_tables(user, lock=True)
        free = [s for s in seats if s.is_empty]
        if seat_index is not None:
            free = [s for s in free if s.index == seat_index]
        if not free:
            raise LobbyFull()
        seat = free[0]
        seat.user = user
        try:
            with transaction.atomic():
                seat.save(update_fields=["user"])
        except IntegrityError:
            raise LobbyFull(_("That seat was just taken.")) from None
        announce_lobby(lobby.pk)
    return seat


def lobby_leave(*, lobby_id: int, user) -> Lobby:
    """Give up one's seat; a leaving host hands the lobby on, or closes it when alone."""
    with transaction.atomic():
        lobby = _lock_lobby(lobby_id)
        _check_open(lobby)
        seats = list(lobby.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise NotInLobby()
        mine.user = None
        mine.save(update_fields=["user"])
        if lobby.host_id == user.pk:
            heirs = [s for s in seats if s.user_id is not None and s.pk != mine.pk]
            if heirs:
                lobby.host_id = heirs[0].user_id
                lobby.save(update_fields=["host"])
            else:
                lobby.status = Lobby.Status.CLOSED
                lobby.save(update_fields=["status"])
        announce_lobby(lobby.pk)
    return lobby


def lobby_remove_player(*, lobby_id: int, host, seat_index: int) -> None:
    """The host removes the player in ``seat_index``, who may not come back."""
    with transaction.atomic():
        lobby = _lock_open_lobby_as_host(lobby_id, host, _("Only the host can remove players."))
        seat = lobby.seats.filter(index=seat_index).first()
        if seat is None or seat.is_empty:
            raise BadRequest(_("That seat is empty."))
        if seat.user_id == host.pk:
            raise BadRequest(_("The host cannot remove themself: leave the lobby instead."))
        if seat.user_id is not None:
            lobby.removed_users.add(seat.user_id)
        seat.user = None
        seat.bot_level = ""
        seat.save(update_fields=["user", "bot_level"])
        announce_lobby(lobby.pk)


def lobby_add_bot(*, lobby_id: int, host, seat_index: int, level: str) -> Seat:
    """The host puts a bot of ``level`` (one of games.bots.LEVELS) in the empty ``seat_index``."""
    if level not in LEVELS:
        raise BadRequest(format_lazy(_("Choose a bot level: {levels}."), levels=_level_list()))
    with transaction.atomic():
        lobby = _lock_open_lobby_as_host(lobby_id, host, _("Only the host can add bots."))
        seat = lobby.seats.filter(index=seat_index).first()
        if seat is None:
            raise BadRequest(_("There is no such seat."))
        if not seat.is_empty:
            raise LobbyFull(_("That seat is taken."))
        seat.bot_level = level
        seat.save(update_fields=["bot_level"])
        announce_lobby(lobby.pk)
    return seat


def lobby_remove_bot(*, lobby_id: int, host, seat_index: int) -> None:
    """The host takes the bot out of ``seat_index``: the seat is empty again."""
    with transaction.atomic():
        lobby = _lock_open_lobby_as_host(lobby_id, host, _("Only the host can remove bots."))
        seat = lobby.seats.filter(index=seat_index).first()
        if seat is None or not seat.bot_level:
            raise BadRequest(_("There is no bot in that seat."))
        seat.bot_level = ""
        seat.save(update_fields=["bot_level"])
        announce_lobby(lobby.pk)


def bot_game_create(*, user, bots: int = 3, level: str = "medium", end_score: int = 100) -> Game:
    """One click from the home page: a private lobby of ``user`` and ``bots`` bots, started."""
    if type(bots) is not int or not 1 <= bots <= MAX_SEATS - 1:
        raise InvalidLobby(format_lazy(_("Play against 1 to {max} bots."), max=MAX_SEATS - 1))
    if level not in LEVELS:
        raise BadRequest(format_lazy(_("Choose a bot level: {levels}."), levels=_level_list()))
    with transaction.atomic():
        lobby = lobby_create(
            host=user,
            name=f"{short_name(user.username)} vs {bots} {LEVEL_LABELS[level].lower()} bot"
            + "s" * (bots > 1),
            seat_count=bots + 1,
            is_public=False,
            end_score=end_score,
        )
        lobby.seats.filter(index__gt=0).update(bot_level=level)
        return lobby_start(lobby_id=lobby.pk, user=user)


def lobby_start(*, lobby_id: int, user) -> Game:
    """The host starts the game with everybody seated (at least two)."""
    with transaction.atomic():
        lobby = _lock_open_lobby_as_host(lobby_id, user, _("Only the host can start the game."))
        seated = [s for s in lobby.seats.select_related("user") if not s.is_empty]
        if len(seated) < MIN_SEATS:
            raise NotEnoughPlayers()
        players = [(s.user, s.bot_level) for s in seated]
        game = _create_game(lobby, players)
        lobby.status = Lobby.Status.PLAYING
        lobby.game = game
        lobby.save(update_fields=["status", "game"])
        announce_lobby(lobby.pk)
    return game


# ---------------------------------------------------------------------------------- games


def game_apply_action(
    *,
    game_id: int,
    action: object,
    version: object,
    user=None,
    seat: int | None = None,
    timed_out: bool = False,
) -> MoveResult:
    """Apply one engine step for ``user`` (or, for a bot runner, ``seat``) and save it.
    ``timed_out``: the runner plays it because the turn clock ran out on ``seat`` (the board's
    last moves say so).

    Refuses, changing nothing: a non-player, a finished game, a ``version`` other than the
    game's (except reveals in the reveal phase, which all players make at once), and
    everything the engine refuses. Publishes the new state after the commit.
    """
    if (user is None) == (seat is None):
        raise ValueError("pass exactly one of user and seat")
    if timed_out and user is not None:
        raise ValueError("only the runner plays a turn whose time ran out")
    if type(version) is not int:
        raise BadRequest(_('Every action needs the "version" of the state you saw, as an integer.'))
    try:
        step = engine.Action.from_json(action)
    except engine.EngineError as exc:
        raise _engine_error(exc) from None
    try:
        return _apply(game_id, step, version, user, seat, timed_out, lobby_locked=False)
    except _LobbyNeeded:  # the game's last move: again, with the lobby locked first
        return _apply(game_id, step, version, user, seat, timed_out, lobby_locked=True)


class _LobbyNeeded(Exception):
    """A move that ends the game also marks its lobby finished, so it must lock the lobby, and
    the lock order (Lobby, then Game) puts that lock first. Ordinary moves skip it: one such
    move per game is tried twice instead of every move paying for the lobby's lock."""


def _apply(game_id, step, version, user, seat, timed_out, *, lobby_locked: bool) -> MoveResult:
    with transaction.atomic():
        if lobby_locked:
            _lock_lobby_of(game_id)
        game = _lock_game(game_id)
        seats = presence.seats_of(game)
        if user is not None:
            seat = _seat_in(seats, user)
        if game.is_over:
            raise GameOver()
        state = restore(game)
        # Everyone reveals at once: an older version is fine, one the game never had is not.
        simultaneous = step.kind == engine.REVEAL and state.phase == engine.REVEAL_PHASE
        if version != game.version and not (simultaneous and 0 <= version <= game.version):
            raise StaleVersion(sent=version, current=game.version)
        round_before, results_before = state.round, len(state.results)
        turn_before = clock.turn_of(state)
        try:
            facts = engine.apply_described(state, seat, step)
        except engine.EngineError as exc:
            raise _engine_error(exc) from None
        if state.finished and not lobby_locked:
            raise _LobbyNeeded  # nothing written yet: the transaction rolls back
        game.version += 1
        if timed_out:
            facts = {**facts, "timed_out": True}
        game.recent = movelog.push(game.recent, facts, game.version)
        compiled.insert(
            Move(
                game=game,
                version=game.version,
                round=round_before,
                seat=seat,
                action=step.to_json(),
                reshuffle=state.last_reshuffle,
            )
        )
        changed = []
        if len(state.results) > results_before:
            changed = _save_scores(game, state, seats)
        event = {"kind": "move", "seat": seat, "action": step.to_json()}
        mover = seat if user is not None else None
        _step_done(game, state, seats, event, turn_before, mover, "recent", *changed)
        return MoveResult(game.pk, game.version, seat, step.to_json(), state.phase, state.drawn)


def game_set_ready(*, game_id: int, user=None, seat: int | None = None) -> int:
    """Mark a player ready for the next round; deal it once every human player is ready."""
    if (user is None) == (seat is None):
        raise ValueError("pass exactly one of user and seat")
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = presence.seats_of(game)
        if user is not None:
            seat = _seat_in(seats, user)
        if game.is_over:
            raise GameOver()
        if game.phase != engine.ROUND_OVER:
            raise WrongPhase(_("You can only get ready for the next round once a round is scored."))
        humans = [p.seat for p in seats[0] if not presence.is_bot(p)]
        ready = sorted({*game.ready, seat})
        everyone = all(s in ready for s in humans)
        # Ready again: nothing changes, unless nobody is left to wait for (the last human not
        # ready lost their account since, and the seat is the bot's): then the round is dealt.
        if seat in game.ready and not everyone:
            return game.version
        state = restore(game)
        turn_before = clock.turn_of(state)
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
        mover = seat if user is not None else None
        _step_done(game, state, seats, event, turn_before, mover, "ready", "recent")
        return game.version


def game_rematch(*, game_id: int, user) -> Game:
    """A new game with the same players and rules, once this one is over (made only once)."""
    with transaction.atomic():
        lobby = _lock_lobby_of(game_id)
        game = _lock_game(game_id)
        _seat_of(game, user)
        if game.status != Game.Status.FINISHED:
            raise WrongPhase(_("A rematch can be started only when the game is over."))
        if game.rematch_id:
            return game.rematch
        if lobby.status == Lobby.Status.CLOSED:  # by a moderator: a rematch would reopen it
            raise LobbyClosed()
        _check_tables(user)
        players = [  # a deleted account's seat: a bot, as it was in this game
            (p.user, p.bot_level or ("" if p.user_id else AWAY_LEVEL))
            for p in game.players.select_related("user")
        ]
        new = _create_game(lobby, players)
        game.rematch = new
        game.version += 1
        game.save(update_fields=["rematch", "version", "updated_at"])
        lobby.status = Lobby.Status.PLAYING
        lobby.game = new
        lobby.save(update_fields=["status", "game"])
        announce_game(game, restore(game), {"kind": "rematch", "game": new.pk})
        announce_lobby(lobby.pk)
        return new


def game_abandon(*, game_id: int, user, counts: bool | None = None) -> bool:
    """The only human of a game against bots ends it, stopped (its lobby finished, the bot
    runner done with it). Before a move of their own it is voided as a moderator's stop is
    (it counts in no statistics and no rating); after one it is resigned: it counts in the
    statistics as finished, that player last (stats.recording.game_resigned; a game with bots
    is never rated), so that nobody keeps only the games they win. Returns whether it counts.

    ``counts``: what the player was told ending it would be (selectors.end_counts, on the
    game page); if it is no longer so (they moved since), :class:`EndingChanged`.
    Refuses, changing nothing: a non-player, a game over, a game with another human seat (a
    game among people is not one player's to end)."""
    with transaction.atomic():
        lobby = _lock_lobby_of(game_id)
        game = _lock_game(game_id)
        seats = presence.seats_of(game)
        seat = _seat_in(seats, user)
        if game.is_over:
            raise GameOver()
        if not presence.is_sole_human(seats[0], seat):
            raise NotYoursToEnd()
        resign = selectors.end_counts(game, seat)
        if counts is not None and counts != resign:
            raise EndingChanged()
        if lobby is not None and lobby.game_id == game.pk:
            lobby.status = Lobby.Status.FINISHED
            lobby.save(update_fields=["status"])
        if resign:
            game.resigned = seat
            stats_recording.game_resigned(game=game, players=seats[0], seat=seat)
        abort_game(game, lobby, void=not resign)
        return resign


def abort_game(game: Game, lobby: Lobby | None, *, void: bool) -> bool:
    """Abort ``game`` (locked, with its ``lobby`` locked before it) and tell everyone after the
    commit; with ``void`` it counts nowhere (``Game.voided``). The one way a game ends before
    its end: a player's (game_abandon), a moderator's and the stall guard's (games.moderation).
    ``False``: it was over already, and stays as it ended."""
    if game.is_over:
        return False
    game.status = Game.Status.ABORTED
    game.voided = void
    game.finished_at = timezone.now()
    game.bot_due_at = None
    game.version += 1
    fields = ["status", "voided", "resigned", "finished_at", "bot_due_at", "version"]
    game.save(update_fields=[*fields, "updated_at"])
    announce_game(game, restore(game), {"kind": "aborted"})
    if lobby is not None:
        announce_lobby(lobby.pk)
    return True


# ---------------------------------------------------------------------------------- helpers


def _lock_lobby(lobby_id: int) -> Lobby:
    try:
        return Lobby.objects.select_for_update(no_key=True).get(pk=lobby_id)
    except Lobby.DoesNotExist:
        raise NotFound(_("There is no such lobby.")) from None


def _lock_lobby_of(game_id: int) -> Lobby | None:
    """Lock the lobby of game ``game_id`` (one query), for a game service that will write the
    lobby: the lock order is Lobby, then Game, then GamePlayer, everywhere, so that a moderator
    closing the lobby and the game's last move never wait for each other in a circle."""
    return Lobby.objects.select_for_update(no_key=True, of=("self",)).filter(games=game_id).first()


_LOCK_GAME = compiled.Select(
    lambda pk: (
        Game.objects.select_for_update(no_key=True, of=("self",))
        .select_related("lobby")
        .order_by()
        .filter(pk=pk)
    )
)


def _lock_game(game_id: int) -> Game:
    """Lock game ``game_id``'s row; its lobby's settings come with it (presence.seats_of)."""
    game = _LOCK_GAME.first(game_id)
    if game is None:
        raise NotFound(_("There is no such game."))
    return game


def _lock_open_lobby_as_host(lobby_id: int, host, refusal: str) -> Lobby:
    """Lock the lobby; refuse (``refusal``) anyone but its host, and a lobby no longer open."""
    lobby = _lock_lobby(lobby_id)
    if lobby.host_id != host.pk:
        raise NotHost(refusal)
    _check_open(lobby)
    return lobby


def _check_tables(user, *, lock: bool = False) -> None:
    """Refuse ``user`` a new table (a lobby, a seat, a bot game, a rematch) while they have
    SKYJO_MAX_TABLES already: open lobbies they sit in (their own too) and games in play they
    sit in. Each game is played on by the bot runner to its end, however long, whether anyone
    is there or not, and a seat taken in every open lobby would put an absent player in every
    game started. ``lock``: hold the user's row, so that two of their requests are counted one
    at a time."""
    limit = settings.SKYJO_MAX_TABLES
    if not limit or not settings.RATELIMIT_ENABLE:
        return
    if lock:
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    seated = Seat.objects.filter(user_id=user.pk, lobby__status=Lobby.Status.OPEN).count()
    playing = GamePlayer.objects.filter(user_id=user.pk, game__status=Game.Status.PLAYING).count()
    if seated + playing >= limit:
        raise TooManyTables(limit)


def _check_open(lobby: Lobby) -> None:
    if lobby.status == Lobby.Status.CLOSED:
        raise LobbyClosed()
    if lobby.status != Lobby.Status.OPEN:
        raise LobbyNotOpen()


def _seat_in(seats: tuple[list, int], user) -> int:
    """``user``'s seat among the players of presence.seats_of (no query)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAPlayer(_("Log in to play."))
    seat = next((p.seat for p in seats[0] if p.user_id == user.pk), None)
    if seat is None:
        raise NotAPlayer()
    return seat


def _seat_of(game: Game, user) -> int:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAPlayer(_("Log in to play."))
    seat = (
        GamePlayer.objects.filter(game_id=game.pk, user_id=user.pk)
        .values_list("seat", flat=True)
        .first()
    )
    if seat is None:
        raise NotAPlayer()
    return seat


def restore(game: Game) -> engine.Game:
    """The engine game of ``game``'s saved snapshot, in time independent of the game's length.
    What is still to come (a reshuffle, the next deal) gets a fresh secret seed."""
    return engine.from_snapshot(game.snapshot, seed=secrets.randbits(64))


def _level_list():
    """The bot levels' names, in the language of wherever the message is shown."""
    labels = [BOT_LEVEL_LABELS[level] for level in LEVELS]
    return format_lazy(", ".join("{}" for _label in labels), *labels)


def _engine_error(exc: engine.EngineError) -> IllegalMove:
    """The engine's English message; it is shown translated by its code (core.errors)."""
    message = str(exc)
    return IllegalMove(message[:1].upper() + message[1:] + ".", code=exc.code)


def _player_names(players: list[tuple[object, str]]) -> list[str]:
    """Users by username; bots as "Medium bot 1", "Medium bot 2", numbered per level."""
    names, counts = [], {}
    for user, level in players:
        if user is not None:
            names.append(user.username)
        else:
            counts[level] = counts.get(level, 0) + 1
            names.append(f"{LEVEL_LABELS.get(level, level.title())} bot {counts[level]}")
    return names


def _create_game(lobby: Lobby, players: list[tuple[object, str]]) -> Game:
    names = _player_names(players)
    seed = secrets.randbits(62)
    state = engine.Game(names, engine.Rules(**lobby.rules_json), seed=seed)
    game = Game.objects.create(
        lobby=lobby, seed=seed, snapshot=engine.to_snapshot(state), phase=state.phase
    )
    GamePlayer.objects.bulk_create(
        GamePlayer(game=game, seat=i, user=user, bot_level=level, name=name)
        for i, ((user, level), name) in enumerate(zip(players, names, strict=True))
    )
    Round.objects.create(game=game, number=1, deck=state.log.deck)
    _schedule(game, state, presence.seats_of(game), restart=True)
    game.save(update_fields=["bot_due_at", "turn_started_at"])
    return game


def _save_scores(game: Game, state: engine.Game, seats: tuple[list, int]) -> list[str]:
    """A round was scored: its Round row, the players' totals and, at the end, the game's
    status. Returns the game fields it changed (saved by the caller)."""
    result = state.results[-1]
    Round.objects.filter(game=game, number=len(state.results)).update(
        starter=result.starter,
        ender=result.ender,
        raw=list(result.raw),
        scores=list(result.scores),
        scored_at=timezone.now(),
    )
    winners = set(state.winners)
    players = seats[0]
    for player in players:
        player.total = state.totals[player.seat]
        player.won = player.seat in winners
    GamePlayer.objects.bulk_update(players, ["total", "won"])
    stats_recording.round_scored(game=game, state=state, players=players)
    if not state.finished:
        return []
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    Lobby.objects.filter(pk=game.lobby_id, game=game).update(status=Lobby.Status.FINISHED)
    ratings.rate_finished_game(
        game_id=game.pk,
        totals_by_user={p.user_id: p.total for p in players if p.user_id is not None},
    )
    transaction.on_commit(lambda: publish.lobby_changed(game.lobby_id))
    return ["status", "finished_at"]


def _step_done(game, state, seats, event: dict, turn_before, mover, *fields: str) -> None:
    """The end of a step (a move, a ready): when the runner looks next and the turn clock
    (restarted if what the game waits for changed), the game row with ``fields`` saved, and
    ``event`` announced after the commit. ``turn_before``: clock.turn_of before the step;
    ``mover``: the seat of a player who acted themself, ``None`` for the bot runner."""
    restart = clock.turn_of(state) != turn_before
    _schedule(game, state, seats, restart=restart, mover=mover)
    _save(game, state, *fields)
    announce_game(game, state, event, seats)


def _save(game: Game, state: engine.Game, *fields: str) -> None:
    """Write what a step changes in the game row (one UPDATE): the snapshot, the phase, the
    version, the next look and the turn clock's start, and ``fields``."""
    game.snapshot = engine.to_snapshot(state)
    game.phase = state.phase
    compiled.update(
        game,
        ["snapshot", "phase", "version", "bot_due_at", "turn_started_at", "updated_at", *fields],
    )


def _schedule(
    game: Game, state: engine.Game, seats: tuple[list, int], *, restart=False, mover=None
) -> None:
    """Set when the bot runner (games.autoplay) next looks at ``game``: after the bot delay
    when a bot is to act (or a human already away), at the moment the human to act would
    count as away or run out of time otherwise, never once the game is over.

    ``seats``: presence.seats_of(game). ``restart``: what the game waits for changed
    (games.clock.turn_of), the turn clock starts again. ``mover``: the seat of a player who
    acted themself, which ends their run of timeouts."""
    now = timezone.now()
    if restart:
        game.turn_started_at = now
    game._seats = seats  # for announce_game's "away" and clock
    if mover is not None:
        _end_timeouts(seats[0], mover)
    game.bot_due_at = next_look(game, state, now, seats)


def _end_timeouts(players, seat: int) -> None:
    """``seat`` acted: its run of timeouts is over (no query unless there was one)."""
    player = next(p for p in players if p.seat == seat)
    if player.timeouts:
        GamePlayer.objects.filter(pk=player.pk).update(timeouts=0)
        player.timeouts = 0


def next_look(game: Game, state: engine.Game, now, seats_of=None) -> object:
    """The ``bot_due_at`` of ``game`` in ``state`` at ``now`` (``None``: nobody to wait for)."""
    if game.status != Game.Status.PLAYING:
        return None
    players, grace = seats_of or presence.seats_of(game)
    ends = clock.deadline(game, players)
    players = {p.seat: p for p in players}
    seats = clock.waiting_for(game, state, players)
    if seats is None:
        return None
    soon = now + timedelta(seconds=settings.SKYJO_BOT_DELAY)
    if not seats:  # a round over with every human ready: the runner deals (game_set_ready)
        return soon
    times = []
    for seat in seats:
        player = players[seat]
        if presence.is_bot(player):
            return soon
        due = presence.away_at(player, grace=grace, since=game.created_at)
        if ends is not None:
            due = min(due, ends)
        times.append(max(due, soon))
    return min(times, default=None)


def game_lock_due(*, game_id: int, now) -> tuple[Game, engine.Game] | None:
    """For the bot runner, inside its transaction: lock game ``game_id`` (its lobby first, the
    lock order of every game service) when it is playing and due at ``now``; returns the row
    and its engine game. ``None`` when another runner or a move holds it (skip locked: the
    runner looks again on its next pass) or when it moved on."""
    lobby = Lobby.objects.select_for_update(no_key=True, skip_locked=True, of=("self",)).filter(
        games=game_id
    )
    if lobby.first() is None:
        return None
    game = (
        Game.objects.select_for_update(no_key=True, skip_locked=True, of=("self",))
        .select_related("lobby")
        .filter(pk=game_id, status=Game.Status.PLAYING, bot_due_at__lte=now)
        .first()
    )
    return None if game is None else (game, restore(game))


def game_reschedule(*, game_id: int, delay: float | None = None) -> None:
    """Set when the bot runner next looks at game ``game_id``: in ``delay`` seconds, or (no
    delay) when its state says (:func:`next_look`); never once it is over."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.is_over:
            game.bot_due_at = None
        elif delay is None:
            game.bot_due_at = next_look(game, restore(game), timezone.now())
        else:
            game.bot_due_at = timezone.now() + timedelta(seconds=delay)
        game.save(update_fields=["bot_due_at"])


def game_seat_timed_out(*, game_id: int, seat: int) -> None:
    """The turn clock ran out on ``seat``, whose turn the bot runner now plays: one more
    timeout in a row. The runner calls it in its own transaction, before the step that ends
    the turn, so that the step's frame already shows a seat away once it is."""
    with transaction.atomic():
        _lock_game(game_id)
        GamePlayer.objects.filter(game_id=game_id, seat=seat, user__isnull=False).update(
            timeouts=F("timeouts") + 1
        )


def game_player_back(*, game_id: int, seat: int, seen: dict) -> None:
    """``seat``, away after timeouts, sent a frame: it is no longer away (``seen``: the
    presence columns to write). Tells everyone (a new version) and looks again at when the
    runner is due."""
    with transaction.atomic():
        game = _lock_game(game_id)
        GamePlayer.objects.filter(game=game, seat=seat).update(**seen, timeouts=0)
        if not game.is_over:
            _announce_back(game, seat, presence.seats_of(game))


def game_player_reconnected(*, game_id: int, seat: int) -> bool:
    """``seat`` counted as away (disconnected longer than the grace) when its socket connected,
    which game_player_seen has counted since: if that ended its away state, tell everyone, as
    game_player_back does. Whether it did."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.is_over:
            return False
        seats = presence.seats_of(game)
        if seat in presence.game_away_seats(game, seats=seats):
            return False  # away after timeouts: only a frame of the player's own ends that
        _announce_back(game, seat, seats)
        return True


def _announce_back(game: Game, seat: int, seats) -> None:
    """``seat`` is present again: a new version for everyone, and the runner's next look."""
    state = restore(game)
    game.version += 1
    _schedule(game, state, seats, mover=seat)
    game.save(update_fields=["version", "bot_due_at", "updated_at"])
    announce_game(game, state, {"kind": "back", "seat": seat})


def game_player_seen(*, game_id: int, user, change: int = 0, active: bool = False) -> None:
    """A sign of life from ``user``'s game socket: ``change`` is +1 on connect, -1 on
    disconnect, 0 for a frame or a heartbeat. ``active``: a frame the player sent (not the
    server's heartbeat), which ends their run of turn-clock timeouts (games.clock). A no-op
    for spectators. One UPDATE, its SQL built once (the heartbeats of every socket write it);
    a socket that opened or closed then tells the game's sockets (publish.presence_changed)."""
    now = timezone.now()
    values = (game_id, user.pk, now, change) if change else (game_id, user.pk, now)
    written = _SEEN[bool(change), active].run(*values)
    if not written and active:
        seat = (
            GamePlayer.objects.filter(game_id=game_id, user_id=user.pk)
            .values_list("seat", flat=True)
            .first()
        )
        if seat is not None:  # away after timeouts until now
            seen = {"last_seen": now}
            if change:
                seen["connections"] = _connections_after(change)
            game_player_back(game_id=game_id, seat=seat, seen=seen)
            written = True
    if written and change:  # a socket of a player opened or closed
        transaction.on_commit(lambda: publish.presence_changed(game_id))


def _connections_after(change):
    return Greatest(F("connections") + change, 0)


def _seen_statement(counted: bool, active: bool) -> compiled.Update:
    """The UPDATE of game_player_seen: ``counted``, with a change of the connection count;
    ``active``, ending a run of timeouts unless it made the seat away (no row then)."""

    def build(game_id, user_id, now, change=None):
        rows = GamePlayer.objects.filter(game_id=game_id, user_id=user_id)
        updates = {"last_seen": now}
        if counted:
            updates["connections"] = _connections_after(change)
        if active:
            rows = rows.filter(timeouts__lt=presence.AWAY_AFTER_TIMEOUTS)
            updates["timeouts"] = 0
        return rows, updates

    return compiled.Update(build)


_SEEN = {(c, a): _seen_statement(c, a) for c in (False, True) for a in (False, True)}


def announce_game(game: Game, state: engine.Game, event: dict, seats=None) -> None:
    """After the commit, tell every socket of ``game`` its new version: the public view, the
    public meta and ``event`` (games.publish). For the services of the games app and of
    moderation (games.moderation), inside their transaction."""
    public = engine.view_of(state, None)
    seats = seats or getattr(game, "_seats", None)  # set by _schedule; a game over needs none
    meta = selectors.game_meta(game, state, seats)
    transaction.on_commit(lambda: publish.game_changed(public, meta, event))


def announce_lobby(lobby_id: int) -> None:
    """After the commit, tell the lobby's page and the lobby list that it changed."""
    transaction.on_commit(lambda: publish.lobby_changed(lobby_id))


__all__ = [
    "MoveResult",
    "abort_game",
    "announce_game",
    "announce_lobby",
    "restore",
    "bot_game_create",
    "game_abandon",
    "game_apply_action",
    "game_lock_due",
    "game_reschedule",
    "game_player_back",
    "game_player_seen",
    "game_seat_timed_out",
    "game_rematch",
    "game_set_ready",
    "lobby_create",
    "lobby_join",
    "lobby_leave",
    "lobby_add_bot",
    "lobby_remove_bot",
    "lobby_remove_player",
    "lobby_start",
]
