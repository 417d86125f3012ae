"""Puzzles in the admin, read-only but for deleting one that is wrong (its attempts go with
it; a report of it stays, without the link)."""

from django.contrib import admin

from puzzles.models import Puzzle, Solver
from web.games.admin import ReadOnlyMixin


@admin.register(Puzzle)
class PuzzleAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "game", "step", "decision", "topic", "confirmed_lost", "rating", "tries")
    list_filter = ("decision", "topic")
    readonly_fields = ("game",)

    def has_delete_permission(self, request, obj=None):
        return admin.ModelAdmin.has_delete_permission(self, request, obj)


@admin.register(Solver)
class SolverAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "mu", "sigma", "tries", "solves", "best_streak")
    list_select_related = ("user",)
    search_fields = ("user__username",)
