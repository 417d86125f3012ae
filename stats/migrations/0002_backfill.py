"""Fill the statistics rows from the games finished before they existed.

Each finished game's rows are rebuilt from its Round rows; the columns removed in each round
come from replaying the game's record (assembled from its Round and Move rows, as
games.records does) with the engine. Rating snapshots are recomputed by replaying every rated
game in the order they finished, from the starting rating, as games.ratings rates them.
Stopped (aborted) and voided games are left out, as they are from the statistics.
"""

from django.db import migrations

START_MU, START_SIGMA = 25.0, 25.0 / 3


def shown(mu, sigma):
    return round(1000 + 40 * (mu - 3 * sigma))


def record_of(game, Round, Move):
    snapshot = game.snapshot
    n = len(snapshot["players"])
    rounds = {
        number: {"deck": deck, "reveals": [[] for _ in range(n)], "actions": [], "reshuffles": []}
        for number, deck in Round.objects.filter(game=game).values_list("number", "deck")
    }
    moves = (
        Move.objects.filter(game=game)
        .order_by("version")
        .values_list("round", "seat", "action", "reshuffle")
    )
    for number, seat, action, reshuffle in moves:
        rnd = rounds[number]
        if "reveal" in action:
            rnd["reveals"][seat].append(action["reveal"])
        elif "take" in action:
            rnd["actions"].append(dict(action))
        else:
            rnd["actions"][-1].update(action)
        if reshuffle is not None:
            rnd["reshuffles"].append(reshuffle)
    out = []
    for number in sorted(rounds):
        rnd = rounds[number]
        data = {"deck": rnd["deck"], "reveals": rnd["reveals"], "actions": rnd["actions"]}
        if rnd["reshuffles"]:
            data["reshuffles"] = rnd["reshuffles"]
        out.append(data)
    return {
        "format": "skyjo-record/1",
        "players": list(snapshot["players"]),
        "rules": dict(snapshot["rules"]),
        "rounds": out,
    }


def by_round(record, rounds, measure):
    """{round number: ``measure(game)`` of the engine game just after that round was scored};
    empty when the record does not replay. Also used by later migrations."""
    from games.engine import EngineError, from_record

    found = {}
    for number in range(1, rounds + 1):
        try:
            state = from_record({**record, "rounds": record["rounds"][:number]})
        except (EngineError, ValueError, KeyError, IndexError, TypeError):
            return {}
        found[number] = measure(state)
    return found


def columns_by_round(record, rounds):
    """{round number: [columns removed per seat]}; empty when the record does not replay."""
    from games.engine import COLUMNS

    return by_round(
        record, rounds, lambda state: [sum(c[t] is None for t, _, _ in COLUMNS) for c in state.cards]
    )


def backfill(apps, schema_editor):
    from openskill.models import PlackettLuce

    Game = apps.get_model("games", "Game")
    GamePlayer = apps.get_model("games", "GamePlayer")
    Round = apps.get_model("games", "Round")
    Move = apps.get_model("games", "Move")
    RoundResult = apps.get_model("stats", "RoundResult")
    GameResult = apps.get_model("stats", "GameResult")
    RatingChange = apps.get_model("stats", "RatingChange")
    model = PlackettLuce()
    ratings = {}
    games = Game.objects.filter(status="finished", voided=False).select_related("lobby")
    for game in games.order_by("finished_at", "pk").iterator():
        players = list(GamePlayer.objects.filter(game=game).order_by("seat"))
        scored = list(Round.objects.filter(game=game, scores__isnull=False).order_by("number"))
        if not players or not scored:
            continue
        finished_at = game.finished_at or game.updated_at
        is_public = game.lobby.is_public
        with_bots = any(p.bot_level for p in players)
        n = len(players)
        columns = columns_by_round(record_of(game, Round, Move), len(scored))
        RoundResult.objects.bulk_create(
            RoundResult(
                game_id=game.pk,
                number=r.number,
                seat=p.seat,
                user_id=p.user_id,
                is_bot=bool(p.bot_level),
                player_count=n,
                with_bots=with_bots,
                is_public=is_public,
                counted=True,
                score=r.scores[p.seat],
                raw=r.raw[p.seat],
                ended=r.ender == p.seat,
                doubled=r.ender == p.seat and r.scores[p.seat] != r.raw[p.seat],
                columns_removed=columns.get(r.number, [0] * n)[p.seat],
                scored_at=r.scored_at or finished_at,
            )
            for r in scored
            for p in players
        )
        totals = [p.total for p in players]
        GameResult.objects.bulk_create(
            GameResult(
                game_id=game.pk,
                seat=p.seat,
                user_id=p.user_id,
                is_bot=bool(p.bot_level),
                player_count=n,
                with_bots=with_bots,
                is_public=is_public,
                total=p.total,
                won=p.won,
                place=1 + sum(t < p.total for t in totals),
                rounds=len(scored),
                finished_at=finished_at,
            )
            for p in players
        )
        humans = sorted({p.user_id: p.total for p in players if p.user_id}.items())
        if len(humans) < 2:
            continue
        before = [ratings.get(uid, (START_MU, START_SIGMA)) for uid, _ in humans]
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
        rated = model.rate(teams, ranks=[total for _, total in humans])
        for (uid, _), (mu, sigma), [new] in zip(humans, before, rated, strict=True):
            ratings[uid] = (new.mu, new.sigma)
            RatingChange.objects.create(
                user_id=uid,
                game_id=game.pk,
                mu_before=mu,
                sigma_before=sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                rating_before=shown(mu, sigma),
                rating_after=shown(new.mu, new.sigma),
                rated_at=finished_at,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0001_initial"),
        ("games", "0005_game_voided"),
        ("accounts", "0002_rating"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
