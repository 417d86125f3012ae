"""Answering puzzles: ratings for players and puzzles, the next puzzle, streaks, reports, the
puzzle of the day, and bad input that changes nothing."""

import datetime

import pytest
from django.urls import reverse

from moderation.models import Report
from puzzles import selectors
from puzzles.models import Attempt, Puzzle, Solver
from puzzles.tests.factories import make_puzzle

pytestmark = pytest.mark.django_db


def _url(puzzle, streak=False):
    url = reverse("puzzles:puzzle", args=[puzzle.pk])
    return url + "?mode=streak" if streak else url


def _wrong(puzzle) -> str:
    return next(o["code"] for o in puzzle.options if o["code"] != puzzle.answer)


def test_a_solve_moves_both_ratings_and_shows_the_expected_points(client, alice, bob):
    puzzle = make_puzzle()
    client.force_login(alice)
    page = client.get(_url(puzzle)).content.decode()
    assert f'value="{puzzle.answer}"' in page and 'id="puzzle-result"' not in page
    response = client.post(_url(puzzle), {"answer": puzzle.answer})
    assert response.status_code == 302
    assert response["Location"] == _url(puzzle) + "#puzzle-result"
    solver, puzzle_after = Solver.objects.get(user=alice), Puzzle.objects.get(pk=puzzle.pk)
    assert solver.mu > 25 and solver.sigma < 25 / 3 and solver.solves == solver.tries == 1
    assert puzzle_after.rating < puzzle.rating and puzzle_after.tries == 1
    page = client.get(_url(puzzle)).content.decode()
    assert "Solved!" in page and 'id="puzzle-why"' in page
    for option in puzzle.options:  # every option with its expected points
        assert f"<td>{option['points']:.1f}</td>" in page
    assert 'name="answer"' not in page  # answered: no more buttons
    client.force_login(bob)
    client.post(_url(puzzle), {"answer": _wrong(puzzle)})
    assert Solver.objects.get(user=bob).mu < 25
    assert Puzzle.objects.get(pk=puzzle.pk).rating > puzzle_after.rating
    assert "Not the best move." in client.get(_url(puzzle)).content.decode()


def test_the_place_decision_offers_swaps_and_turns(client, alice):
    puzzle = make_puzzle(seed=2, drawing=True)
    client.force_login(alice)
    page = client.get(_url(puzzle)).content.decode()
    assert 'id="puzzle-drawn"' in page and 'value="draw"' not in page
    for option in puzzle.options:
        assert f'value="{option["code"]}"' in page


@pytest.mark.parametrize("answer", ["", "swap-99", "draw;", "flip-1x", "<b>", "take--1"])
def test_a_malformed_answer_is_refused_and_changes_nothing(client, alice, answer):
    puzzle = make_puzzle()
    client.force_login(alice)
    response = client.post(_url(puzzle), {"answer": answer})
    assert response.status_code == 400
    assert "That answer is not one of the choices" in response.content.decode()
    assert not Attempt.objects.exists() and not Solver.objects.exists()
    assert Puzzle.objects.get(pk=puzzle.pk).rating == puzzle.rating


def test_a_second_answer_is_refused_and_changes_nothing(client, alice):
    puzzle = make_puzzle()
    client.force_login(alice)
    client.post(_url(puzzle), {"answer": _wrong(puzzle)})
    solver, rating = Solver.objects.get(user=alice), Puzzle.objects.get(pk=puzzle.pk).rating
    response = client.post(_url(puzzle), {"answer": puzzle.answer})
    assert response.status_code == 400
    assert "You have answered this puzzle already." in response.content.decode()
    assert Attempt.objects.get().answer == _wrong(puzzle)
    assert Solver.objects.get(user=alice).mu == solver.mu
    assert Puzzle.objects.get(pk=puzzle.pk).rating == rating


def test_an_unknown_puzzle_is_a_clear_404(client, alice):
    client.force_login(alice)
    for response in (
        client.get("/puzzles/999/"),
        client.post("/puzzles/999/", {"answer": "draw"}),
        client.get("/puzzles/999/report/"),
    ):
        assert response.status_code == 404
        assert "There is no such puzzle." in response.content.decode()
    assert not Attempt.objects.exists()


def test_the_next_puzzle_is_the_nearest_untried_one(client, alice, django_assert_num_queries):
    far, below, above, low = (
        make_puzzle(seed=s, rating=r) for s, r in ((1, 40), (2, 24), (3, 27), (4, 20))
    )
    client.force_login(alice)
    response = client.get(reverse("puzzles:next"))
    assert response["Location"] == _url(below)  # 24 is nearer 25 than 27
    with django_assert_num_queries(1):
        assert selectors.next_puzzle(alice, 25.0) == below
    order = []
    for _ in range(4):
        found = selectors.next_puzzle(alice, 25.0)
        order.append(found)
        Attempt.objects.create(
            user=alice, puzzle=found, answer="draw", solved=False, rating_before=25, rating_after=25
        )
    assert order == [below, above, low, far]
    response = client.get(reverse("puzzles:next"))
    assert response.status_code == 200 and 'id="no-puzzle"' in response.content.decode()


def _tried(user, *puzzles):
    for puzzle in puzzles:
        Attempt.objects.create(
            user=user, puzzle=puzzle, answer="draw", solved=False, rating_before=25, rating_after=25
        )


