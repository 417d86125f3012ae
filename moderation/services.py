"""Players' reports and moderators' actions. An action checks its permission, calls the owning
app's service in one transaction, writes one ``AuditEntry`` and answers its report; one that
changes nothing returns ``False`` and writes no entry."""

from datetime import datetime
from functools import partial

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import services as accounts_services
from accounts.models import User
from chat import services as chat_services
from chat.models import Message
from core.access import may_sanction, perm
from core.errors import BadRequest, NotFound, found
from core.locks import hold
from games import selectors
from games import services as games_services
from games.models import Game, GamePlayer
from moderation.models import AuditEntry, Report
from puzzles import selectors as puzzles_selectors

MAX_TEXT = Report._meta.get_field("text").max_length
MAX_REASON = accounts_services.MAX_REASON


def report_create(
    *, reporter, kind: str, target_id: int, reason: str, text: str = "", game_id: int | None = None
) -> tuple[Report, bool]:
    """Report a chat message, a player, a game or a puzzle (``kind``, ``target_id``) for
    ``reason``;
    ``game_id``: where a player was reported. A second report of a target returns the first,
    and ``False``."""
    if reason not in Report.Reason.values:
        raise BadRequest(_("Choose a reason from the list."))
    report = Report(reporter=reporter, kind=kind, reason=reason, text=(text or "").strip())
    report.text = report.text[:MAX_TEXT]
    if kind == Report.Kind.PLAYER:
        player = User.objects.filter(pk=target_id, is_active=True).first()
        found(player, _("There is no such player."))
        if player.pk == reporter.pk:
            raise BadRequest(_("You cannot report yourself."))
        report.player = player
        if game_id is not None:
            game, _seat = selectors.game_for_user(game_id=game_id, user=reporter)
            if GamePlayer.objects.filter(game=game, user=player).exists():
                report.game, report.lobby_id = game, game.lobby_id
        existing = {"player": player}
    elif kind == Report.Kind.GAME:
        game, _seat = selectors.game_for_user(game_id=target_id, user=reporter)
        report.game, report.lobby_id = game, game.lobby_id
        existing = {"game": game}
    elif kind == Report.Kind.MESSAGE:
        message = readable_message(reporter, target_id)
        if message.author_id == reporter.pk:
            raise BadRequest(_("You cannot report yourself."))
        report.message_id = message.pk
        report.player_id = message.author_id
        report.game_id = message.game_id
        report.lobby_id = message.lobby_id or (message.game.lobby_id if message.game_id else None)
        existing = {"message_id": message.pk}
    elif kind == Report.Kind.PUZZLE:
        report.puzzle = found(
            puzzles_selectors.puzzle_by_id(target_id), _("There is no such puzzle.")
        )
        existing = {"puzzle": report.puzzle}
    else:
        raise BadRequest(_("Choose a reason from the list."))
    mine = Report.objects.filter(reporter=reporter, kind=kind, **existing)
    first = mine.first()
    if first is not None:
        return first, False
    try:
        with transaction.atomic():
            if kind == Report.Kind.MESSAGE:  # locked as message_hide does: Message, then Report
                rows = hold(Message.objects.all())
                shown = rows.filter(pk=report.message_id, hidden_at__isnull=True)
                found(shown.values_list("pk", flat=True).first(), _("There is no such message."))
            report.save()
    except IntegrityError:  # the same report, sent twice at once
        return mine.get(), False
    return report, True


def readable_message(reporter, message_id: int) -> Message:
    """The chat message ``reporter`` may read (as docs/chat.md says), else ``NotFound``."""
    shown = Message.objects.select_related("author").filter(hidden_at__isnull=True)
    message = found(shown.filter(pk=message_id).first(), _("There is no such message."))
    if message.lobby_id is not None:
        selectors.lobby_for_user(lobby_id=message.lobby_id, user=reporter)
        return message
    game, seat = selectors.game_for_user(game_id=message.game_id, user=reporter)
    if message.channel == Message.Channel.PLAYERS and seat is None:
        raise NotFound(_("There is no such message."))
    if message.channel == Message.Channel.SPECTATORS and seat is not None and not game.is_over:
        raise NotFound(_("There is no such message."))
    return message


