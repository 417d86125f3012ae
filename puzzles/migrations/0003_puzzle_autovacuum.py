"""Vacuum the puzzles after about 2 % of them changed (PostgreSQL's default: 20 %).

Every answer rewrites its puzzle's row, which clears its page's all-visible bit; the next
puzzle's walks of the (rating, id) index are index-only only over all-visible pages."""

from django.db import migrations

SETTING = "ALTER TABLE puzzles_puzzle {} (autovacuum_vacuum_scale_factor{})"


def _alter(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0002_pick_indexes")]

    operations = [
        migrations.RunPython(
            _alter(SETTING.format("SET", " = 0.02")), _alter(SETTING.format("RESET", ""))
        ),
    ]
