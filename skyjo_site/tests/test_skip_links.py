"""Every page opens with a skip link past the header (keyboard and screen reader users): to the
content, or where a page has its own place to start, there: the puzzle's question, a player's
move."""

import pytest
from django.urls import reverse

from games.tests.helpers import start_game
from puzzles.tests.factories import make_puzzle

pytestmark = pytest.mark.django_db


def first_link(page: str) -> str:
    body = page[page.index("<body") :]
    return body[body.index("<a ") : body.index("</a>") + 4]


def test_a_page_skips_to_its_content(client, alice):
    client.force_login(alice)
    for path in ("/", "/lobbies/", "/rules/", reverse("accounts:settings")):
        page = client.get(path).content.decode()
        assert 'href="#content" id="skip-to-content"' in first_link(page), path
        assert '<main class="site-main" id="content">' in page


def test_a_puzzle_skips_to_its_question_and_a_game_to_the_move(client, alice, bob):
    client.force_login(alice)
    puzzle = client.get(reverse("puzzles:puzzle", args=[make_puzzle().pk])).content.decode()
    assert 'href="#puzzle-question" id="skip-to-puzzle"' in first_link(puzzle)
    assert 'id="puzzle-question"' in puzzle and "skip-to-content" not in puzzle
    game = client.get(reverse("games:game", args=[start_game(alice, bob).pk])).content.decode()
    assert 'href="#controls" id="skip-to-move"' in first_link(game)
