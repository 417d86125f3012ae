from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from games import signals
        from notifications import enqueue

        uid = "notifications.%s"
        signals.turn_waits.connect(enqueue.turn_waits, dispatch_uid=uid % "turn")
        signals.turn_reminder.connect(enqueue.turn_reminder, dispatch_uid=uid % "reminder")
