"""``<id:...>``: the path converter of every id in the site's URLs (registered on import)."""

from django.urls import register_converter


class IdConverter:
    """1 to 18 digits: fits a 64-bit integer, so a longer one is a 404, not an overflow."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(IdConverter, "id")
