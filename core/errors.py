"""Errors the services raise: each has a stable ``code`` (the protocol's) and a lazy message for
people; a plain English message is shown translated by its code (``CODE_MESSAGES``), the English
kept as ``detail``."""

from django.db import InterfaceError, OperationalError
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext


class ServiceError(Exception):
    code = "error"
    default_message = _("That did not work.")

    def __init__(self, message: str | None = None, *, code: str | None = None) -> None:
        super().__init__(message or self.default_message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        """The message for people, in the active language."""
        raw = self.args[0]
        if isinstance(raw, str) and self.code in CODE_MESSAGES:
            return str(CODE_MESSAGES[self.code])
        return str(raw)

    def to_json(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if isinstance(self.args[0], str) and self.args[0] != error["message"]:
            error["detail"] = self.args[0]
        return {"error": error}


class BadRequest(ServiceError):
    code = "bad_request"
    default_message = _("The request is not understood.")


class Busy(ServiceError):
    code = "busy"
    default_message = _("The server is busy: nothing was done. Try again in a moment.")


class NotFound(ServiceError):
    code = "not_found"
    default_message = _("There is no such lobby or game.")


def found(row, message=None):
    """``row``, or :class:`NotFound` (with ``message``) if it is ``None``."""
    if row is None:
        raise NotFound(message)
    return row


class LobbyFull(ServiceError):
    code = "lobby_full"
    default_message = _("This lobby is full: every seat is taken.")


class LobbyNotOpen(ServiceError):
    code = "lobby_started"
    default_message = _("This lobby's game has already started: you can no longer join or leave.")


class LobbyClosed(ServiceError):
    code = "lobby_closed"
    default_message = _("This lobby has been closed.")


class NoRematch(ServiceError):
    code = "no_rematch"
    default_message = _("A tournament's game has no rematch: the tournament pairs the next one.")


class RemovedFromLobby(ServiceError):
    code = "removed"
    default_message = _("The host removed you from this lobby: you cannot join it again.")


class NotInvited(ServiceError):
    code = "not_invited"
    default_message = _("This lobby is private: you need its invite link to join.")


class NotInLobby(ServiceError):
    code = "not_in_lobby"
    default_message = _("You do not have a seat in this lobby.")


class NotHost(ServiceError):
    code = "not_host"
    default_message = _("Only the host can do that.")


class NotEnoughPlayers(ServiceError):
    code = "not_enough_players"
    default_message = _("At least two seats must be taken to start the game.")


class InvalidLobby(ServiceError):
    code = "invalid_lobby"


class TooManyTables(ServiceError):
    """A new lobby, seat, bot game or rematch past SKYJO_MAX_TABLES."""

    code = "too_many_tables"

    def __init__(self, limit: int) -> None:
        # Worded when read, in the reader's language: ngettext_lazy(...) % values would not be.
        super().__init__(lazy(_too_many_tables, str)(limit))


def _too_many_tables(limit: int) -> str:
    return ngettext(
        "You already have %(count)s table: an open lobby or a game you play in. "
        "Leave the lobby or finish the game before you take another (a game against "
        "bots can be ended from its page).",
        "You already have %(count)s tables: open lobbies and games you play in. "
        "Leave a lobby or finish a game before you take another (a game against bots "
        "can be ended from its page).",
        limit,
    ) % {"count": limit}


class NotAPlayer(ServiceError):
    code = "not_a_player"
    default_message = _("You are not a player in this game: spectators can only watch.")


class GameOver(ServiceError):
    code = "game_over"
    default_message = _("The game is over: no more moves can be made.")


class NotYoursToEnd(ServiceError):
    code = "not_yours_to_end"
    default_message = _(
        "Everyone at this table has played: a game among people can no longer be aborted. "
        "Play it to its end."
    )


class EndingChanged(ServiceError):
    code = "ending_changed"
    default_message = _(
        "You have played since this page was loaded: ending the game now counts as a loss. "
        "Read the new confirmation, and end it again if you still want to."
    )


class StaleVersion(ServiceError):
    """A move made on a board that is no longer the game's; ``to_json`` carries ``current``."""

    code = "stale_version"

    def __init__(self, *, sent: object, current: int) -> None:
        super().__init__(
            _("The game moved on before your move arrived; look at the board and play again.")
        )
        self.current = current

    def to_json(self) -> dict:
        data = super().to_json()
        data["error"]["version"] = self.current
        return data


class IllegalMove(ServiceError):
    """The rules engine refused the action; ``code`` is the engine's error code."""

    code = "illegal_action"


class WrongPhase(ServiceError):
    code = "wrong_phase"


class TimeRanOut(ServiceError):
    code = "time_ran_out"
    default_message = _(
        "Your time for this move ran out: the server plays it as the lobby's rules say."
    )


class Forfeited(ServiceError):
    code = "forfeited"
    default_message = _(
        "You lost this game on time: it goes on without you, and you can still watch it."
    )


class InvalidVacation(ServiceError):
    code = "invalid_vacation"


# The database is out of reach (restarting, failing over): logged in one line, not a traceback.
DATABASE_DOWN = (OperationalError, InterfaceError)


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (psycopg's span several), for a log line."""
    return " ".join(str(exc).split()) or type(exc).__name__


def shutting_down(exc: BaseException) -> bool:
    """A call refused because the server is stopping (its pools take no more work)."""
    return isinstance(exc, RuntimeError) and "shutdown" in str(exc)


class Unavailable(ServiceError):
    code = "unavailable"
    default_message = _(
        "The server cannot reach its database just now. Wait a moment: the game goes on "
        "as soon as it is back."
    )


# The messages of errors raised with plain English text (the engine's, the frame parser's).
CODE_MESSAGES = {
    **{
        e.code: e.default_message
        for e in (ServiceError, BadRequest, NotFound, NotAPlayer, GameOver)
    },
    "server_error": _("Something went wrong on the server."),
    "bad_frame": _("The server could not read that message."),
    "frame_too_large": _("The server could not read that message: it is too long."),
    "bad_json": _("The server could not read that message."),
    "engine_error": _("The rules do not allow this move."),
    "malformed_action": _("This move is not understood."),
    "illegal_action": _("The rules do not allow this move."),
    "not_your_turn": _("It is not your turn."),
    "wrong_phase": _("This move is not possible at this point of the round."),
    "bad_position": _("There is no card at that position."),
    "position_removed": _("That column has been removed."),
    "card_face_up": _("That card is already face up."),
    "reveals_done": _("You have already turned your two cards."),
    "drawn_card_pending": _(
        "You hold a drawn card: swap it in, or discard it and turn a face-down card."
    ),
    "nothing_drawn": _("Draw a card first."),
    "discard_must_be_swapped": _("The card from the discard pile must replace one of your cards."),
    "no_face_down_card": _("You have no face-down card left: swap the drawn card in."),
    "bad_record": _("That did not work."),
}
