"""Reads of the moderation pages: the queue, a player's file, a game's file."""

from dataclasses import dataclass, field

from django.db.models import Count, Q

from chat.models import Message
from chat.selectors import active_silence
from core.access import may_sanction
from games.models import Game, GamePlayer
from moderation.models import AuditEntry, Report
from stats.queries import recent_games

QUEUE_SIZE = 50
CONTEXT = 3  # messages shown before and after a reported one
RECENT = 20


@dataclass
class QueueItem:
    report: Report
    message: Message | None = None
    context: list[Message] = field(default_factory=list)
    earlier_reports: int = 0
    sanctions: list[AuditEntry] = field(default_factory=list)
    recent_messages: list[Message] = field(default_factory=list)
    recent_games: list[GamePlayer] = field(default_factory=list)
    may_sanction: bool = False  # the viewer may ban or silence the reported player


def open_reports(*, viewer, limit: int = QUEUE_SIZE) -> tuple[list[QueueItem], int]:
    """The oldest ``limit`` open reports, each with its context, and how many are open."""
    reports = list(
        Report.objects.filter(status=Report.Status.OPEN)
        .select_related("reporter", "player", "game__lobby", "lobby")
        .order_by("created_at", "pk")[:limit]
    )
    total = Report.objects.filter(status=Report.Status.OPEN).count()
    players = {r.player_id for r in reports if r.player_id}
    counts = dict(
        Report.objects.filter(player_id__in=players)
        .values_list("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    about = {
        player.pk: {
            "sanctions": list(AuditEntry.objects.filter(player=player)[:3]),
            "recent_messages": recent_messages(player.pk, limit=5),
            "recent_games": recent_games(player, viewer=viewer, limit=5),
            "may_sanction": may_sanction(viewer, player),
            "earlier_reports": counts.get(player.pk, 1) - 1,
        }
        for player in {r.player_id: r.player for r in reports if r.player_id}.values()
    }
    items = []
    for report in reports:
        item = QueueItem(report, **about.get(report.player_id, {}))
        if report.message_id:
            item.message, item.context = message_in_context(report.message_id)
        items.append(item)
    return items, total


def message_in_context(message_id: int) -> tuple[Message | None, list[Message]]:
    """A message and the ``CONTEXT`` messages before and after it in its channel."""
    message = Message.objects.select_related("author").filter(pk=message_id).first()
    if message is None:
        return None, []
    where = (
        {"game_id": message.game_id, "channel": message.channel}
        if message.game_id
        else {"lobby_id": message.lobby_id}
    )
    rows = Message.objects.filter(**where).select_related("author")
    before = list(rows.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT])
    after = list(rows.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT])
    return message, [*reversed(before), message, *after]


def recent_messages(user_id: int, *, limit: int = RECENT) -> list[Message]:
    return list(
        Message.objects.filter(author_id=user_id)
        .select_related("author", "game__lobby", "lobby")
        .order_by("-pk")[:limit]
    )


def player_file(player, *, viewer) -> dict:
    """What the player's page shows; ``may_sanction``: the viewer may ban or silence them."""
    return dict(
        player=player,
        may_sanction=may_sanction(viewer, player),
        silence=active_silence(player.pk),
        messages=recent_messages(player.pk),
        games=recent_games(player, viewer=viewer, limit=RECENT),
        reports=list(
            Report.objects.filter(player=player)
            .select_related("reporter", "handled_by")
            .order_by("-created_at")[:RECENT]
        ),
        sanctions=list(AuditEntry.objects.filter(player=player)[:RECENT]),
    )


def game_file(game: Game) -> dict:
    """What the game's page shows."""
    return dict(
        game=game,
        players=list(game.players.select_related("user").order_by("seat")),
        messages=list(
            reversed(
                Message.objects.filter(game=game)
                .select_related("author")
                .order_by("-pk")[: RECENT * 2]
            )
        ),
        reports=list(
            Report.objects.filter(Q(game=game) | Q(lobby_id=game.lobby_id, kind="game"))
            .select_related("reporter", "player")
            .order_by("-created_at")
        ),
        actions=list(AuditEntry.objects.filter(Q(game=game) | Q(lobby_id=game.lobby_id))),
    )


def audit_log(*, player=None, limit: int = 200) -> list[AuditEntry]:
    entries = AuditEntry.objects.select_related("lobby", "game")
    if player is not None:
        entries = entries.filter(player=player)
    return list(entries[:limit])
