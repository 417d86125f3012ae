"""A second Skyjo, written from ../shared/spec/rules.md alone and kept as plain as it can be,
to check the engine against (test_reference.py), as a chess move generator is checked against
known perft counts. It replays a game record (game-record.md) and imports nothing of the
engine. Written for an audit of the engine; where the two disagree, rules.md decides."""

RULES = {"end_score": 100, "double_on_tie": True, "final_reveal_clears_columns": True}


def replay(record: dict) -> tuple[list[int], list[tuple], str]:
    """The totals and each scored round's ``(starter, ender, raw, scores)`` of ``record``, and
    where it stops: ``"over"``, ``"between"`` two rounds, or inside one (``"reveal"``,
    ``"play"``, ``"pending"``: a drawn card not placed)."""
    n = len(record["players"])
    rules = {**RULES, **(record.get("rules") or {})}
    totals, results, last_ender = [0] * n, [], None
    for round_ in record["rounds"]:
        assert max(totals) < rules["end_score"], "a round after the game's end"
        table = _Table(round_, n)
        if any(len(pair or []) < 2 for pair in round_["reveals"]):
            return totals, results, "reveal"
        starter = table.highest_revealed() if last_ender is None else last_ender
        ender = table.play(round_["actions"], starter)
        if ender is None:
            return totals, results, table.stopped
        raw = table.final_reveal(clear_columns=rules["final_reveal_clears_columns"])
        scores = list(raw)
        if raw[ender] > 0 and any(
            raw[o] <= raw[ender] if rules["double_on_tie"] else raw[o] < raw[ender]
            for o in range(n)
            if o != ender
        ):
            scores[ender] = 2 * raw[ender]
        results.append((starter, ender, tuple(raw), tuple(scores)))
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        last_ender = ender
    return totals, results, "over" if max(totals) >= rules["end_score"] else "between"


class _Table:
    """One round: grids (None: a removed card), face-up flags, the piles (the draw pile's top
    first), the reshuffles still to come."""

    def __init__(self, round_: dict, n: int):
        deck = round_["deck"]
        self.n = n
        self.grid = [deck[12 * s : 12 * s + 12] for s in range(n)]
        self.up = [[False] * 12 for _ in range(n)]
        self.discard = [deck[12 * n]]
        self.pile = list(deck[12 * n + 1 :])
        self.reshuffles = list(round_.get("reshuffles", []))
        self.stopped = "play"
        for seat, pair in enumerate(round_["reveals"]):
            for pos in pair or []:
                assert not self.up[seat][pos]
                self.up[seat][pos] = True

    def highest_revealed(self) -> int:
        """Round 1's starter: the highest sum of the two revealed cards, the lowest seat on a
        tie."""
        sums = [
            sum(v for v, u in zip(g, up, strict=True) if u)
            for g, up in zip(self.grid, self.up, strict=True)
        ]
        return max(range(self.n), key=lambda s: (sums[s], -s))

    def play(self, actions: list[dict], seat: int) -> int | None:
        """The turns from ``seat`` on; the round's ender once everyone else has had their last
        turn, else ``None``."""
        ender, left = None, None
        for action in actions:
            assert ender is None or left > 0, "a turn after the round's end"
            pos = self.turn(seat, action)
            if pos is None:
                self.stopped = "pending"
                return None
            self.clear_column(seat, pos)
            if not self.pile:
                top = self.discard.pop()
                new = self.reshuffles.pop(0)
                assert sorted(new) == sorted(self.discard)
                self.pile, self.discard = list(new), [top]
            if ender is not None:
                left -= 1
            elif all(self.up[seat]):
                ender, left = seat, self.n - 1
            seat = (seat + 1) % self.n
            if ender is not None and left == 0:
                return ender
        return None

    def turn(self, seat: int, action: dict) -> int | None:
        """One turn; the position it changed (``None``: a drawn card not placed yet)."""
        if action["take"] == "discard":
            card = self.discard.pop()
            return self.place(seat, action["swap"], card)
        card = self.pile.pop(0)
        if "swap" in action:
            return self.place(seat, action["swap"], card)
        if "flip" in action:
            pos = action["flip"]
            assert not self.up[seat][pos]
            self.discard.append(card)
            self.up[seat][pos] = True
            return pos
        return None

    def place(self, seat: int, pos: int, card: int) -> int:
        assert self.grid[seat][pos] is not None
        self.discard.append(self.grid[seat][pos])
        self.grid[seat][pos], self.up[seat][pos] = card, True
        return pos

    def clear_column(self, seat: int, pos: int) -> None:
        """Three equal face-up cards in the column of ``pos`` go to the discard pile."""
        column = (pos % 4, pos % 4 + 4, pos % 4 + 8)
        values = [self.grid[seat][p] for p in column]
        if all(self.up[seat][p] for p in column) and None not in values and len(set(values)) == 1:
            self.discard.extend(values)
            for p in column:
                self.grid[seat][p] = None

    def final_reveal(self, *, clear_columns: bool) -> list[int]:
        """Every card face up (columns cleared then too if the rules say so); the raw scores."""
        for seat in range(self.n):
            self.up[seat] = [True] * 12
            if clear_columns:
                for column in range(4):
                    self.clear_column(seat, column)
        return [sum(v for v in g if v is not None) for g in self.grid]
