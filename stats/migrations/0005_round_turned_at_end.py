"""Each round row keeps the cards its player still had face down when the round ended
(turned up by the scoring, games.engine.Game.turned_at_end); the rows written before are
filled by replaying their game's record (as 0002 found the columns removed)."""

from importlib import import_module

from django.db import migrations, models


def turned_by_round(record, rounds):
    """{round number: [cards face down at its end per seat]}; empty when it does not replay."""
    from games.engine import EngineError, from_record

    found = {}
    for number in range(1, rounds + 1):
        try:
            state = from_record({**record, "rounds": record["rounds"][:number]})
        except (EngineError, ValueError, KeyError, IndexError, TypeError):
            return {}
        if state.turned_at_end is None:
            return {}
        found[number] = list(state.turned_at_end)
    return found


def backfill(apps, schema_editor):
    record_of = import_module("stats.migrations.0002_backfill").record_of
    Game = apps.get_model("games", "Game")
    Round = apps.get_model("games", "Round")
    Move = apps.get_model("games", "Move")
    RoundResult = apps.get_model("stats", "RoundResult")
    game_ids = (
        RoundResult.objects.filter(turned_at_end__isnull=True)
        .order_by("game_id")
        .values_list("game_id", flat=True)
        .distinct()
    )
    for game in Game.objects.filter(pk__in=list(game_ids)).iterator():
        rows = list(RoundResult.objects.filter(game=game))
        turned = turned_by_round(record_of(game, Round, Move), max(r.number for r in rows))
        for row in rows:
            if row.number in turned:
                row.turned_at_end = turned[row.number][row.seat]
        RoundResult.objects.bulk_update(rows, ["turned_at_end"])


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0004_profile_version"),
        ("games", "0006_game_recent"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundresult",
            name="turned_at_end",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Cards still face down when the round ended, turned up by its scoring "
                "(empty for rounds scored before this was kept).",
                null=True,
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
