"""Errors the services raise: each has a stable ``code`` (the protocol's) and a message for people.

Messages are lazy translations, turned into text in the language active where they are shown
(the request's, or the socket's in games.consumers); codes never change with the language.
``IllegalMove`` carries the rules engine's own message, which stays in English: games.engine is
pure Python without Django or translations, and its ``code`` tells a client what went wrong.
"""

from django.db import InterfaceError, OperationalError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _


class ServiceError(Exception):
    code = "error"
    default_message = _("That did not work.")

    def __init__(self, message: str | None = None, *, code: str | None = None) -> None:
        super().__init__(message or self.default_message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])

    def to_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}}


class BadRequest(ServiceError):
    code = "bad_request"
    default_message = _("The request is not understood.")


class Busy(ServiceError):
    code = "busy"
    default_message = _("The server is busy: nothing was done. Try again in a moment.")


class NotFound(ServiceError):
    code = "not_found"
    default_message = _("There is no such lobby or game.")


class LobbyFull(ServiceError):
    code = "lobby_full"
    default_message = _("This lobby is full: every seat is taken.")


class LobbyNotOpen(ServiceError):
    code = "lobby_started"
    default_message = _("This lobby's game has already started: you can no longer join or leave.")


class LobbyClosed(ServiceError):
    code = "lobby_closed"
    default_message = _("This lobby has been closed.")


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


class NotAPlayer(ServiceError):
    code = "not_a_player"
    default_message = _("You are not a player in this game: spectators can only watch.")


class GameOver(ServiceError):
    code = "game_over"
    default_message = _("The game is over: no more moves can be made.")


class StaleVersion(ServiceError):
    code = "stale_version"

    def __init__(self, *, sent: object, current: int) -> None:
        super().__init__(
            format_lazy(
                _(
                    "Your move was based on version {sent}, but the game is at version "
                    "{current}: it was not applied. Look at the current state and try again."
                ),
                sent=sent,
                current=current,
            )
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


# The database is out of reach (restarting, failing over): a passing state, not a bug. Callers
# log it in one line and tell the client to try again (Unavailable), never a traceback a time.
DATABASE_DOWN = (OperationalError, InterfaceError)


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (psycopg's span several), for a log line."""
    return " ".join(str(exc).split()) or type(exc).__name__


class Unavailable(ServiceError):
    """The database could not be reached (a restart, a failover): nothing to fix on the
    client's side but to wait, ask for the state again and retry."""

    code = "unavailable"
    default_message = _(
        "The server cannot reach its database just now. Wait a moment: the game goes on "
        "as soon as it is back."
    )
