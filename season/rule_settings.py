"""A season's rule settings, stored as data (JSON) and read through one typed object."""

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from races.engine_settings import engine_settings
from races.timing import MORENO_GAP_SCALE_AFTER_S, UNSCALED_GAPS, TimingRules

STAGE_TYPES = ("flat", "hilly", "mountain", "ITT", "TTT")

# The bounds of every number a season's rules may hold: wide enough for any real race, narrow
# enough that a resolution can always compute and store its times. Checked wherever rule
# settings are saved (forms, admin, services: RuleSettings refuses to exist outside them).
BONUSES_MAX = 10
BONUS_SECONDS_MAX = 600
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "group_free_cases": (0, 10),
    "final_km_neutralisation_cases": (0, 30),
    "tt_multiplier": (1, 10),
    "ttt_counting_rider": (1, 9),
}
PER_STAGE_TYPE_BOUNDS: dict[str, tuple[float, float]] = {
    "time_cut_pct": (1.0, 100.0),
    "reference_speed_kmh": (10.0, 80.0),
    "gap_scale": (0.1, 10.0),
    "cyclosim_gap_scale": (0.1, 10.0),
}


def bonuses_error(values: tuple[int, ...]) -> str | None:
    """Why a list of bonus seconds cannot be a season's, or None."""
    if len(values) > BONUSES_MAX:
        return f"at most {BONUSES_MAX} bonuses, got {len(values)}"
    if any(not 0 <= v <= BONUS_SECONDS_MAX for v in values):
        return f"each bonus must be 0 to {BONUS_SECONDS_MAX} seconds"
    return None


def _default_speeds() -> dict[str, float]:
    # Winner's average speed by stage type, km/h (rules/moreno.md R-F4).
    return {"flat": 44.0, "hilly": 41.0, "mountain": 37.0, "ITT": 48.0, "TTT": 52.0}


def _default_gap_scale() -> dict[str, float]:
    # The rules' seconds per case (R-F3) keep the back of the field 4-5 times closer than in
    # real Tours; scaling the gaps of hilly and mountain stages brings the GC back in the real
    # bands (docs/rules-choices.md, bench/realism.py).
    return {"flat": 1.0, "hilly": 1.5, "mountain": 3.0, "ITT": 1.0, "TTT": 1.0}


def _default_cyclosim_gap_scale() -> dict[str, float]:
    # Cyclo Sim's time trials spread the field about 1.35 times wider than real ones (speed goes
    # with 7 + PI, and PI spans 3..8): scaled, the ITT gaps match real ones and riders stop
    # missing the time cut there (docs/rules-choices.md, bench/realism.py --ruleset cyclosim).
    return {"flat": 1.0, "hilly": 1.0, "mountain": 1.0, "ITT": 0.75, "TTT": 1.0}


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
    gap_scale: dict[str, float] = field(default_factory=_default_gap_scale)
    cyclosim_gap_scale: dict[str, float] = field(default_factory=_default_cyclosim_gap_scale)
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
                data[key] = _whole_numbers(key, data[key])
        for key, (low, high) in PER_STAGE_TYPE_BOUNDS.items():
            if key in data:
                given = data[key]
                if not isinstance(given, Mapping):
                    raise ValueError(f"{key} must map each stage type to a number")
                unknown_types = sorted(set(given) - set(STAGE_TYPES))
                if unknown_types:
                    raise ValueError(f"{key}: unknown stage type(s) {', '.join(unknown_types)}")
                merged = getattr(cls(), key) | {k: _number(key, v) for k, v in given.items()}
                if any(not low <= v <= high for v in merged.values()):
                    raise ValueError(f"{key}: each value must be between {low:g} and {high:g}")
                data[key] = merged
        for key, (low, high) in INT_BOUNDS.items():
            if key in data:
                value = data[key]
                if type(value) is not int or not low <= value <= high:
                    raise ValueError(f"{key} must be a whole number from {low} to {high}")
        for key in ("same_group_same_time", "time_cut_enabled"):
            if key in data and type(data[key]) is not bool:
                raise ValueError(f"{key} must be true or false")
        return cls(**data)

    def timing_rules(self, ruleset: str = "moreno") -> TimingRules:
        """Turns the engine's gaps into times, with the gap scale of the ruleset: Moréno's
        stretches its seconds per case (R-F3); Cyclo Sim's gaps are already seconds (turn_s per
        turn, R-FT1) and only its time trials are narrowed."""
        return TimingRules(
            reference_speed_kmh=self.reference_speed_kmh,
            same_group_same_time=self.same_group_same_time,
            finish_bonuses=self.finish_bonuses,
            intermediate_sprint_bonuses=self.intermediate_sprint_bonuses,
            time_cut_enabled=self.time_cut_enabled,
            time_cut_pct=self.time_cut_pct,
            gap_scale=self.gap_scale_of(ruleset),
            gap_scale_after_s=MORENO_GAP_SCALE_AFTER_S if ruleset == "moreno" else 0,
        )

    def gap_scale_of(self, ruleset: str) -> Mapping[str, float]:
        if ruleset == "moreno":
            return self.gap_scale
        if ruleset == "cyclosim":
            return self.cyclosim_gap_scale
        return UNSCALED_GAPS

    def engine_values(self, ruleset: str) -> dict[str, Any]:
        """The settings of the ruleset's own settings type this season sets (the others keep
        the engine's defaults): Moréno's four; none of Cyclo Sim's yet."""
        if ruleset == "moreno":
            return {
                "tt_multiplier": self.tt_multiplier,
                "ttt_counting_rider": self.ttt_counting_rider,
                "group_free_cases": self.group_free_cases,
                "final_km_neutralisation_cases": self.final_km_neutralisation_cases,
            }
        return {}

    def stage_settings(self, ruleset: str) -> dict[str, Any]:
        """The engine settings of a stage, as keyword arguments of `stage_inputs_build`:
        the ruleset's name and its own settings object."""
        return {
            "ruleset": ruleset,
            "settings": engine_settings(ruleset, self.engine_values(ruleset)),
        }

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("finish_bonuses", "intermediate_sprint_bonuses"):
            data[key] = list(data[key])
        return data


def _whole_numbers(key: str, given: Any) -> tuple[int, ...]:
    if not isinstance(given, list | tuple) or any(type(v) is not int for v in given):
        raise ValueError(f"{key} must be a list of whole numbers of seconds")
    values = tuple(given)
    error = bonuses_error(values)
    if error:
        raise ValueError(f"{key}: {error}")
    return values


def _number(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key}: {value!r} is not a number")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{key}: {value!r} is not a finite number")
    return number


def default_rule_settings() -> dict[str, Any]:
    return RuleSettings().to_data()
