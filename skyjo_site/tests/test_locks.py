"""Every row lock of the site is taken through core.locks, in its one order."""

import re

import pytest
from django.apps import apps

from core import locks
from skyjo_site.tests.settings_helpers import ROOT

SOURCES = [
    path
    for path in ROOT.glob("*/**/*.py")
    if not {".venv", "tests", "migrations"} & set(path.relative_to(ROOT).parts)
]


def test_only_core_locks_takes_a_row_lock():
    taking = [
        str(path.relative_to(ROOT))
        for path in SOURCES
        if re.search(r"\bselect_for_update\(", path.read_text())
    ]
    assert taking == ["core/locks.py"]


def test_every_model_of_the_order_exists():
    assert [apps.get_model(label)._meta.label_lower for label in locks.ORDER] == list(locks.ORDER)


def test_a_model_outside_the_order_is_refused():
    with pytest.raises(ValueError, match="games.seat has no place in core.locks.ORDER"):
        locks.hold(apps.get_model("games.seat").objects.all())
