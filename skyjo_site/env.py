"""Read settings from the environment, failing loudly on a bad value.

Each helper returns ``default`` when the variable is unset or empty, and raises
``ImproperlyConfigured`` naming the variable and the bad value otherwise.
"""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def _bad(name: str, value: str, expected: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Environment variable {name}={value!r} is invalid: {expected}.")


def env_str(name: str, default: str | None = None) -> str | None:
    """The variable as a string, or ``default``."""
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case)."""
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise _bad(name, value, "expected one of true/false, 1/0, yes/no, on/off")


def _number(name: str, default, minimum, kind: type, what: str, example: str):
    value = _raw(name)
    if value is None:
        return default
    try:
        number = kind(value)
    except ValueError:
        raise _bad(name, value, f"expected {what}{example}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise _bad(name, value, "expected a finite number")
    if minimum is not None and number < minimum:
        raise _bad(name, value, f"expected {what} >= {minimum}")
    return number


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """A whole number, at least ``minimum`` when given."""
    return _number(name, default, minimum, int, "a whole number", "")


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    """A number such as ``0.8``, at least ``minimum`` when given."""
    return _number(name, default, minimum, float, "a number", " such as 0.8")


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = _raw(name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise _bad(name, value, "expected a comma-separated list")
    return items


def env_choice(name: str, default: str, choices: list[str]) -> str:
    """One of ``choices`` (any case), returned in lower case."""
    value = _raw(name)
    if value is None:
        return default
    if value.lower() not in choices:
        raise _bad(name, value, "expected one of " + ", ".join(choices))
    return value.lower()


_RATE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _whole(text: str) -> bool:
    return text.isascii() and text.isdigit()


def env_rate(name: str, default: str) -> str:
    """A rate limit such as ``5/h``, ``20/m`` or ``100/10m``: a whole number of requests (at
    least 1) per period (``s``, ``m``, ``h`` or ``d``, optionally times a whole number)."""
    value = _raw(name)
    if value is None:
        return default
    count, _, period = value.partition("/")
    multiple, unit = period[:-1], period[-1:]
    if (
        not _whole(count)
        or int(count) < 1
        or unit.lower() not in _RATE_UNITS
        or (multiple and (not _whole(multiple) or int(multiple) < 1))
    ):
        raise _bad(name, value, "expected a rate such as 5/h, 20/m or 100/10m")
    return f"{int(count)}/{multiple}{unit.lower()}"
