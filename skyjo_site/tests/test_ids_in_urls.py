"""Ids in URLs (web.converters): a number the database's integers cannot hold is no
page, a 404, and no socket (4404), where it was an overflow in the query (a 500, a crashed
socket). Any other path under /ws/ is refused with 4404 too."""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.tests.ws import ROUTER

HUGE = "9" * 30
LONGEST = "9" * 18  # fits a 64-bit integer: looked up, found nowhere

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "method,path",
    [
        ("get", "/games/{id}/"),
        ("get", "/games/{id}/state.json"),
        ("get", "/games/{id}/replay/"),
        ("post", "/games/{id}/rematch/"),
        ("get", "/lobbies/{id}/"),
        ("post", "/lobbies/{id}/join/"),
        ("post", "/lobbies/1/bots/{id}/add/"),
        ("get", "/games/{id}/analysis/"),
        ("post", "/chat/mute/{id}/"),
    ],
)
def test_an_id_out_of_range_is_a_404(alice, method, path):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    response = getattr(client, method)(path.format(id=HUGE))
    assert response.status_code == 404
    # The longest id that fits is looked up and found nowhere: a 404, or a redirect that says
    # so (the POST views), never a server error.
    response = getattr(client, method)(path.format(id=LONGEST))
    assert response.status_code in (302, 404)


def test_a_moderators_action_on_an_id_out_of_range_is_a_404(alice):
    from core.access import sync_group

    alice.groups.add(sync_group())
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    response = client.post(f"/moderation/close_lobby/{HUGE}/", {"reason": "x"})
    assert response.status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("path", [f"/ws/games/{HUGE}/", f"/ws/lobbies/{HUGE}/", "/ws/nothing/"])
async def test_a_socket_of_an_id_out_of_range_or_of_no_route_is_refused_with_4404(alice, path):
    for tried in (path, path.replace(HUGE, LONGEST)):
        comm = WebsocketCommunicator(ROUTER, tried)
        comm.scope["user"] = alice
        comm.scope["cookies"] = {}
        assert await comm.connect(timeout=5) == (False, 4404)
        await comm.disconnect()  # the application has ended: nothing left for the loop
