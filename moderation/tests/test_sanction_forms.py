"""A moderator's pages offer no ban or silence, nor the lifting of either, for a moderator or a
superuser: only a superuser may sanction them (core.access.may_sanction), and a line says
so instead. A superuser's pages, and a moderator's pages about a player, offer them."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from conftest import PASSWORD
from moderation import services
from moderation.models import Report

pytestmark = pytest.mark.django_db

ONLY_A_SUPERUSER = "Only a superuser can sanction a moderator or a superuser."
SANCTIONS = ("silence", "unsilence", "ban", "unban")


def offered(page: str, player) -> list[str]:
    """The sanctions of ``player`` that ``page`` has a form for."""
    return [
        action
        for action in SANCTIONS
        if reverse("moderation:act", args=[action, player.pk]) in page
    ]


@pytest.fixture
def boss(django_user_model):
    """A second superuser: the one who may sanction ``root``."""
    return django_user_model.objects.create_superuser("boss", "boss@example.com", PASSWORD)


def sanction(player, superuser) -> None:
    """Silence and ban ``player``, so that their file offers to lift both."""
    soon = timezone.now() + timedelta(days=1)
    services.player_silence(moderator=superuser, user_id=player.pk, until=soon, reason="spam")
    services.player_ban(moderator=superuser, user_id=player.pk, until=soon, reason="spam")


def file_page(client, viewer, player) -> str:
    client.force_login(viewer)
    return client.get(reverse("moderation:player", args=[player.username])).content.decode()


@pytest.mark.parametrize("sanctioned", [False, True], ids=["free", "sanctioned"])
@pytest.mark.parametrize("target", ["mona", "root"])
def test_a_moderator_gets_no_sanction_form_for_a_moderator_or_a_superuser(
    client, request, maud, boss, target, sanctioned
):
    player = request.getfixturevalue(target)
    if sanctioned:
        sanction(player, boss)
    page = file_page(client, maud, player)
    assert offered(page, player) == []
    assert ONLY_A_SUPERUSER in page


@pytest.mark.parametrize("sanctioned", [False, True], ids=["free", "sanctioned"])
def test_a_moderator_still_gets_every_sanction_form_for_a_player(
    client, maud, root, bob, sanctioned
):
    if sanctioned:
        sanction(bob, root)
    page = file_page(client, maud, bob)
    expected = ["silence", "unsilence", "unban"] if sanctioned else ["silence", "ban"]
    assert offered(page, bob) == expected
    assert ONLY_A_SUPERUSER not in page


def test_a_superuser_gets_every_sanction_form_for_a_moderator(client, root, mona):
    sanction(mona, root)
    page = file_page(client, root, mona)
    assert offered(page, mona) == ["silence", "unsilence", "unban"]
    assert ONLY_A_SUPERUSER not in page


def test_the_queue_offers_sanctions_of_a_reported_player_only(client, maud, mona, alice, bob):
    about_mona = Report.objects.create(reporter=alice, kind="player", player=mona, reason="spam")
    about_bob = Report.objects.create(reporter=alice, kind="player", player=bob, reason="spam")
    client.force_login(maud)
    page = client.get(reverse("moderation:queue")).content.decode()
    start = page.index(f'id="report-{about_mona.pk}"')
    mona_card = page[start : page.index("</article>", start)]
    assert offered(mona_card, mona) == []
    assert ONLY_A_SUPERUSER in mona_card
    assert reverse("moderation:act", args=["dismiss", about_mona.pk]) in mona_card
    assert offered(page, bob) == ["silence", "ban"]
    assert page.count(ONLY_A_SUPERUSER) == 1
    assert reverse("moderation:act", args=["dismiss", about_bob.pk]) in page
