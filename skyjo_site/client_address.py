"""The client's address for HTTP and websockets: the peer's, or with ``SKYJO_TRUSTED_PROXIES`` = N
the N-th ``X-Forwarded-For`` entry from the right; not an IP address: the peer, else ``UNKNOWN``."""

import ipaddress

from channels.middleware import BaseMiddleware
from django.conf import settings
from django.utils.deprecation import MiddlewareMixin

UNKNOWN = "0.0.0.0"


def valid_address(value: object) -> str | None:
    """``value`` as a canonical IP address (an IPv4-mapped IPv6 one as IPv4), or ``None``."""
    if not isinstance(value, str):
        return None
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped or address)


def client_address(peer: object, forwarded_for: str | None, trusted: int) -> str:
    """The client's address from the ``peer`` that connected and its ``X-Forwarded-For``."""
    if trusted > 0 and forwarded_for:
        entries = [entry.strip() for entry in forwarded_for.split(",")]
        # Fewer entries than trusted proxies: every one of them was written by a proxy.
        chosen = valid_address(entries[max(len(entries) - trusted, 0)])
        if chosen is not None:
            return chosen
    return valid_address(peer) or UNKNOWN


def request_address(request) -> str:
    """The address of an HTTP request (``AXES_CLIENT_IP_CALLABLE``): ``REMOTE_ADDR`` as
    ``ClientAddressMiddleware`` left it, checked again for requests that skipped it."""
    return valid_address(request.META.get("REMOTE_ADDR")) or UNKNOWN


class ClientAddressMiddleware(MiddlewareMixin):
    """Sets ``REMOTE_ADDR`` to the client's address for every later middleware and view."""

    def process_request(self, request):
        request.META["REMOTE_ADDR"] = client_address(
            request.META.get("REMOTE_ADDR"),
            request.META.get("HTTP_X_FORWARDED_FOR"),
            settings.SKYJO_TRUSTED_PROXIES,
        )


class ClientAddressASGIMiddleware(BaseMiddleware):
    """Sets a websocket's ``scope["client"]`` to the client's address (port kept)."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            peer, port = scope.get("client") or (None, 0)
            headers = scope.get("headers", [])
            forwarded = ",".join(
                v.decode("latin-1") for n, v in headers if n.lower() == b"x-forwarded-for"
            )
            address = client_address(peer, forwarded, settings.SKYJO_TRUSTED_PROXIES)
            scope = {**scope, "client": [address, port]}
        return await self.inner(scope, receive, send)
