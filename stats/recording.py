"""Writes of the statistics rows, receivers of games.signals inside the games' transactions. A
game counts once it finishes or its only human resigns it; each write gives the players a new
``ProfileVersion`` token in the same transaction."""

import secrets
from collections.abc import Iterable

from django.utils import timezone

from accounts.models import User, shown_rating
from games.engine import COLUMNS
from games.models import Lobby
from stats.models import GameResult, ProfileVersion, RatingChange, RoundResult


def columns_removed(cards: list) -> int:
    """Columns of a grid removed (their cards are ``None``)."""
    return sum(cards[top] is None for top, _, _ in COLUMNS)


def _seat(p, players) -> dict:
    """The columns of a SeatRow of GamePlayer ``p`` among ``players``. A forfeited seat stays
    its player's (the bot that played on in it makes no game "with bots")."""
    with_bots = any(_is_bot(other) for other in players)
    seat = {"game_id": p.game_id, "seat": p.seat, "user_id": p.user_id, "is_bot": _is_bot(p)}
    return {**seat, "player_count": len(players), "with_bots": with_bots}


def _is_bot(p) -> bool:
    return bool(p.bot_level) and not p.forfeited


def place(p, players, resigned: int | None = None) -> int:
    """``p``'s place: 1 + the seats with a lower total among those that neither resigned nor
    forfeited; the last place (the number of players) for a resigned or forfeited seat, shared
    by every such seat whatever its total."""
    if p.seat == resigned or p.forfeited:
        return len(players)
    ranked = [o.total for o in players if o.seat != resigned and not o.forfeited]
    return 1 + sum(t < p.total for t in ranked)


def round_scored(*, game, state, players, **kwargs) -> None:
    """Rows for the round ``state`` has just scored (one INSERT). A seat forfeited by then was
    played by the bot: its row is the bot's (no user), not its player's."""
    result, now, turned = state.results[-1], timezone.now(), state.turned_at_end
    RoundResult.objects.bulk_create(
        RoundResult(
            **{**_seat(p, players), **({"user_id": None, "is_bot": True} if p.forfeited else {})},
            number=len(state.results),
            score=result.scores[p.seat],
            raw=result.raw[p.seat],
            ended=result.ender == p.seat,
            doubled=result.ender == p.seat and result.doubled,
            columns_removed=columns_removed(state.cards[p.seat]),
            turned_at_end=turned[p.seat] if turned is not None else None,  # None once restored
            scored_at=now,
        )
        for p in players
    )


def game_finished(*, game, players, rounds: int, resigned: int | None = None, **kwargs) -> None:
    """The game's rows, and its rounds counted: it finished, or the player in seat
    ``resigned`` ended it (last place, whatever their total). A forfeited seat (lost on time
    in a correspondence game) is last too, and never won."""
    now = timezone.now()
    is_public = Lobby.objects.filter(pk=game.lobby_id).values_list("is_public", flat=True).first()
    is_public = bool(is_public)
    RoundResult.objects.filter(game_id=game.pk).update(counted=True, is_public=is_public)
    GameResult.objects.bulk_create(
        GameResult(
            **_seat(p, players),
            is_public=is_public,
            total=p.total,
            won=p.won and not p.forfeited,
            place=place(p, players, resigned),
            resigned=p.seat == resigned,
            forfeited=p.forfeited,
            rounds=rounds,
            finished_at=now,
        )
        for p in players
    )
    figures_changed(p.user_id for p in players)


def game_resigned(*, game, players, seat: int, **kwargs) -> None:
    """The only human, in ``seat``, ended a game against bots: it counts, that seat last."""
    rounds = RoundResult.objects.filter(game_id=game.pk, seat=seat).count()
    game_finished(game=game, players=players, rounds=rounds, resigned=seat)


def figures_changed(user_ids: Iterable[int | None]) -> None:
    """New ProfileVersion tokens for these players: one upsert, in id order (the lock order)."""
    ids = sorted({pk for pk in user_ids if pk is not None})
    if ids:
        ProfileVersion.objects.bulk_create(
            [ProfileVersion(user_id=pk, token=secrets.randbits(62)) for pk in ids],
            update_conflicts=True,
            unique_fields=["user"],
            update_fields=["token"],
        )


def ratings_changed(
    *, game_id: int, changes: list[tuple[object, float, float]], kind: str = "live"
) -> None:
    """Snapshots of a rated game in its ``kind`` of rating: ``changes``: (user with the new
    rating, mu and sigma before)."""
    now = timezone.now()
    mu_field, sigma_field, _ = User.RATING_FIELDS[kind]
    rows = []
    for user, mu, sigma in changes:
        mu_after, sigma_after = getattr(user, mu_field), getattr(user, sigma_field)
        rows.append(
            RatingChange(
                user_id=user.pk,
                game_id=game_id,
                kind=kind,
                mu_before=mu,
                sigma_before=sigma,
                mu_after=mu_after,
                sigma_after=sigma_after,
                rating_before=shown_rating(mu, sigma),
                rating_after=shown_rating(mu_after, sigma_after),
                rated_at=now,
            )
        )
    RatingChange.objects.bulk_create(rows)
    figures_changed(user.pk for user, _, _ in changes)
