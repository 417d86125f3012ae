"""What games tells the apps that keep rows of their own (stats, notifications), inside the
transaction that saves it. Sender: games.models.Game."""

from django.dispatch import Signal

round_scored = Signal()  # game, state (engine game, the round just scored), players (totals set)
game_finished = Signal()  # game, players (GamePlayer rows, total and won set), rounds
game_resigned = Signal()  # game, players (won set), seat: its only human ended it, counted
# Correspondence games only (docs/correspondence.md):
turn_waits = Signal()  # game, deadlines ({user id: deadline}): the humans it now begins to wait for
turn_reminder = Signal()  # game, deadlines ({user id: deadline}): a quarter of their time left
