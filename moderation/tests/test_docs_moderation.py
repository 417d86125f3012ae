"""docs/moderation.md's table of the Moderators group's permissions is the group's own."""

import re
from pathlib import Path

from core.access import PERMISSIONS

MODERATION = Path(__file__).resolve().parents[2] / "docs" / "moderation.md"


def test_the_permission_table_lists_exactly_the_groups_permissions():
    table = MODERATION.read_text().split("| permission | lets a moderator |", 1)[1]
    rows = [line for line in table.split("\n\n", 1)[0].splitlines() if line.startswith("| `")]
    documented = {re.match(r"\| `([a-z_]+)\.([a-z_]+)`", row).groups() for row in rows}
    assert documented == set(PERMISSIONS)
