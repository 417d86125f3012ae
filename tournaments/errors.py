"""The tournaments' refusals: each with its code and a message for the player."""

from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError


class InvalidTournament(ServiceError):
    code = "invalid_tournament"
    default_message = _("That tournament cannot be made.")


class TournamentClosed(ServiceError):
    code = "tournament_closed"
    default_message = _("This tournament is over: it takes no more players.")


class TournamentStarted(ServiceError):
    code = "tournament_started"
    default_message = _("This Swiss tournament has started: it takes no more players.")


class TournamentFull(ServiceError):
    code = "tournament_full"
    default_message = _("This tournament is full.")


class NotInvitedToTournament(ServiceError):
    code = "not_invited"
    default_message = _("This tournament is private: you need its invite link to join.")


class AlreadyJoined(ServiceError):
    code = "already_joined"
    default_message = _("You are already in this tournament.")


class NotEntered(ServiceError):
    code = "not_entered"
    default_message = _("You are not in this tournament.")


class NotModerator(ServiceError):
    code = "not_moderator"
    default_message = _("Only moderators schedule public tournaments.")
