from django.apps import AppConfig


class WebConfig(AppConfig):
    """Delivery: pages, sockets, admin and template tags over the domain apps."""

    name = "web"
    verbose_name = "Web"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out, user_login_failed

        from web.accounts.lockout import count_failure
        from web.notifications.views import forget_push_at_logout
        from web.sockets import access

        user_logged_out.connect(access.on_logged_out, dispatch_uid="web.sockets.access")
        user_logged_out.connect(forget_push_at_logout, dispatch_uid="web.notifications.push")
        user_login_failed.connect(count_failure, dispatch_uid="skyjo-login-brake")
