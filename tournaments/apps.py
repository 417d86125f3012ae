from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games import signals
        from tournaments.services import results

        uid = "tournaments.%s"
        signals.game_finished.connect(results.game_finished, dispatch_uid=uid % "finished")
        signals.game_resigned.connect(results.game_resigned, dispatch_uid=uid % "resigned")
