"""Admin for lobbies and games; moderators close lobbies and stop games through the services."""

from django.contrib import admin, messages

from games import services
from games.models import Game, GamePlayer, Lobby, Move, Round, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)


class GamePlayerInline(admin.TabularInline):
    model = GamePlayer
    extra = 0
    raw_id_fields = ("user",)
    readonly_fields = ("seat", "name", "total", "won", "bot_level")


@admin.register(Lobby)
class LobbyAdmin(admin.ModelAdmin):
    list_display = ("name", "host", "seat_count", "is_public", "status", "end_score", "created_at")
    list_filter = ("status", "is_public")
    list_select_related = ("host",)
    search_fields = ("name", "host__username", "invite_code")
    raw_id_fields = ("host", "game")
    filter_horizontal = ("removed_users",)
    inlines = [SeatInline]
    actions = ("close_lobbies",)

    @admin.action(description="Close the selected lobbies (and stop their games)")
    def close_lobbies(self, request, queryset):
        for lobby in queryset:
            services.lobby_close(lobby_id=lobby.pk)
        self.message_user(request, f"Closed {queryset.count()} lobby(ies).", messages.SUCCESS)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "lobby", "status", "phase", "version", "created_at", "finished_at")
    list_filter = ("status", "phase")
    list_select_related = ("lobby",)
    search_fields = ("lobby__name", "players__name")
    raw_id_fields = ("lobby", "rematch")
    readonly_fields = ("seed", "version", "record", "phase", "ready")
    inlines = [GamePlayerInline]
    actions = ("abort_games",)

    @admin.action(description="Stop the selected games")
    def abort_games(self, request, queryset):
        for game in queryset:
            services.game_abort(game_id=game.pk)
        self.message_user(request, f"Stopped {queryset.count()} game(s).", messages.SUCCESS)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "starter", "ender", "scores", "scored_at")
    list_select_related = ("game",)
    raw_id_fields = ("game",)


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "version", "round", "seat", "action", "created_at")
    list_select_related = ("game",)
    raw_id_fields = ("game",)
    search_fields = ("game__id",)
