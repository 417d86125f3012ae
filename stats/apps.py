from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        from games import signals
        from stats import ratings, recording

        uid = "stats.%s"
        signals.round_scored.connect(recording.round_scored, dispatch_uid=uid % "round")
        signals.game_finished.connect(recording.game_finished, dispatch_uid=uid % "finished")
        signals.game_finished.connect(ratings.game_finished, dispatch_uid=uid % "rated")
        signals.game_resigned.connect(recording.game_resigned, dispatch_uid=uid % "resigned")
