"""Errors the services raise: each has a stable ``code`` (the protocol's) and a message for people."""


class ServiceError(Exception):
    code = "error"
    default_message = "That did not work."

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
    default_message = "The request is not understood."


class NotFound(ServiceError):
    code = "not_found"
    default_message = "There is no such lobby or game."


class LobbyFull(ServiceError):
    code = "lobby_full"
    default_message = "This lobby is full: every seat is taken."


class LobbyNotOpen(ServiceError):
    code = "lobby_started"
    default_message = "This lobby's game has already started: you can no longer join or leave."


class LobbyClosed(ServiceError):
    code = "lobby_closed"
    default_message = "This lobby has been closed."


class RemovedFromLobby(ServiceError):
    code = "removed"
    default_message = "The host removed you from this lobby: you cannot join it again."


class NotInvited(ServiceError):
    code = "not_invited"
    default_message = "This lobby is private: you need its invite link to join."


class NotInLobby(ServiceError):
    code = "not_in_lobby"
    default_message = "You do not have a seat in this lobby."


class NotHost(ServiceError):
    code = "not_host"
    default_message = "Only the host can do that."


class NotEnoughPlayers(ServiceError):
    code = "not_enough_players"
    default_message = "At least two seats must be taken to start the game."


class InvalidLobby(ServiceError):
    code = "invalid_lobby"


class NotAPlayer(ServiceError):
    code = "not_a_player"
    default_message = "You are not a player in this game: spectators can only watch."


class GameOver(ServiceError):
    code = "game_over"
    default_message = "The game is over: no more moves can be made."


class StaleVersion(ServiceError):
    code = "stale_version"

    def __init__(self, *, sent: object, current: int) -> None:
        super().__init__(
            f"Your move was based on version {sent}, but the game is at version {current}: "
            "it was not applied. Look at the current state and try again."
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
