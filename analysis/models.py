from django.db import models


class GameAnalysis(models.Model):
    """The post-game analysis of a finished game, once per version: ``analyse_record``'s result,
    ``None`` when it failed (tried again only under a new version)."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    version = models.PositiveIntegerField(db_index=True)
    data = models.JSONField(null=True, blank=True)
    seconds = models.FloatField(default=0, help_text="Time the computation took.")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "game analyses"

    def __str__(self) -> str:
        return f"Analysis of game {self.game_id} (v{self.version})"
