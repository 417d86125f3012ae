"""The forked Daphne test server and the test process share one SQLite file (WAL): each must see
what the other commits, also after the test process closed its connection, as pytest-django
does between transactional tests. A SQLite connection carried across the fork made the server
keep a deleted WAL file after that close: it no longer saw the tests' writes, nor they its
(the bots game stalled when it ran after another browser test)."""

import urllib.error
import urllib.request

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from conftest import PASSWORD

pytestmark = pytest.mark.e2e


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_the_server_sees_writes_made_after_the_test_process_closed_its_connection(
    daphne_server,
):
    connections.close_all()  # as pytest-django does after every transactional test
    get_user_model().objects.create_user(username="erin", password=PASSWORD)

    assert status_of(daphne_server + "/u/erin/") == 200
    assert status_of(daphne_server + "/u/nobody-here/") == 404
