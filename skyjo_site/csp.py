"""The Content-Security-Policy header (Django 5.2 has none): only the site's own files may run or
style a page; ``connect-src`` names the host for the websockets. SKYJO_CSP_REPORT_ONLY."""

from django.conf import settings
from django.core.exceptions import DisallowedHost

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "manifest-src": ["'self'"],
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def policy_for(request) -> str:
    directives = {name: list(sources) for name, sources in POLICY.items()}
    try:
        host = request.get_host()
    except DisallowedHost:
        host = None
    if host:
        directives["connect-src"] += [f"ws://{host}", f"wss://{host}"]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        header = "Content-Security-Policy" + (
            "-Report-Only" if settings.SKYJO_CSP_REPORT_ONLY else ""
        )
        if header not in response:
            response[header] = policy_for(request)
        return response
