"""Websocket URL patterns, mounted by skyjo_site/asgi.py under auth and origin checks."""

websocket_urlpatterns = []
