"""Fixtures of the moderation tests: ``maud`` and ``mona``, moderators (in the Moderators group,
staff, no superuser); ``root``, a superuser; ``published``: what was published after the commit.

The data migration makes the group; a transactional test's flush empties every table after it,
so the fixture makes sure of the group (core.access.sync_group, as ``manage.py
moderators`` does)."""

import pytest

from accounts import access as sockets
from chat import publish as chat_publish
from conftest import PASSWORD, _make_moderator
from games import publish


@pytest.fixture
def maud(db, django_user_model):
    return _make_moderator(django_user_model, "maud")


@pytest.fixture
def mona(db, django_user_model):
    return _make_moderator(django_user_model, "mona")


@pytest.fixture
def root(db, django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)


@pytest.fixture
def published(monkeypatch):
    """What was published after the commit: ("game", event kind), ("lobby", id) and
    ("close", user id) for a user's sockets told to close, ("hidden", message id)."""
    sent = []
    monkeypatch.setattr(
        publish, "game_changed", lambda view, meta, event: sent.append(("game", event["kind"]))
    )
    monkeypatch.setattr(publish, "lobby_changed", lambda lobby_id: sent.append(("lobby", lobby_id)))
    monkeypatch.setattr(
        sockets, "_send", lambda group, message: sent.append(("close", group.split(".")[1]))
    )
    monkeypatch.setattr(
        chat_publish, "message_hidden", lambda message: sent.append(("hidden", message.pk))
    )
    return sent
