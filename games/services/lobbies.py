"""Lobbies: open, join, leave, seat bots, remove players, start the game. Each service runs in
one transaction holding the lobby's lock (games.services.locks) and tells after the commit."""

import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from accounts.names import short_name
from core.errors import (
    BadRequest,
    InvalidLobby,
    LobbyClosed,
    LobbyFull,
    LobbyNotOpen,
    NotEnoughPlayers,
    NotHost,
    NotInLobby,
    NotInvited,
    RemovedFromLobby,
    TooManyTables,
)
from core.text import has_nothing_to_see, one_line
from games import engine, presence
from games.bots import LEVEL_LABELS, LEVELS
from games.labels import BOT_LEVEL_LABELS
from games.models import (
    MAX_SEATS,
    MIN_SEATS,
    MOVE_DAYS,
    TURN_CLOCKS,
    Game,
    GamePlayer,
    Lobby,
    Round,
    Seat,
)
from games.services import announce, locks
from games.services.schedule import schedule
from games.services.turns import note_waiting

MAX_NAME = 60
MAX_END_SCORE = 1000
MAX_GRACE = 3600


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
    move_days: int = 0,
    on_timeout: str = Lobby.OnTimeout.BOT,
) -> Lobby:
    """Open a lobby with ``seat_count`` seats, the host in seat 0; ``turn_clock``: seconds per
    turn (one of TURN_CLOCKS), 0 for none; ``move_days``: a correspondence lobby's days per
    move (one of MOVE_DAYS; its turn clock is then off), with ``on_timeout``."""
    grace = settings.SKYJO_DISCONNECT_GRACE if disconnect_grace is None else disconnect_grace
    _within(grace, 0, MAX_GRACE, _("The disconnect grace must be from 0 to {max} seconds."))
    if type(turn_clock) is not int or turn_clock not in TURN_CLOCKS:
        clocks = ", ".join(str(s) for s in TURN_CLOCKS if s)
        raise InvalidLobby(
            format_lazy(_("The turn clock is off (0) or one of {seconds} seconds."), seconds=clocks)
        )
    if move_days != 0 and (type(move_days) is not int or move_days not in MOVE_DAYS):
        days = ", ".join(str(d) for d in MOVE_DAYS)
        raise InvalidLobby(format_lazy(_("The time per move is {days} days."), days=days))
    if on_timeout not in Lobby.OnTimeout.values:
        raise InvalidLobby(_("When time runs out, the bot plays the turn or the player loses."))
    if move_days:
        turn_clock = 0
    name = one_line(name or "")
    if has_nothing_to_see(name) or len(name) > MAX_NAME:
        raise InvalidLobby(
            format_lazy(_("A lobby needs a name of 1 to {max} characters."), max=MAX_NAME)
        )
    _within(seat_count, MIN_SEATS, MAX_SEATS, _("A lobby has {min} to {max} seats."))
    _within(end_score, 1, MAX_END_SCORE, _("The end score must be from 1 to {max}."))
    with transaction.atomic():
        check_tables(host, lock=True, correspondence=bool(move_days))
        lobby = Lobby.objects.create(
            name=name,
            host=host,
            seat_count=seat_count,
            is_public=bool(is_public),
            end_score=end_score,
            double_on_tie=bool(double_on_tie),
            final_reveal_clears_columns=bool(final_reveal_clears_columns),
            disconnect_grace=grace,
            turn_clock=turn_clock,
            move_days=move_days,
            on_timeout=on_timeout,
        )
        Seat.objects.bulk_create(
            Seat(lobby=lobby, index=i, user=host if i == 0 else None) for i in range(seat_count)
        )
        announce.lobby(lobby.pk)
    return lobby


