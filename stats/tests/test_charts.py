"""The charts' geometry: no point under a label, no label over another."""

import pytest

from web.stats import charts

RADIUS = 3  # the dots' radius in templates/stats/chart_line.html
DIGIT_AT_LEAST = 6  # a digit's width at the labels' 11 px


def dates(count: int) -> list[str]:
    return [""] + [f"{1 + i % 28:02d}.{1 + i % 12:02d}" for i in range(count - 1)]


def extent(tick: dict) -> tuple[float, float]:
    width = sum(3 if c == "." else DIGIT_AT_LEAST for c in tick["label"])
    low = {"start": tick["x"], "end": tick["x"] - width, "middle": tick["x"] - width / 2}
    return low[tick["anchor"]], low[tick["anchor"]] + width


@pytest.mark.parametrize("values", [[1000, 1100, 1050], [1000, 900, 950], [1000] * 5])
def test_the_first_point_stands_clear_of_the_value_labels(values):
    """A rating history starts at 1000, often its highest or lowest value: level with a value
    label, which ends 4 units left of the plot."""
    chart = charts.line_chart([("Rating", values)], dates(len(values)))
    first_x = chart["lines"][0].dots[0][0]
    assert first_x - RADIUS >= chart["left"] + 4
    last_x = chart["lines"][0].dots[-1][0]
    assert last_x + RADIUS <= chart["right"]


@pytest.mark.parametrize("count", [1, 2, 3, 7, 8, 9, 15, 21, 30, 31, 57, 100, 199, 200])
def test_the_x_labels_never_overlap_and_the_last_is_always_shown(count):
    labels = dates(count)
    ticks = charts.line_chart([("Rating", list(range(count)))], labels)["x_ticks"]
    assert ticks[-1]["label"] == labels[-1] and len(ticks) <= 9
    boxes = [extent(t) for t in ticks if t["label"]]
    assert all(a[1] < b[0] for a, b in zip(boxes, boxes[1:], strict=False))
    assert all(low >= 0 and high <= charts.WIDTH for low, high in boxes)


@pytest.mark.parametrize("low, high", [(0, 10), (-10, 40), (-15, 150), (-20, 285)])
def test_the_round_score_bars_say_both_ends_and_their_labels_never_overlap(low, high):
    """Failed on main: a bar was labelled by its start alone ("5" for the scores 5 to 9)."""
    from web.stats.views import distribution_chart

    buckets = [(start, 1) for start in range(low, high + 1, 5)]
    bars = distribution_chart(buckets)["chart"]["bars"]
    assert [b["label"] for b in bars[:2]] == [f"{low}–{low + 4}", f"{low + 5}–{low + 9}"]
    shown = [b for b in bars if b["show_label"]]
    assert shown[0] is bars[0]
    boxes = [
        (
            b["mid"] - len(b["label"]) * DIGIT_AT_LEAST / 2,
            b["mid"] + len(b["label"]) * DIGIT_AT_LEAST / 2,
        )
        for b in shown
    ]
    assert all(a[1] < b[0] for a, b in zip(boxes, boxes[1:], strict=False))
    assert boxes[0][0] >= 0


def test_the_score_progression_labels_every_round_when_few():
    ticks = charts.line_chart([("ann", [0, 5, 9, 20])], ["0", "1", "2", "3"])["x_ticks"]
    assert [t["label"] for t in ticks] == ["0", "1", "2", "3"]


@pytest.mark.django_db
def test_a_finished_games_progression_is_drawn_in_each_language(client, alice, bob):
    from games.tests.helpers import play_to_end, start_game

    game = start_game(alice, bob, end_score=30)
    play_to_end(game, [alice, bob], seed=3)
    client.force_login(alice)

    def chart(language: str) -> str:
        page = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        return page[page.index('id="progression-chart-title"') :].split("</figure>")[0]

    english, german = chart("en"), chart("de")
    assert "Totals after each round" in english and "Summen nach jeder Runde" in german
    assert chart("en") == english and chart("de") == german  # the second time from the cache
