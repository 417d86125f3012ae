"""Each round row keeps the cards its player still had face down when the round ended
(turned up by the scoring, games.engine.Game.turned_at_end); the rows written before are
filled by replaying their game's record (as 0002 found the columns removed)."""

from importlib import import_module

from django.db import migrations, models


def _turned(state):
    return list(state.turned_at_end) if state.turned_at_end is not None else None


def backfill(apps, schema_editor):
    earlier = import_module("stats.migrations.0002_backfill")
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
        record = earlier.record_of(game, Round, Move)
        turned = earlier.by_round(record, max(r.number for r in rows), _turned)
        for row in rows:
            if turned.get(row.number) is not None:
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