def lobby_join(
    *, lobby_id: int, user, invite_code: str | None = None, seat_index: int | None = None
) -> Seat:
    """Sit ``user`` down in the first free seat (or ``seat_index``); joining twice is a no-op."""
    with transaction.atomic():
        lobby = locks.lobby(lobby_id)
        seats = list(lobby.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is not None:
            return mine
        _check_open(lobby)
        if lobby.removed_users.filter(pk=user.pk).exists():
            raise RemovedFromLobby()
        if not lobby.is_public and not lobby.invited_by(invite_code):
            raise NotInvited()
        check_tables(user, lock=True, correspondence=lobby.is_correspondence)
        free = [s for s in seats if s.is_empty and seat_index in (None, s.index)]
        if not free:
            raise LobbyFull()
        seat = free[0]
        seat.user = user
        try:
            with transaction.atomic():
                seat.save(update_fields=["user"])
        except IntegrityError:
            raise LobbyFull(_("That seat was just taken.")) from None
        announce.lobby(lobby.pk)
    return seat


def lobby_leave(*, lobby_id: int, user) -> Lobby:
    """Give up one's seat; a leaving host hands the lobby on, or closes it when alone."""
    with transaction.atomic():
        lobby = locks.lobby(lobby_id)
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
        announce.lobby(lobby.pk)
    return lobby


def lobby_remove_player(*, lobby_id: int, host, seat_index: int) -> None:
    """The host removes the player in ``seat_index``, who may not come back."""
    with transaction.atomic():
        lobby = _lock_as_host(lobby_id, host, _("Only the host can remove players."))
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
        announce.lobby(lobby.pk)


def lobby_add_bot(*, lobby_id: int, host, seat_index: int, level: str) -> Seat:
    """The host puts a bot of ``level`` (one of games.bots.LEVELS) in the empty ``seat_index``."""
    _check_level(level)
    with transaction.atomic():
        lobby = _lock_as_host(lobby_id, host, _("Only the host can add bots."))
        seat = lobby.seats.filter(index=seat_index).first()
        if seat is None:
            raise BadRequest(_("There is no such seat."))
        if not seat.is_empty:
            raise LobbyFull(_("That seat is taken."))
        seat.bot_level = level
        seat.save(update_fields=["bot_level"])
        announce.lobby(lobby.pk)
    return seat


def lobby_remove_bot(*, lobby_id: int, host, seat_index: int) -> None:
    """The host takes the bot out of ``seat_index``: the seat is empty again."""
    with transaction.atomic():
        lobby = _lock_as_host(lobby_id, host, _("Only the host can remove bots."))
        seat = lobby.seats.filter(index=seat_index).first()
        if seat is None or not seat.bot_level:
            raise BadRequest(_("There is no bot in that seat."))
        seat.bot_level = ""
        seat.save(update_fields=["bot_level"])
        announce.lobby(lobby.pk)


def bot_game_create(*, user, bots: int = 3, level: str = "medium", end_score: int = 100) -> Game:
    """One click from the home page: a private lobby of ``user`` and ``bots`` bots, started."""
    _within(bots, 1, MAX_SEATS - 1, _("Play against 1 to {max} bots."))
    _check_level(level)
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
        lobby = _lock_as_host(lobby_id, user, _("Only the host can start the game."))
        seated = [s for s in lobby.seats.select_related("user") if not s.is_empty]
        if len(seated) < MIN_SEATS:
            raise NotEnoughPlayers()
        game = create_game(lobby, [(s.user, s.bot_level) for s in seated])
        lobby.status = Lobby.Status.PLAYING
        lobby.game = game
        lobby.save(update_fields=["status", "game"])
        announce.lobby(lobby.pk)
    return game


def create_game(lobby: Lobby, players: list[tuple[object, str]]) -> Game:
    """A new game in ``lobby`` (locked) for ``players``: (user or ``None``, bot level)."""
    names = seat_names(players)
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
    seats = presence.seats_of(game)
    schedule(game, state, seats, restart=True)
    game.save(update_fields=["bot_due_at", "turn_started_at"])
    note_waiting(game, state, seats)
    return game


def seat_names(players: list[tuple[object, str]]) -> list[str]:
    """The names of ``players`` (user or ``None``, bot level): bots as "Medium bot 1", "Medium
    bot 2", numbered per level."""
    names, counts = [], {}
    for user, level in players:
        if user is not None:
            names.append(user.username)
        else:
            counts[level] = counts.get(level, 0) + 1
            names.append(f"{LEVEL_LABELS.get(level, level.title())} bot {counts[level]}")
    return names


def check_tables(user, *, lock: bool = False, correspondence: bool = False) -> None:
    """Refuse ``user`` a new table while they sit in SKYJO_MAX_TABLES open lobbies and games in
    play already (live), or SKYJO_MAX_CORRESPONDENCE_TABLES (``correspondence``): each kind
    counts apart. ``lock``: count their requests one at a time."""
    if correspondence:
        limit = settings.SKYJO_MAX_CORRESPONDENCE_TABLES
    else:
        limit = settings.SKYJO_MAX_TABLES
    if not limit or not settings.RATELIMIT_ENABLE:
        return
    if lock:
        locks.user(user.pk)
    days = "lobby__move_days__gt" if correspondence else "lobby__move_days"
    seated = Seat.objects.filter(user_id=user.pk, lobby__status=Lobby.Status.OPEN, **{days: 0})
    playing = GamePlayer.objects.filter(
        user_id=user.pk, game__status=Game.Status.PLAYING, **{f"game__{days}": 0}
    )
    if seated.count() + playing.count() >= limit:
        raise TooManyTables(limit)


def _within(value, low: int, high: int, message) -> None:
    if type(value) is not int or not low <= value <= high:
        raise InvalidLobby(format_lazy(message, min=low, max=high))


def _check_open(lobby: Lobby) -> None:
    if lobby.status == Lobby.Status.CLOSED:
        raise LobbyClosed()
    if lobby.status != Lobby.Status.OPEN:
        raise LobbyNotOpen()


def _lock_as_host(lobby_id: int, host, refusal: str) -> Lobby:
    lobby = locks.lobby(lobby_id)
    if lobby.host_id != host.pk:
        raise NotHost(refusal)
    _check_open(lobby)
    return lobby


def _check_level(level: str) -> None:
    if level not in LEVELS:
        labels = [BOT_LEVEL_LABELS[name] for name in LEVELS]
        levels = format_lazy(", ".join("{}" for _label in labels), *labels)
        raise BadRequest(format_lazy(_("Choose a bot level: {levels}."), levels=levels))
