"""Admin for lobbies and games, read-only: moderators close lobbies and stop games through
moderation.services, which locks, saves, publishes and writes the audit log entry."""

from django.contrib import admin, messages

from games.models import Game, GamePlayer, Lobby, Move, Round, Seat
from moderation import services as moderation


class ReadOnlyMixin:
    """Shown, never added, changed or deleted here (a write outside the services would skip
    their locks); ``secret_fields``, what no player may see, only to superusers."""

    secret_fields: tuple[str, ...] = ()

    def has_add_permission(self, request, obj=None):
        return False

    has_change_permission = has_delete_permission = has_add_permission

    def get_exclude(self, request, obj=None):
        exclude = list(super().get_exclude(request, obj) or ())
        return exclude if request.user.is_superuser else exclude + list(self.secret_fields)

    def get_search_fields(self, request):
        secret = () if request.user.is_superuser else self.secret_fields
        return tuple(f for f in super().get_search_fields(request) if f not in secret)

    def run_action(self, request, queryset, service, done: str) -> None:
        """``service(<model>_id=...)`` on each selected row, then ``done`` with how many."""
        key = f"{queryset.model._meta.model_name}_id"
        pks = queryset.values_list("pk", flat=True)
        count = sum(service(moderator=request.user, **{key: pk}) for pk in pks)
        self.message_user(request, done.format(count), messages.SUCCESS)


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0


class GamePlayerInline(ReadOnlyMixin, admin.TabularInline):
    model = GamePlayer
    extra = 0


@admin.register(Lobby)
class LobbyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("invite_code",)  # it lets anyone who holds it into a private lobby
    list_display = ("name", "host", "seat_count", "is_public", "status", "end_score", "created_at")
    list_filter = ("status", "is_public")
    list_select_related = ("host",)
    search_fields = ("name", "host__username", "invite_code")
    inlines = [SeatInline]
    actions = ("close_lobbies",)

    @admin.action(description="Close the selected lobbies (and stop their games)")
    def close_lobbies(self, request, queryset):
        self.run_action(request, queryset, moderation.lobby_close, "Closed {} lobby(ies).")


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("snapshot", "seed")
    list_display = ("id", "lobby", "status", "phase", "version", "created_at", "finished_at")
    list_filter = ("status", "phase")
    list_select_related = ("lobby",)
    search_fields = ("lobby__name", "players__name")
    inlines = [GamePlayerInline]
    actions = ("stop_games",)

    @admin.action(description="Stop the selected games")
    def stop_games(self, request, queryset):
        self.run_action(request, queryset, moderation.game_stop, "Stopped {} game(s).")


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("deck",)
    list_display = ("game", "number", "starter", "ender", "scores", "scored_at")
    list_select_related = ("game",)


@admin.register(Move)
class MoveAdmin(ReadOnlyMixin, admin.ModelAdmin):
    secret_fields = ("reshuffle",)
    list_display = ("game", "version", "round", "seat", "action", "created_at")
    list_select_related = ("game",)
    search_fields = ("game__id",)
