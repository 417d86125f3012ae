"""ASGI entry point: HTTP, websockets and the bot runner in one Daphne process
(``daphne skyjo_site.asgi:application`` or ``manage.py runserver``)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")

# Set Django up before anything imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from skyjo_site.client_address import ClientAddressASGIMiddleware  # noqa: E402
from skyjo_site.dbguard import RefuseWhileDatabaseDown  # noqa: E402
from web import runner  # noqa: E402
from web.sockets.routing import websocket_urlpatterns  # noqa: E402

application = runner.AutoplayMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": ClientAddressASGIMiddleware(
                AllowedHostsOriginValidator(
                    RefuseWhileDatabaseDown(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
                )
            ),
        }
    )
)

runner.start_when_server_runs()  # the bot runner of this process (SKYJO_AUTOPLAY)

# What is loaded by now lives as long as the process: out of the collector's sight (performance.md).
gc.freeze()
