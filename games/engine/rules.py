"""The per-game options of rules.md and their defaults."""

from dataclasses import asdict, dataclass, fields

from .errors import RecordError


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of rules.md; values a game record could not hold raise ValueError."""

    end_score: int = 100
    double_on_tie: bool = True
    final_reveal_clears_columns: bool = True

    def __post_init__(self) -> None:
        if type(self.end_score) is not int or self.end_score < 1:
            raise ValueError("rules.end_score must be a positive integer")
        for name in ("double_on_tie", "final_reveal_clears_columns"):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"rules.{name} must be true or false")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> "Rules":
        """Read the record's ``rules`` object (not ``null``); missing keys take the defaults."""
        if not isinstance(data, dict):
            raise RecordError("rules must be an object")
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise RecordError(f"unknown rule {unknown[0]!r}")
        try:
            return cls(**data)
        except ValueError as exc:
            raise RecordError(str(exc)) from None