def report_dismiss(*, moderator, report_id: int, reason: str = "") -> bool:
    """Close a report with no action against anyone."""
    _require(moderator, "dismiss_report")
    with transaction.atomic():
        report = _lock_report(report_id)
        if not report.is_open:
            return False
        _audit(
            moderator,
            AuditEntry.Action.DISMISS,
            report=report,
            status=Report.Status.DISMISSED,
            player=report.player,
            lobby_id=report.lobby_id,
            game_id=report.game_id,
            message_id=report.message_id,
            reason=reason,
        )
    return True


def message_hide(
    *, moderator, message_id: int, reason: str = "", report_id: int | None = None
) -> bool:
    """Hide a chat message from every page, and answer every open report of it."""
    _require(moderator, "hide_message")
    with transaction.atomic():
        message = hold(Message.objects.filter(pk=message_id)).first()
        found(message, _("There is no such message."))
        if message.is_hidden:  # a report filed meanwhile is answered now
            _answer_reports_of(message, moderator)
            _handled(_lock_report(report_id), moderator)
            return False
        chat_services.message_hide(message_id=message.pk, by=moderator)
        _audit(
            moderator,
            AuditEntry.Action.HIDE_MESSAGE,
            report_id=report_id,
            player=message.author,
            lobby_id=message.lobby_id or Game.objects.get(pk=message.game_id).lobby_id,
            game_id=message.game_id,
            message_id=message.pk,
            reason=_reason(reason),
        )
        _answer_reports_of(message, moderator)
    return True


def _answer_reports_of(message, moderator) -> None:
    Report.objects.filter(
        kind=Report.Kind.MESSAGE, message_id=message.pk, status=Report.Status.OPEN
    ).update(status=Report.Status.ACTIONED, handled_by=moderator, handled_at=timezone.now())


def player_warn(*, moderator, user_id: int, reason: str, report_id: int | None = None) -> bool:
    """Warn a player: they read ``reason`` on their next page, until they say they have; the
    mildest sanction, allowed to whoever may silence."""
    _require(moderator, "silence_player")
    reason = _reason(reason, required=True)
    player = _sanctioned(moderator, user_id, _("You cannot warn yourself."))
    warn = partial(accounts_services.user_warn, user_id=player.pk, reason=reason)
    return _sanction(moderator, AuditEntry.Action.WARN, player, warn, reason, None, report_id)


def player_silence(
    *, moderator, user_id: int, until: datetime, reason: str, report_id: int | None = None
) -> bool:
    """Silence a player in every chat until ``until``, with a ``reason`` they read."""
    _require(moderator, "silence_player")
    reason = _reason(reason, required=True)
    if until is None or until <= timezone.now():
        raise BadRequest(_("A silence must end in the future."))
    player = _sanctioned(moderator, user_id, _("You cannot silence yourself."))
    silence = partial(
        chat_services.user_silence, user=player, until=until, reason=reason, by=moderator
    )
    return _sanction(
        moderator, AuditEntry.Action.SILENCE, player, silence, reason, until, report_id
    )


def player_unsilence(*, moderator, user_id: int, reason: str = "") -> bool:
    """End every chat silence of a player now."""
    _require(moderator, "silence_player")
    player = _sanctioned(moderator, user_id)
    lift = partial(chat_services.silence_lift, user=player, by=moderator)
    return _sanction(moderator, AuditEntry.Action.UNSILENCE, player, lift, _reason(reason))


def player_ban(
    *,
    moderator,
    user_id: int,
    reason: str,
    until: datetime | None = None,
    report_id: int | None = None,
) -> bool:
    """Ban a player until ``until`` (``None``: for good) with a ``reason`` they will see; they
    are logged out after the commit."""
    _require(moderator, "ban_player")
    reason = _reason(reason, required=True)
    if until is not None and until <= timezone.now():
        raise BadRequest(_("A ban for a time must end in the future."))
    player = _sanctioned(moderator, user_id, _("You cannot ban yourself."))
    ban = partial(
        accounts_services.user_ban,
        user_id=player.pk,
        reason=reason,
        until=until,
        moderator=moderator,
    )
    return _sanction(moderator, AuditEntry.Action.BAN, player, ban, reason, until, report_id)


