from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    verbose_name = "Puzzles"
    default_auto_field = "django.db.models.BigAutoField"
