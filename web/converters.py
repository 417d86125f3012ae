"""The path converter of every id in the site's URLs, HTTP and websocket: ``<id:game_id>``.

Importing this module registers it (skyjo_site.urls and web.sockets.routing do, before their
patterns)."""

from django.urls import register_converter


class IdConverter:
    """A row's id: 1 to 18 digits. Every such number fits the database's 64-bit integers, so a
    longer one in a URL is no page (404) rather than an overflow in the query (a 500)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(IdConverter, "id")
