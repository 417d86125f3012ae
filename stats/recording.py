"""Writes of the statistics rows (stats.models), receivers of games.signals run inside the
games services' transactions (connected in StatsConfig.ready).

A game counts once it finishes (``game_finished``) or its only human resigns it
(``game_resigned``): its round rows are marked ``counted`` and its game rows written then, so
an aborted game never counts. ``game_voided`` takes a finished game out again. Each gives the
players a new ``ProfileVersion`` token in the same transaction (stats.profile_cache).
"""

import secrets
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from accounts.models import shown_rating
from games.engine import COLUMNS
from games.models import Lobby
from stats.models import GameResult, ProfileVersion, RatingChange, RoundResult


def columns_removed(cards: list) -> int:
    """Columns of a grid removed (three equal face-up cards): their cards are ``None``."""
    return sum(cards[top] is None for top, _, _ in COLUMNS)


def _turned_at_end(state, seat: int) -> int | None:
    """Cards ``seat`` still had face down when the round just scored ended (the engine keeps
    it only in the game that scored the round: ``None`` for one restored since)."""
    return state.turned_at_end[seat] if state.turned_at_end is not None else None


def round_scored(*, game, state, players, **kwargs) -> None:
    """Rows for the round ``state`` has just scored (one INSERT). ``players``: the game's
    GamePlayer rows."""
    result = state.results[-1]
    now = timezone.now()
    with_bots = any(p.bot_level for p in players)
    RoundResult.objects.bulk_create(
        RoundResult(
            game_id=game.pk,
            number=len(state.results),
            seat=p.seat,
            user_id=p.user_id,
            is_bot=bool(p.bot_level),
            player_count=len(players),
            with_bots=with_bots,
            score=result.scores[p.seat],
            raw=result.raw[p.seat],
            ended=result.ender == p.seat,
            doubled=result.ender == p.seat and result.doubled,
            columns_removed=columns_removed(state.cards[p.seat]),
            turned_at_end=_turned_at_end(state, p.seat),
            scored_at=now,
        )
        for p in players
    )


def game_finished(*, game, players, rounds: int, resigned: int | None = None, **kwargs) -> None:
    """The game's rows, and its rounds counted: it finished, or the player in seat
    ``resigned`` ended it (last place, whatever their total)."""
    now = timezone.now()
    is_public = Lobby.objects.filter(pk=game.lobby_id).values_list("is_public", flat=True).first()
    is_public = bool(is_public)
    RoundResult.objects.filter(game_id=game.pk).update(counted=True, is_public=is_public)
    with_bots = any(p.bot_level for p in players)
    totals = [p.total for p in players if p.seat != resigned]
    GameResult.objects.bulk_create(
        GameResult(
            game_id=game.pk,
            seat=p.seat,
            user_id=p.user_id,
            is_bot=bool(p.bot_level),
            player_count=len(players),
            with_bots=with_bots,
            is_public=is_public,
            total=p.total,
            won=p.won,
            place=len(players) if p.seat == resigned else 1 + sum(t < p.total for t in totals),
            resigned=p.seat == resigned,
            rounds=rounds,
            finished_at=now,
        )
        for p in players
    )
    figures_changed(p.user_id for p in players)


def game_resigned(*, game, players, seat: int, **kwargs) -> None:
    """The only human of a game against bots, in ``seat``, ended it after a move of their own:
    it counts as finished with the rounds scored so far, that seat last."""
    rounds = RoundResult.objects.filter(game_id=game.pk, seat=seat).count()
    game_finished(game=game, players=players, rounds=rounds, resigned=seat)


def figures_changed(user_ids: Iterable[int | None]) -> None:
    """New ProfileVersion tokens for these players (one upsert, in the caller's transaction).
    In id order, so that two games finishing at once lock the rows in the same order."""
    ids = sorted({pk for pk in user_ids if pk is not None})
    if ids:
        ProfileVersion.objects.bulk_create(
            [ProfileVersion(user_id=pk, token=secrets.randbits(62)) for pk in ids],
            update_conflicts=True,
            unique_fields=["user"],
            update_fields=["token"],
        )


def ratings_changed(*, game_id: int, changes: list[tuple[object, float, float]]) -> None:
    """Snapshots of a rated game: ``changes`` holds (user with the new rating, mu before,
    sigma before) per player."""
    now = timezone.now()
    RatingChange.objects.bulk_create(
        RatingChange(
            user_id=user.pk,
            game_id=game_id,
            mu_before=mu,
            sigma_before=sigma,
            mu_after=user.rating_mu,
            sigma_after=user.rating_sigma,
            rating_before=shown_rating(mu, sigma),
            rating_after=shown_rating(user.rating_mu, user.rating_sigma),
            rated_at=now,
        )
        for user, mu, sigma in changes
    )
    figures_changed(user.pk for user, _, _ in changes)


def game_voided(*, game_id: int) -> None:
    """Take a finished game out of the statistics (its rows stay, uncounted). Its rating
    changes are history and stay; undoing them is the caller's decision."""
    with transaction.atomic():
        RoundResult.objects.filter(game_id=game_id).update(counted=False)
        players = GameResult.objects.filter(game_id=game_id).values_list("user_id", flat=True)
        figures_changed(list(players))
        GameResult.objects.filter(game_id=game_id).delete()
