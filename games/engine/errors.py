"""Named errors: one class for every way an action or a record can be wrong. An illegal
action raises before the game changes, so a caller may show the message and carry on."""


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""

    code = "engine_error"


class MalformedAction(EngineError):
    """The action is not one of the action shapes of the game record."""

    code = "malformed_action"


class IllegalAction(EngineError):
    """A well-formed action that the rules forbid in this state."""

    code = "illegal_action"


class NotAPlayer(IllegalAction):
    code = "not_a_player"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class WrongPhase(IllegalAction):
    code = "wrong_phase"


class GameIsOver(WrongPhase):
    code = "game_over"


class BadPosition(IllegalAction):
    code = "bad_position"


class PositionRemoved(BadPosition):
    code = "position_removed"


class CardAlreadyFaceUp(IllegalAction):
    code = "card_face_up"


class RevealsDone(IllegalAction):
    code = "reveals_done"


class DrawnCardPending(IllegalAction):
    code = "drawn_card_pending"


class NothingDrawn(IllegalAction):
    code = "nothing_drawn"


class DiscardMustBeSwapped(IllegalAction):
    code = "discard_must_be_swapped"


class NoFaceDownCard(IllegalAction):
    code = "no_face_down_card"


class RecordError(EngineError):
    """A game record that cannot be read or replayed; the message names where."""

    code = "bad_record"
