"""The pure pairing and points: nobody seated twice, table sizes in range, byes as documented."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import pairing, points, timing

sizes = st.tuples(st.integers(2, 4), st.integers(2, 4)).map(sorted)
# A shared machine may be slow to draw fields of players: no time limit on it.
patient = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


@st.composite
def fields(draw):
    count = draw(st.integers(0, 60))
    ids = list(range(1, count + 1))
    players = []
    for pid in ids:
        met = draw(st.dictionaries(st.sampled_from(ids), st.integers(1, 3), max_size=4))
        met.pop(pid, None)
        players.append(
            pairing.Player(
                id=pid,
                points=draw(st.integers(0, 40)),
                rating=draw(st.floats(0, 2000)),
                met=met,
                byes=draw(st.integers(0, 2)),
            )
        )
    return players


@patient
@given(fields(), sizes)
def test_everyone_is_seated_once_or_left_out_and_tables_are_in_range(players, size):
    low, high = size
    tables, out = pairing.pair(players, low, high)
    seated = [pid for table in tables for pid in table]
    assert len(seated) == len(set(seated))
    assert not set(seated) & set(out)
    assert sorted(seated + out) == sorted(p.id for p in players)
    assert all(low <= len(table) <= high for table in tables)
    # as many seated as any sizes allow: fewer than ``low`` left, or none when sizes fit
    assert len(out) == len(players) - sum(pairing.table_sizes(len(players), low, high))


@patient
@given(st.integers(0, 600), sizes)
def test_table_sizes_seat_the_most_and_are_even(count, size):
    low, high = size
    tables = pairing.table_sizes(count, low, high)
    assert all(low <= t <= high for t in tables)
    assert not tables or max(tables) - min(tables) <= 1
    seated = sum(tables)
    # nobody more could be seated: no count between seated+1 and count fits
    assert all(
        not any(k * low <= n <= k * high for k in range(1, n + 1))
        for n in range(seated + 1, count + 1)
    )


def test_byes_go_to_the_lowest_ranked_without_a_bye_before():
    players = [pairing.Player(id=i, points=10 - i) for i in range(1, 6)]
    players[4] = pairing.Player(id=5, points=5, byes=1)  # the last had a bye already
    tables, out = pairing.pair(players, 3, 4)  # 5 players: one table of 4, one bye... or 3+2?
    assert pairing.table_sizes(5, 3, 4) == [4]
    assert out == [4]
    assert sorted(tables[0]) == [1, 2, 3, 5]


def test_a_repeated_table_is_avoided_when_a_swap_can():
    met = {2: 1}
    players = [
        pairing.Player(id=1, points=9, met=met),
        pairing.Player(id=2, points=8, met={1: 1}),
        pairing.Player(id=3, points=7),
        pairing.Player(id=4, points=6),
    ]
    tables, out = pairing.pair(players, 2, 2)
    assert out == []
    assert sorted(map(sorted, tables)) in ([[1, 3], [2, 4]], [[1, 4], [2, 3]])


def test_points_by_place_and_ties_share_the_better_place():
    assert points.places([10, 3, 3, 20]) == [3, 1, 1, 4]
    assert [points.place_points(p, 4) for p in (1, 2, 3, 4)] == [4, 3, 2, 1]
    assert [points.place_points(p, 3) for p in (1, 2, 3)] == [4, 2, 1]
    assert [points.place_points(p, 2) for p in (1, 2)] == [4, 1]


def test_a_streak_doubles_wins_after_two_in_a_row_until_a_loss():
    streak, got = 0, []
    for place in (1, 1, 1, 1, 2, 1):
        scored = points.arena_points(place, 4, streak)
        got.append(scored.points)
        streak = scored.streak
    assert got == [4, 4, 8, 8, 3, 4]


def test_tie_breaks():
    a = points.Standing(id=1, points=10, wins=2, games=5, rating=0, joined=1, buchholz=20)
    b = points.Standing(id=2, points=10, wins=3, games=6, rating=0, joined=2, buchholz=15)
    assert [s.id for s in points.arena_order([a, b])] == [2, 1]
    assert [s.id for s in points.swiss_order([a, b])] == [1, 2]
    assert points.buchholz({1: 4, 2: 6, 3: 1}, {1: [2, 3, 2]}) == {1: 13}


def test_a_game_is_judged_longer_with_more_seats_a_longer_clock_a_higher_end():
    base = timing.game_seconds(seats=2, turn_clock=15, end_score=30)
    assert base == 100
    assert timing.game_seconds(seats=4, turn_clock=15, end_score=30) == 200
    assert timing.game_seconds(seats=2, turn_clock=30, end_score=100) == 800
