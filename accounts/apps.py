from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out, user_login_failed

        from accounts import sockets
        from accounts.lockout import count_failure

        user_logged_out.connect(sockets.on_logged_out, dispatch_uid="accounts.sockets")
        user_login_failed.connect(count_failure, dispatch_uid="skyjo-login-brake")
