"""A page asked for while the database is out of reach gets a 503 that says to wait (with
``Retry-After``), in the visitor's language, not the 500 page of a bug."""

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client

pytestmark = pytest.mark.django_db


def logged_in(user, **headers) -> Client:
    """A client whose next request reads the database (its session, its user)."""
    client = Client(raise_request_exception=False, headers=headers)
    client.force_login(user)
    return client


def fail_every_query(monkeypatch, error: Exception) -> None:
    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    monkeypatch.setattr(CursorWrapper, "executemany", refuse)


def test_a_page_while_the_database_is_down_is_a_503_to_retry(alice, monkeypatch):
    client = logged_in(alice)
    fail_every_query(monkeypatch, OperationalError("connection refused: restarting"))
    response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert 'data-status="503"' in page and "cannot reach its database" in page


def test_the_503_page_is_in_the_visitors_language(alice, monkeypatch):
    client = logged_in(alice, accept_language="de")
    fail_every_query(monkeypatch, OperationalError("connection refused: restarting"))
    response = client.get("/")
    assert response.status_code == 503
    page = response.content.decode()
    assert 'data-status="503"' in page and "cannot reach its database" not in page


def test_any_other_failure_is_still_the_500_page(alice, monkeypatch):
    client = logged_in(alice)
    fail_every_query(monkeypatch, RuntimeError("a bug"))
    response = client.get("/")
    assert response.status_code == 500
    assert 'data-status="500"' in response.content.decode()
