"""Fixtures of the settings tests."""

import runpy

import pytest

from skyjo_site.tests.settings_helpers import SETTINGS, VARIABLES


@pytest.fixture
def load(monkeypatch):
    """Run settings.py afresh with exactly the given environment variables."""

    def load(**variables):
        for name in VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(SETTINGS))

    return load
