"""Admin for lobbies and games, read-only: moderators close lobbies and stop games through
moderation.services, which locks, saves, publishes and writes the audit log entry."""

from django.contrib import admin, messages

from games.models import Game, GamePlayer, Lobby, Move, Round, Seat
from moderation import services as moderation


class ReadOnlyMixin:
    """Shown, never added, changed or deleted here: a write outside the services would skip
    their locks and leave the players' pages and sockets unaware."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SecretFieldsMixin:
    """``secret_fields`` hold what no player may see (face-down cards, the seed, an invite
    code): shown to and searched by superusers only."""

    secret_fields: tuple[str, ...] = ()

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or ())
        if not request.user.is_superuser:
            exclude += self.secret_fields
        return exclude

    def get_search_fields(self, request):
        fields = super().get_search_fields(request)
        secret = () if request.user.is_superuser else self.secret_fields
        return tuple(f for f in fields if f not in secret)


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0


class GamePlayerInline(ReadOnlyMixin, admin.TabularInline):
    model = GamePlayer
    extra = 0


@admin.register(Lobby)
class LobbyAdmin(SecretFieldsMixin, ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("invite_code",)  # it lets anyone who holds it into a private lobby
    list_display = ("name", "host", "seat_count", "is_public", "status", "end_score", "created_at")
    list_filter = ("status", "is_public")
    list_select_related = ("host",)
    search_fields = ("name", "host__username", "invite_code")
    inlines = [SeatInline]
    actions = ("close_lobbies",)

    @admin.action(description="Close the selected lobbies (and stop their games)")
    def close_lobbies(self, request, queryset):
        closed = sum(
            moderation.lobby_close(lobby_id=pk, moderator=request.user)
            for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Closed {closed} lobby(ies).", messages.SUCCESS)


@admin.register(Game)
class GameAdmin(SecretFieldsMixin, ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("snapshot", "seed")
    list_display = ("id", "lobby", "status", "phase", "version", "created_at", "finished_at")
    list_filter = ("status", "phase")
    list_select_related = ("lobby",)
    search_fields = ("lobby__name", "players__name")
    inlines = [GamePlayerInline]
    actions = ("stop_games",)

    @admin.action(description="Stop the selected games")
    def stop_games(self, request, queryset):
        stopped = sum(
            moderation.game_stop(game_id=pk, moderator=request.user)
            for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Stopped {stopped} game(s).", messages.SUCCESS)


@admin.register(Round)
class RoundAdmin(SecretFieldsMixin, ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("deck",)
    list_display = ("game", "number", "starter", "ender", "scores", "scored_at")
    list_select_related = ("game",)


@admin.register(Move)
class MoveAdmin(SecretFieldsMixin, ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("reshuffle",)
    list_display = ("game", "version", "round", "seat", "action", "created_at")
    list_select_related = ("game",)
    search_fields = ("game__id",)
