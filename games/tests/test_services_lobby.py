import pytest

from core.errors import (
    InvalidLobby,
    LobbyClosed,
    LobbyFull,
    LobbyNotOpen,
    NotEnoughPlayers,
    NotHost,
    NotInLobby,
    NotInvited,
    RemovedFromLobby,
)
from games import services
from games.models import GamePlayer, Lobby, Round
from games.records import game_record

pytestmark = pytest.mark.django_db


def make(host, **kwargs):
    return services.lobby_create(host=host, name="Table", **{"seat_count": 3, **kwargs})


def test_it_creates_a_lobby_with_the_host_in_seat_0(alice):
    lobby = make(alice, seat_count=5, end_score=50, double_on_tie=False)
    seats = list(lobby.seats.all())
    assert [s.index for s in seats] == [0, 1, 2, 3, 4]
    assert seats[0].user == alice and all(s.user is None for s in seats[1:])
    assert lobby.status == Lobby.Status.OPEN and lobby.end_score == 50
    assert len(lobby.invite_code) >= 12


@pytest.mark.parametrize(
    "kwargs", [{"seat_count": 1}, {"seat_count": 9}, {"end_score": 0}, {"name": " "}]
)
def test_it_rejects_bad_lobby_options(alice, kwargs):
    with pytest.raises(InvalidLobby):
        services.lobby_create(host=alice, **{"name": "Table", **kwargs})


def test_it_joins_the_first_free_seat_and_twice_is_harmless(alice, bob):
    lobby = make(alice)
    seat = services.lobby_join(lobby_id=lobby.pk, user=bob)
    again = services.lobby_join(lobby_id=lobby.pk, user=bob)
    assert seat.index == again.index == 1


def test_it_refuses_a_full_lobby(alice, bob, charlie):
    lobby = make(alice, seat_count=2)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    with pytest.raises(LobbyFull, match="full"):
        services.lobby_join(lobby_id=lobby.pk, user=charlie)


def test_private_lobby_needs_the_invite_code(alice, bob):
    lobby = make(alice, is_public=False)
    with pytest.raises(NotInvited):
        services.lobby_join(lobby_id=lobby.pk, user=bob)
    with pytest.raises(NotInvited):
        services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code="wrong")
    seat = services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    assert seat.user == bob


def test_host_removes_a_player_who_cannot_come_back(alice, bob):
    lobby = make(alice)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    services.lobby_remove_player(lobby_id=lobby.pk, host=alice, seat_index=1)
    assert not lobby.seats.filter(user=bob).exists()
    with pytest.raises(RemovedFromLobby, match="removed"):
        services.lobby_join(lobby_id=lobby.pk, user=bob)


def test_the_invite_code_does_not_bring_back_a_removed_player(alice, bob):
    lobby = make(alice, is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    services.lobby_remove_player(lobby_id=lobby.pk, host=alice, seat_index=1)
    with pytest.raises(RemovedFromLobby, match="cannot join it again"):
        services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    assert not lobby.seats.filter(user=bob).exists()


def test_only_the_host_removes_or_starts(alice, bob, charlie):
    lobby = make(alice)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    services.lobby_join(lobby_id=lobby.pk, user=charlie)
    with pytest.raises(NotHost):
        services.lobby_remove_player(lobby_id=lobby.pk, host=bob, seat_index=2)
    with pytest.raises(NotHost):
        services.lobby_start(lobby_id=lobby.pk, user=bob)


def test_start_needs_two_players(alice):
    lobby = make(alice)
    with pytest.raises(NotEnoughPlayers):
        services.lobby_start(lobby_id=lobby.pk, user=alice)


def test_start_creates_the_game_with_seated_players_in_order(alice, bob, charlie):
    lobby = make(alice, seat_count=4, end_score=30, final_reveal_clears_columns=False)
    services.lobby_join(lobby_id=lobby.pk, user=bob, seat_index=3)
    services.lobby_join(lobby_id=lobby.pk, user=charlie, seat_index=1)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.PLAYING and lobby.game == game
    names = list(GamePlayer.objects.filter(game=game).values_list("name", flat=True))
    assert names == ["alice", "charlie", "bob"]
    assert game_record(game)["players"] == names
    assert game_record(game)["rules"] == {
        "end_score": 30,
        "double_on_tie": True,
        "final_reveal_clears_columns": False,
    }
    assert Round.objects.get(game=game, number=1).deck == game_record(game)["rounds"][0]["deck"]
    assert game.version == 0 and game.phase == "reveal"


def test_started_lobby_refuses_join_and_leave(alice, bob, charlie):
    lobby = make(alice)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    services.lobby_start(lobby_id=lobby.pk, user=alice)
    with pytest.raises(LobbyNotOpen, match="already started"):
        services.lobby_join(lobby_id=lobby.pk, user=charlie)
    with pytest.raises(LobbyNotOpen):
        services.lobby_leave(lobby_id=lobby.pk, user=bob)


def test_leaving_host_hands_over_or_closes(alice, bob, charlie):
    lobby = make(alice)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    services.lobby_leave(lobby_id=lobby.pk, user=alice)
    lobby.refresh_from_db()
    assert lobby.host == bob and lobby.status == Lobby.Status.OPEN
    with pytest.raises(NotInLobby):
        services.lobby_leave(lobby_id=lobby.pk, user=charlie)
    services.lobby_leave(lobby_id=lobby.pk, user=bob)
    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.CLOSED
    with pytest.raises(LobbyClosed):
        services.lobby_join(lobby_id=lobby.pk, user=charlie)


def test_a_deleted_account_leaves_its_seat_empty(alice, bob, charlie, django_user_model):
    """Deleting the row of a seated player's account (the admin) took the seat row with it:
    the lobby stayed a seat short of its seat_count for good."""
    lobby = services.lobby_create(host=alice, name="Three", seat_count=3)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    bob.delete()
    assert lobby.seats.count() == 3
    services.lobby_join(lobby_id=lobby.pk, user=charlie)
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x-dave-pw-1")
    services.lobby_join(lobby_id=lobby.pk, user=dave)
    assert sorted(s.user.username for s in lobby.seats.all()) == ["alice", "charlie", "dave"]


@pytest.mark.parametrize(
    "name",
    ["\u200b", "\u200b\u200d\u2060", "\u202e\u2066", "\x1b\x07", "\u3000\u00a0", "\ufeff"],
)
def test_it_refuses_a_lobby_name_with_nothing_to_see(alice, name):
    """Format and control characters alone look like no name in the lobby list, as blanks
    do: the name rule of 1 to 60 characters is about what people read."""
    with pytest.raises(InvalidLobby):
        services.lobby_create(host=alice, name=name)


@pytest.mark.parametrize(
    "typed, stored",
    [
        ("Friday\u202e thgin", "Friday thgin"),  # a right-to-left override turns what follows
        ("A\u2067B\u2069C", "ABC"),  # isolates, embeddings and overrides go
        ("red\x1b[31m table\x07", "red[31m table"),  # control characters too
        ("two\n\tlines  here", "two lines here"),
        ("Famille \U0001f468\u200d\U0001f469\u200d\U0001f467", "Famille 👨‍👩‍👧"),  # joiners stay
        (
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
        ),
    ],
)
def test_it_stores_a_lobby_name_as_one_line_without_direction_overrides(alice, typed, stored):
    assert services.lobby_create(host=alice, name=typed).name == stored