def player_unban(*, moderator, user_id: int, reason: str = "") -> bool:
    """Lift a player's ban."""
    _require(moderator, "ban_player")
    player = _sanctioned(moderator, user_id)
    lift = partial(accounts_services.user_unban, user_id=player.pk)
    return _sanction(moderator, AuditEntry.Action.UNBAN, player, lift, _reason(reason))


def _sanction(moderator, action, player, change, reason, until=None, report_id=None) -> bool:
    """``change()`` and, if it changed something, the entry of ``action``, in one transaction."""
    with transaction.atomic():
        if not change():
            return False
        _audit(moderator, action, report_id=report_id, player=player, reason=reason, until=until)
    return True


def lobby_close(
    *, moderator, lobby_id: int, reason: str = "", report_id: int | None = None
) -> bool:
    """Close a lobby; its running game stops, voided. The entry names the game it stopped."""
    _require(moderator, "close_lobby")
    with transaction.atomic():
        closed = games_services.lobby_close(lobby_id=lobby_id, moderator=moderator, void=True)
        if closed is None:
            return False
        _audit(
            moderator,
            AuditEntry.Action.CLOSE_LOBBY,
            report_id=report_id,
            lobby_id=lobby_id,
            game_id=closed.game_id,
            reason=_reason(reason),
        )
    return True


def game_stop(*, moderator, game_id: int, reason: str = "", report_id: int | None = None) -> bool:
    """Stop a running game and void it; its lobby closes if this is its current game."""
    _require(moderator, "stop_game")
    with transaction.atomic():
        if not games_services.game_stop(game_id=game_id, moderator=moderator, void=True):
            return False
        lobby_id = Game.objects.filter(pk=game_id).values_list("lobby_id", flat=True).first()
        _audit(
            moderator,
            AuditEntry.Action.STOP_GAME,
            report_id=report_id,
            lobby_id=lobby_id,
            game_id=game_id,
            reason=_reason(reason),
        )
    return True


def _require(moderator, codename: str) -> None:
    if not (moderator and moderator.is_authenticated and moderator.has_perm(perm(codename))):
        raise PermissionDenied(codename)


def _sanctioned(moderator, user_id: int, yourself=None) -> User:
    """The player a sanction is about; ``yourself``: the error when it is the moderator."""
    player = found(User.objects.filter(pk=user_id).first(), _("There is no such player."))
    if yourself is not None and player.pk == moderator.pk:
        raise BadRequest(yourself)
    if not may_sanction(moderator, player):
        raise BadRequest(
            _("Only a superuser can ban or silence a moderator or a superuser, or lift it.")
        )
    return player


def _reason(reason: str, *, required: bool = False) -> str:
    reason = (reason or "").strip()[:MAX_REASON]
    if required and not reason:
        raise BadRequest(_("Give a reason: the player will read it."))
    return reason


def _lock_report(report_id: int | None) -> Report | None:
    if report_id is None:
        return None
    report = hold(Report.objects.filter(pk=report_id)).first()
    return found(report, _("There is no such report."))


def _handled(report: Report | None, moderator, status=Report.Status.ACTIONED) -> None:
    if report is None or not report.is_open:
        return
    report.status = status
    report.handled_by = moderator
    report.handled_at = timezone.now()
    report.save(update_fields=["status", "handled_by", "handled_at"])


def _audit(
    moderator,
    action: str,
    *,
    report_id=None,
    report=None,
    status=Report.Status.ACTIONED,
    player=None,
    **entry,
) -> None:
    """Write the action's entry and mark its report (``report`` or ``report_id``) handled."""
    report = report or _lock_report(report_id)
    AuditEntry.objects.create(
        moderator=moderator,
        moderator_name=moderator.get_username(),
        action=action,
        player=player,
        player_name=player.get_username() if player is not None else "",
        report=report,
        **entry,
    )
    _handled(report, moderator, status)