def test_the_next_puzzle_steps_over_the_players_own_attempts_on_both_sides(
    alice, bob, django_assert_num_queries
):
    low, below, above, high = (
        make_puzzle(seed=s, rating=r) for s, r in ((1, 23), (2, 24), (3, 26), (4, 27.5))
    )

    def pick(rating):
        with django_assert_num_queries(1):
            return selectors.next_puzzle(alice, rating)

    assert pick(25.0) == below  # 24 and 26 as near: the lower id
    assert pick(24.0) == below and pick(26.0) == above  # on the rating: that one
    _tried(bob, below, above)  # another player's attempts hide nothing
    assert pick(25.0) == below
    _tried(alice, below, above)
    assert pick(25.0) == low  # 23 (2 below) over 27.5 (2.5 above)
    assert pick(25.3) == high  # 27.5 (2.2 above) over 23 (2.3 below)
    _tried(alice, low)
    assert pick(20.0) == high  # nothing untried below: the walk up past all tried
    _tried(alice, high)
    assert pick(25.0) is None


def test_streak_mode_counts_solves_until_the_first_miss(client, alice):
    for s in (1, 2, 3):
        make_puzzle(seed=s)
    client.force_login(alice)
    served = []
    for _ in range(3):
        location = client.get(reverse("puzzles:next") + "?mode=streak")["Location"]
        puzzle = Puzzle.objects.get(pk=int(location.split("/")[2]))
        assert location == _url(puzzle, streak=True) and puzzle not in served
        served.append(puzzle)
        answer = puzzle.answer if len(served) < 3 else _wrong(puzzle)
        response = client.post(_url(puzzle), {"answer": answer, "mode": "streak"})
        assert response["Location"] == location + "#puzzle-result"
        if len(served) == 2:
            page = client.get(location).content.decode()
            assert "Streak 2" in page and "Next in the streak" in page
    page = client.get(location).content.decode()
    assert "the streak ends. Solved in a row: 2." in page and "Start a new streak" in page
    solver = Solver.objects.get(user=alice)
    assert (solver.streak, solver.best_streak) == (0, 2)


def test_an_answer_outside_streak_mode_leaves_the_streak(client, alice):
    puzzle = make_puzzle()
    client.force_login(alice)
    client.post(_url(puzzle), {"answer": puzzle.answer})
    assert Solver.objects.get(user=alice).streak == 0


def test_a_report_reaches_the_moderators_queue(client, alice, moderator):
    puzzle = make_puzzle()
    client.force_login(alice)
    url = reverse("puzzles:report", args=[puzzle.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"text": "Turning looks better to me."})
    assert response["Location"] == _url(puzzle)
    report = Report.objects.get()
    assert (report.kind, report.puzzle, report.reporter) == ("puzzle", puzzle, alice)
    client.post(url, {"text": "again"})
    assert Report.objects.count() == 1
    assert "You have reported this already" in client.get(_url(puzzle)).content.decode()
    client.force_login(moderator)
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert f'href="{_url(puzzle)}"' in queue and "Turning looks better to me." in queue
    assert 'id="puzzle-result"' in client.get(_url(puzzle)).content.decode()  # the answer


def test_the_home_page_shows_the_puzzle_of_the_day(client):
    assert 'id="puzzle-of-the-day"' not in client.get("/").content.decode()
    puzzles = [make_puzzle(seed=s) for s in (1, 2, 3)]
    day = datetime.date(2026, 12, 3)
    assert selectors.puzzle_of_the_day(day) == selectors.puzzle_of_the_day(day)
    assert selectors.puzzle_of_the_day(day) in puzzles
    page = client.get("/").content.decode()
    assert 'id="puzzle-of-the-day"' in page and "/puzzles/" in page


def test_a_visitor_sees_the_puzzle_and_logs_in_to_answer(client):
    puzzle = make_puzzle()
    page = client.get(_url(puzzle)).content.decode()
    assert "Log in to answer" in page and 'id="puzzle-result"' not in page
    response = client.post(_url(puzzle), {"answer": puzzle.answer})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Attempt.objects.exists()


def test_staff_with_the_permission_delete_a_wrong_puzzle_in_the_admin(client, django_user_model):
    puzzle = make_puzzle()
    admin_user = django_user_model.objects.create_superuser("root", "root@example.com", "pw-12345")
    client.force_login(admin_user)
    url = reverse("admin:puzzles_puzzle_change", args=[puzzle.pk])
    assert client.get(url).status_code == 200
    delete = reverse("admin:puzzles_puzzle_delete", args=[puzzle.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 302
    assert not Puzzle.objects.exists()


def test_an_answer_rated_on_a_stale_puzzle_rating_is_rated_again(alice, bob, monkeypatch):
    """Another answer lands between the read and the write: the write matches no row and the
    answer is rated again from the new figures, so neither update is lost."""
    from puzzles import services

    puzzle = make_puzzle()
    model, seen = services.MODEL, []

    class Meanwhile:
        """The model, with bob's answer written while alice's is being rated."""

        rating = model.rating

        def rate(self, teams, **kwargs):
            seen.append(teams[1][0].mu)
            if len(seen) == 1:
                monkeypatch.setattr(services, "MODEL", model)
                services.puzzle_answer(user=bob, puzzle_id=puzzle.pk, code=_wrong(puzzle))
                monkeypatch.setattr(services, "MODEL", self)
            return model.rate(teams, **kwargs)

    monkeypatch.setattr(services, "MODEL", Meanwhile())
    answer = services.puzzle_answer(user=alice, puzzle_id=puzzle.pk, code=puzzle.answer)
    assert len(seen) == 2 and seen[0] == puzzle.rating and seen[1] > puzzle.rating
    assert answer.puzzle.tries == 2 and Attempt.objects.count() == 2
    assert answer.puzzle.rating < seen[1]  # alice's solve moved it from bob's figure


def test_the_moderation_service_refuses_a_report_of_an_unknown_puzzle(alice):
    from core.errors import NotFound
    from moderation import services as moderation_services

    with pytest.raises(NotFound):
        moderation_services.report_create(
            reporter=alice, kind="puzzle", target_id=999, reason="other"
        )
    assert not Report.objects.exists()
