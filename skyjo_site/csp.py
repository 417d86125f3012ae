"""The Content-Security-Policy header (Django 5.2 has none): only the site's own files may run or
style a page; ``connect-src`` names the host for the websockets. SKYJO_CSP_REPORT_ONLY."""

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.utils.deprecation import MiddlewareMixin

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
    try:
        host = request.get_host()
    except DisallowedHost:
        host = None
    sockets = [f"ws://{host}", f"wss://{host}"] if host else []
    directives = {**POLICY, "connect-src": POLICY["connect-src"] + sockets}
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        report_only = "-Report-Only" if settings.SKYJO_CSP_REPORT_ONLY else ""
        response.setdefault("Content-Security-Policy" + report_only, policy_for(request))
        return response
