"""The per-game options of rules.md and their defaults."""

from dataclasses import asdict, dataclass, fields

from .errors import RecordError


@dataclass(frozen=True, slots=True)
class Rules:
    end_score: int = 100
    double_on_tie: bool = True
    final_reveal_clears_columns: bool = True

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> "Rules":
        """Read the record's ``rules`` object; missing keys take the defaults."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RecordError("rules must be an object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RecordError(f"unknown rule {unknown[0]!r}")
        end_score = data.get("end_score", 100)
        if type(end_score) is not int or end_score < 1:
            raise RecordError("rules.end_score must be a positive integer")
        for name in ("double_on_tie", "final_reveal_clears_columns"):
            if name in data and type(data[name]) is not bool:
                raise RecordError(f"rules.{name} must be true or false")
        return cls(**data)
