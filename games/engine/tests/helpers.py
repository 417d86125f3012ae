"""Hand-made decks and scripted play, so that every test knows each card exactly."""

from collections import Counter

from games.engine import DECK_COUNTS, GRID_SIZE, Game, Rules, draw, flip, reveal, swap, take_discard


def make_deck(
    n: int = 2,
    grids: dict[int, dict[int, int] | list[int]] | None = None,
    discard: int | None = None,
    draws: list[int] | tuple[int, ...] = (),
) -> list[int]:
    """A valid 150-card deck with chosen cards at chosen deal positions.

    ``grids[seat]`` is a full list of 12 values or ``{position: value}``; ``discard`` is the
    first discard card ``d[12n]``; ``draws`` are the top cards of the draw pile, top first
    (``None`` leaves a slot to the filler). Every
    other slot is filled from the cards left over, cycling through the values so that no filler
    column holds three equal cards.
    """
    deck: list[int | None] = [None] * 150
    for seat, grid in (grids or {}).items():
        items = enumerate(grid) if isinstance(grid, list) else grid.items()
        for pos, value in items:
            deck[12 * seat + pos] = value
    if discard is not None:
        deck[12 * n] = discard
    for i, value in enumerate(draws):
        if value is not None:
            deck[12 * n + 1 + i] = value
    left = Counter(DECK_COUNTS)
    left.subtract(v for v in deck if v is not None)
    over = [v for v, c in left.items() if c < 0]
    if over:
        raise ValueError(f"too many cards of value {over[0]}")
    filler: list[int] = []
    while sum(left.values()):
        for value in sorted(left, reverse=True):
            if left[value]:
                filler.append(value)
                left[value] -= 1
    it = iter(filler)
    return [v if v is not None else next(it) for v in deck]


def new_game(
    n: int = 2,
    grids=None,
    discard=None,
    draws=(),
    reveals=None,
    rules: Rules | None = None,
) -> Game:
    """A game dealt from ``make_deck``; with ``reveals`` (one pair per seat) play has begun."""
    game = Game([f"p{i}" for i in range(n)], rules, deck=make_deck(n, grids, discard, draws))
    for seat, pair in enumerate(reveals or []):
        for pos in pair:
            game.apply(seat, reveal(pos))
    return game


def turn(game: Game, data: dict) -> None:
    """Play one turn in the record's form for the player to act."""
    seat = game.current
    if data["take"] == "discard":
        game.apply(seat, take_discard(data["swap"]))
        return
    game.apply(seat, draw())
    if "swap" in data:
        game.apply(seat, swap(data["swap"]))
    else:
        game.apply(seat, flip(data["flip"]))


def face_down(game: Game, seat: int) -> list[int]:
    return [p for p in range(GRID_SIZE) if not game.up[seat][p]]


def flip_next(game: Game) -> None:
    """The player to act draws, discards and turns their first face-down card."""
    turn(game, {"take": "deck", "flip": face_down(game, game.current)[0]})


def flip_until_final(game: Game) -> None:
    """Everyone draws and flips in turn until someone has no face-down card left."""
    while game.phase == "play":
        flip_next(game)


def flip_to_round_end(game: Game) -> None:
    """Flip through the whole round: every remaining turn draws and flips."""
    while game.phase in ("play", "final"):
        flip_next(game)


def snapshot(game: Game) -> tuple:
    """Everything observable about a game, to prove that an illegal action changed nothing."""
    from games.engine import to_record, view_of

    return (
        to_record(game),
        [view_of(game, s) for s in [None, *range(game.n)]],
        game.phase,
        game.current,
        game.drawn,
        list(game.draw_pile),
        list(game.discard),
        [list(c) for c in game.cards],
        [list(u) for u in game.up],
        list(game.hidden),
    )


def play_randomly(game: Game, rng, steps: int) -> Game:
    """Up to ``steps`` random legal steps (a deal counts as one), or until the game ends."""
    for _ in range(steps):
        if game.finished:
            break
        if game.phase == "round_over":
            game.next_round()
            continue
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game
