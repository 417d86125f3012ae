"""ASGI entry point: HTTP and websockets in one Daphne process.

Run with ``daphne skyjo_site.asgi:application`` (or ``manage.py runserver``, which uses
Daphne because ``daphne`` is first in INSTALLED_APPS). Each process also runs the bot runner.
"""

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

# Every server process plays the bots' turns (web.runner): started when Daphne's reactor
# runs, or else on the first connection. SKYJO_AUTOPLAY=false turns it off.
runner.start_when_server_runs()

# What is loaded by now (Django, the apps, the URL conf, the middleware) lives as long as the
# process: out of the cyclic collector's sight, a full collection scans only what the process
# made since. Full collections of the whole heap were the tail of a move's latency: p99 175-179
# ms in the paced embedded row, 52-79 ms frozen (docs/performance.md, seventh sitting).
gc.freeze()
