"""A socket's access is checked when it connects: a change of its user's groups or permissions,
or a save that changes their ``is_superuser`` or ``is_active``, closes the user's open sockets
(``4401``, within a second) so that they connect again and are checked anew
(moderation.signals). A moderator who is one no more cannot watch a private game again; a
player whose access stays connects again as before; a save that changes no access leaves the
sockets open."""

import io
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.urls import reverse

from accounts.tests.test_lost_updates import rendered_form
from conftest import PASSWORD
from core.access import GROUP_NAME, sync_group
from games import services
from games.tests.test_access_end import (
    CLOSE_WITHIN,
    ORIGIN,
    assert_closed,
    assert_open,
    logged_in,
    open_socket,
)
from games.tests.ws import db
from skyjo_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def private_game(host, player):
    lobby = services.lobby_create(host=host, name="Private", is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=player, invite_code=lobby.invite_code)
    return services.lobby_start(lobby_id=lobby.pk, user=host)


def game_path(game) -> str:
    return f"/ws/games/{game.pk}/?format=json"


async def watching(user, game):
    """``user``'s browser and its open socket on ``game``."""
    browser = await db(logged_in)(user)
    return browser, await open_socket(browser, game_path(game))


async def assert_refused(browser, game) -> None:
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    comm = WebsocketCommunicator(
        application, game_path(game), headers=[ORIGIN, (b"cookie", cookie)]
    )
    connected, _code = await comm.connect(timeout=5)
    assert not connected


async def assert_still_open(comm) -> None:
    assert await comm.receive_nothing(timeout=CLOSE_WITHIN / 2)
    await assert_open(comm)
    await comm.disconnect()


def moderators() -> Group:
    return Group.objects.get(name=GROUP_NAME)


def view_report() -> Permission:
    return Permission.objects.get(content_type__app_label="moderation", codename="view_report")


# How a moderator stops being one (each ends their watching of private games). ---------------


def removed_by_the_command(user):
    call_command("moderators", remove=[user.username], stdout=io.StringIO())


def leaves_the_group(user):
    user.groups.remove(moderators())


def taken_out_by_the_group(user):
    moderators().user_set.remove(user)


def loses_every_group(user):
    user.groups.clear()


def the_group_is_emptied(user):
    moderators().user_set.clear()


def the_group_loses_the_permission(user):
    moderators().permissions.remove(view_report())


def is_deactivated(user):
    user.is_active = False
    user.save()


@pytest.mark.parametrize(
    "lose",
    [
        removed_by_the_command,
        leaves_the_group,
        taken_out_by_the_group,
        loses_every_group,
        the_group_is_emptied,
        the_group_loses_the_permission,
        is_deactivated,
    ],
    ids=lambda f: f.__name__,
)
async def test_a_moderator_who_loses_the_role_loses_the_private_games_socket(
    alice, bob, maud, lose
):
    await assert_losing_it_closes(maud, lose, await db(private_game)(alice, bob))


async def assert_losing_it_closes(user, lose, game):
    """``user`` watches private ``game``; ``lose(user)`` closes the socket, and a new one is
    refused."""
    browser, comm = await watching(user, game)
    started = time.monotonic()
    await db(lose)(user)
    await assert_closed([comm], started, lose.__name__)
    await assert_refused(browser, game)


# A permission given to the user alone. -------------------------------------------------------


def loses_the_permission(user):
    user.user_permissions.remove(view_report())


def the_permission_is_taken_from_them(user):
    view_report().user_set.remove(user)


def the_permission_is_taken_from_everyone(user):
    view_report().user_set.clear()


@pytest.mark.parametrize(
    "lose",
    [
        loses_the_permission,
        the_permission_is_taken_from_them,
        the_permission_is_taken_from_everyone,
    ],
    ids=lambda f: f.__name__,
)
async def test_a_user_who_loses_the_permission_loses_the_private_games_socket(
    alice, bob, charlie, lose
):
    await db(charlie.user_permissions.add)(await db(view_report)())
    await assert_losing_it_closes(charlie, lose, await db(private_game)(alice, bob))


async def test_a_superuser_who_is_one_no_more_loses_the_private_games_socket(alice, bob, root):
    game = await db(private_game)(alice, bob)
    browser, comm = await watching(root, game)
    started = time.monotonic()
    root.is_superuser = False
    await db(root.save)(update_fields=["is_superuser"])
    await assert_closed([comm], started, "is_superuser unset")
    await assert_refused(browser, game)


@pytest.mark.parametrize("change", ["is_superuser", "groups"])
async def test_an_admin_save_that_takes_the_role_closes_the_socket(
    alice, bob, maud, root, django_user_model, change
):
    """The admin's change page of the user, as a browser posts it (web.accounts.admin)."""
    if change == "is_superuser":
        user = await db(django_user_model.objects.create_superuser)(
            "boss", "boss@example.com", PASSWORD
        )
    else:
        user = maud
    game = await db(private_game)(alice, bob)
    browser, comm = await watching(user, game)
    admin = await db(logged_in)(root)
    url = reverse("admin:accounts_user_change", args=[user.pk])
    data = rendered_form(await sync_to_async(admin.get)(url))
    data[change] = []  # unticked, or no group chosen
    started = time.monotonic()
    response = await sync_to_async(admin.post)(url, data)
    assert response.status_code == 302
    await assert_closed([comm], started, f"admin save of {change}")
    await assert_refused(browser, game)


async def test_a_player_whose_access_stays_connects_again(alice, bob):
    game = await db(private_game)(alice, bob)
    browser, comm = await watching(alice, game)
    started = time.monotonic()
    await db(alice.groups.add)(await db(sync_group)())
    await assert_closed([comm], started, "group added")
    again = await open_socket(browser, game_path(game))
    await assert_open(again)
    await again.disconnect()


# What changes no access. ---------------------------------------------------------------------


def saves_a_bio(user):
    user.bio = "Moderating since 2020"
    user.save()


def saves_access_fields_unchanged(user):
    user.save(update_fields=["is_superuser", "is_active", "is_staff"])


def joins_a_group_again(user):
    user.groups.add(moderators())


@pytest.mark.parametrize(
    "keep",
    [saves_a_bio, saves_access_fields_unchanged, joins_a_group_again],
    ids=lambda f: f.__name__,
)
async def test_a_change_of_no_access_leaves_the_socket_open(alice, bob, maud, keep):
    game = await db(private_game)(alice, bob)
    _browser, comm = await watching(maud, game)
    await db(keep)(maud)
    await assert_still_open(comm)
