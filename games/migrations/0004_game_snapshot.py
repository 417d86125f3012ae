"""The game row keeps the engine snapshot instead of the whole record; a reshuffle's order
moves to the Move row of the step that caused it. Existing games are converted exactly: the
snapshot from replaying their record, each reshuffle onto its step by replaying their Move rows
with the record's reshuffles."""

from django.db import migrations, models

from games import engine


def record_to_rows(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game in Game.objects.all().iterator():
        record = game.record
        game.snapshot = engine.to_snapshot(engine.from_record(record))
        game.save(update_fields=["snapshot"])
        moves = list(Move.objects.filter(game=game).order_by("version"))
        state = None
        for number, rnd in enumerate(record["rounds"], start=1):
            if state is None:
                rules = engine.Rules.from_json(record.get("rules", {}))
                state = engine.Game(record["players"], rules, deck=rnd["deck"])
            else:
                state.next_round(rnd["deck"])
            state.forced_reshuffles = [list(r) for r in rnd.get("reshuffles", [])]
            for move in (m for m in moves if m.round == number):
                state.apply(move.seat, engine.Action.from_json(move.action))
                if state.last_reshuffle is not None:
                    move.reshuffle = state.last_reshuffle
                    move.save(update_fields=["reshuffle"])
        if state is None or engine.to_record(state) != record:
            raise RuntimeError(f"game {game.pk}: its Move rows do not replay its record")


def rows_to_record(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    Round = apps.get_model("games", "Round")
    for game in Game.objects.all().iterator():
        rounds = list(Round.objects.filter(game=game).order_by("number"))
        players, rules = game.snapshot["players"], game.snapshot["rules"]
        state = engine.Game(players, engine.Rules(**rules), deck=rounds[0].deck)
        moves = list(Move.objects.filter(game=game).order_by("version"))
        for row in rounds:
            if row.number > 1:
                state.next_round(row.deck)
            state.forced_reshuffles = [
                m.reshuffle for m in moves if m.round == row.number and m.reshuffle is not None
            ]
            for move in (m for m in moves if m.round == row.number):
                state.apply(move.seat, engine.Action.from_json(move.action))
        game.record = engine.to_record(state)
        game.save(update_fields=["record"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_turn_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="snapshot",
            field=models.JSONField(null=True),
        ),
        migrations.AddField(
            model_name="move",
            name="reshuffle",
            field=models.JSONField(
                blank=True,
                null=True,
                help_text="The new draw pile (record order) when this step emptied it; else empty.",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="record",
            field=models.JSONField(null=True),
        ),
        migrations.RunPython(record_to_rows, rows_to_record),
        migrations.RemoveField(model_name="game", name="record"),
        migrations.AlterField(
            model_name="game",
            name="snapshot",
            field=models.JSONField(
                help_text="The engine's state now (games.engine.snapshot), saved with every version."
            ),
        ),
    ]
