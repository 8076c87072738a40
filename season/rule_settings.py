"""A season's rule settings, stored as data (JSON) and read through one typed object."""

from dataclasses import asdict, dataclass, field, fields
from typing import Any

STAGE_TYPES = ("flat", "hilly", "mountain", "ITT", "TTT")


def _default_speeds() -> dict[str, float]:
    # Winner's average speed by stage type, km/h (rules/moreno.md R-F4).
    return {"flat": 44.0, "hilly": 41.0, "mountain": 37.0, "ITT": 48.0, "TTT": 52.0}


def _default_time_cut() -> dict[str, float]:
    # Allowed gap as a percentage of the winner's time, by stage type (as the Tour's bands).
    return {"flat": 15.0, "hilly": 20.0, "mountain": 30.0, "ITT": 30.0, "TTT": 30.0}


@dataclass(frozen=True)
class RuleSettings:
    same_group_same_time: bool = True
    group_free_cases: int = 2
    finish_bonuses: tuple[int, ...] = (10, 6, 4)
    intermediate_sprint_bonuses: tuple[int, ...] = (3, 2, 1)
    time_cut_enabled: bool = True
    time_cut_pct: dict[str, float] = field(default_factory=_default_time_cut)
    reference_speed_kmh: dict[str, float] = field(default_factory=_default_speeds)
    final_km_neutralisation_cases: int = 6
    tt_multiplier: int = 3
    ttt_counting_rider: int = 4

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> "RuleSettings":
        """Build from stored JSON, keeping defaults for missing keys; ValueError on a bad one."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"Unknown rule setting(s): {', '.join(unknown)}")
        for key in ("finish_bonuses", "intermediate_sprint_bonuses"):
            if key in data:
                data[key] = tuple(int(v) for v in data[key])
        for key in ("time_cut_pct", "reference_speed_kmh"):
            if key in data:
                merged = getattr(cls(), key) | {k: float(v) for k, v in data[key].items()}
                missing = [t for t in STAGE_TYPES if t not in merged]
                if missing or any(v <= 0 for v in merged.values()):
                    raise ValueError(f"{key} needs a positive value for every stage type")
                data[key] = merged
        return cls(**data)

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("finish_bonuses", "intermediate_sprint_bonuses"):
            data[key] = list(data[key])
        return data


def default_rule_settings() -> dict[str, Any]:
    return RuleSettings().to_data()
