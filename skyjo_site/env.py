"""Read settings from the environment: each helper returns ``default`` when the variable is
unset or blank, and raises ``ImproperlyConfigured`` naming the variable and a bad value."""

import math
import os
import re

from django.core.exceptions import ImproperlyConfigured

_BOOLS = dict.fromkeys(("1", "true", "yes", "on"), True)
_BOOLS |= dict.fromkeys(("0", "false", "no", "off"), False)
_RATE = re.compile(r"([0-9]+)/([0-9]*)([smhd])", re.IGNORECASE)


def invalid(name: str, value: str, expected: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Environment variable {name}={value!r} is invalid: {expected}.")


def _read(name: str, default, parse, expected: str):
    """``parse(value)``, refused as not ``expected`` if it raises ``ValueError`` or ``KeyError``."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return parse(value)
    except (ValueError, KeyError):
        raise invalid(name, value, expected) from None


def env_str(name: str, default: str | None = None) -> str | None:
    return _read(name, default, str, "")


def env_bool(name: str, default: bool) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case)."""
    expected = "expected one of true/false, 1/0, yes/no, on/off"
    return _read(name, default, lambda value: _BOOLS[value.lower()], expected)


def _number(name: str, default, minimum, kind: type, what: str):
    def parse(value: str):
        number = kind(value)
        if not math.isfinite(number) or (minimum is not None and number < minimum):
            raise ValueError
        return number

    return _read(name, default, parse, what + (f" >= {minimum}" if minimum is not None else ""))


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    return _number(name, default, minimum, int, "expected a whole number")


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    return _number(name, default, minimum, float, "expected a number such as 0.8")


def _items(value: str) -> list[str]:
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ValueError
    return items


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    return _read(name, None, _items, "expected a comma-separated list") or list(default)


def env_choice(name: str, default: str, choices: list[str]) -> str:
    """One of ``choices`` (any case), returned in lower case."""
    expected = "expected one of " + ", ".join(choices)
    return _read(name, default, lambda value: choices[choices.index(value.lower())], expected)


def _rate(value: str) -> str:
    match = _RATE.fullmatch(value)
    if not match or int(match[1]) < 1 or (match[2] and int(match[2]) < 1):
        raise ValueError
    return f"{int(match[1])}/{match[2]}{match[3].lower()}"


def env_rate(name: str, default: str) -> str:
    """A rate such as ``5/h``, ``20/m`` or ``100/10m``: at least 1 per ``s``, ``m``, ``h`` or
    ``d``, optionally times a whole number."""
    return _read(name, default, _rate, "expected a rate such as 5/h, 20/m or 100/10m")
