"""A season's rule settings, stored as data (JSON) and read through one typed object.

What every game's league decides the same way (bonuses, the time cut, the winner's speed, the
same-time rule), plus ``engine``: the values the organiser gave to the settings of the
season's ruleset, in the shape of that ruleset's settings spec. Nothing here knows a ruleset:
its adapter merges its own defaults and checks the values against its spec (ValueError naming
the field), and gives its own gap scale to :meth:`RuleSettings.timing_rules`.
"""

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from races.timing import (
    DEFAULT_TIME_CUT_MAX_OUT_PCT,
    DEFAULT_TIME_CUT_PCT,
    REFERENCE_SPEED_KMH,
    STAGE_TYPES,
    TimingRules,
)

# The bounds of every number a season's rules may hold: wide enough for any real race, narrow
# enough that a resolution can always compute and store its times. Checked wherever rule
# settings are saved (forms, admin, services: RuleSettings refuses to exist outside them).
BONUSES_MAX = 10
BONUS_SECONDS_MAX = 600
PER_STAGE_TYPE_BOUNDS: dict[str, tuple[float, float]] = {
    "time_cut_pct": (1.0, 100.0),
    "reference_speed_kmh": (10.0, 80.0),
    "gap_scale": (0.1, 10.0),
}
#: The most settings of its ruleset a season may hold (a ruleset's spec has far fewer).
ENGINE_VALUES_MAX = 100
#: The runs of a round's odds (season/services/odds.py): the organiser's choice, within bounds.
ODDS_RUNS_DEFAULT = 1000
ODDS_RUNS_MIN = 10
ODDS_RUNS_MAX = 10_000


def bonuses_error(values: tuple[int, ...]) -> str | None:
    """Why a list of bonus seconds cannot be a season's, or None."""
    if len(values) > BONUSES_MAX:
        return f"at most {BONUSES_MAX} bonuses, got {len(values)}"
    if any(not 0 <= v <= BONUS_SECONDS_MAX for v in values):
        return f"each bonus must be 0 to {BONUS_SECONDS_MAX} seconds"
    return None


def _default_speeds() -> dict[str, float]:
    return dict(REFERENCE_SPEED_KMH)


def _default_time_cut() -> dict[str, float]:
    return dict(DEFAULT_TIME_CUT_PCT)


@dataclass(frozen=True)
class RuleSettings:
    same_group_same_time: bool = True
    finish_bonuses: tuple[int, ...] = (10, 6, 4)
    intermediate_sprint_bonuses: tuple[int, ...] = (3, 2, 1)
    time_cut_enabled: bool = True
    time_cut_pct: dict[str, float] = field(default_factory=_default_time_cut)
    #: The jury's rule: more than this % of a stage's starters outside the time limit, and
    #: none of them is eliminated (races.timing).
    time_cut_max_out_pct: float = DEFAULT_TIME_CUT_MAX_OUT_PCT
    reference_speed_kmh: dict[str, float] = field(default_factory=_default_speeds)
    #: The organiser's gap scale by stage type, over the ruleset's own (empty: the ruleset's).
    gap_scale: dict[str, float] = field(default_factory=dict)
    #: The organiser's values of the ruleset's own settings (its settings spec), by name.
    engine: dict[str, Any] = field(default_factory=dict)
    #: How many runs the odds of a round count (the results do not depend on it).
    odds_runs: int = ODDS_RUNS_DEFAULT

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
        if "time_cut_max_out_pct" in data:
            share = _number("time_cut_max_out_pct", data["time_cut_max_out_pct"])
            if not 0 <= share <= 100:
                raise ValueError("time_cut_max_out_pct must be between 0 and 100")
            data["time_cut_max_out_pct"] = share
        for key in ("same_group_same_time", "time_cut_enabled"):
            if key in data and type(data[key]) is not bool:
                raise ValueError(f"{key} must be true or false")
        if "engine" in data:
            data["engine"] = _engine_values(data["engine"])
        if "odds_runs" in data:
            runs = data["odds_runs"]
            if type(runs) is not int or not ODDS_RUNS_MIN <= runs <= ODDS_RUNS_MAX:
                raise ValueError(
                    f"odds_runs must be a whole number from {ODDS_RUNS_MIN} to {ODDS_RUNS_MAX}"
                )
        return cls(**data)

    def timing_rules(
        self, *, gap_scale: Mapping[str, float], gap_scale_after_s: int = 0
    ) -> TimingRules:
        """Turns the engine's gaps into times. ``gap_scale`` and ``gap_scale_after_s`` are the
        ruleset's own (its adapter gives them); the season's ``gap_scale`` overrides them per
        stage type."""
        return TimingRules(
            reference_speed_kmh=self.reference_speed_kmh,
            same_group_same_time=self.same_group_same_time,
            finish_bonuses=self.finish_bonuses,
            intermediate_sprint_bonuses=self.intermediate_sprint_bonuses,
            time_cut_enabled=self.time_cut_enabled,
            time_cut_pct=self.time_cut_pct,
            time_cut_max_out_pct=self.time_cut_max_out_pct,
            gap_scale={**gap_scale, **self.gap_scale},
            gap_scale_after_s=gap_scale_after_s,
        )

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("finish_bonuses", "intermediate_sprint_bonuses"):
            data[key] = list(data[key])
        return data


def _engine_values(given: Any) -> dict[str, Any]:
    """The stored values of the ruleset's settings: a mapping of names to JSON scalars (their
    kinds and bounds are the ruleset's spec's to check, through its adapter)."""
    if not isinstance(given, Mapping):
        raise ValueError("engine must map each setting of the ruleset to its value")
    if len(given) > ENGINE_VALUES_MAX:
        raise ValueError(f"engine: at most {ENGINE_VALUES_MAX} settings")
    for name, value in given.items():
        if not isinstance(name, str) or not name.isidentifier() or len(name) > 60:
            raise ValueError(f"engine: {name!r} is not a setting name")
        if isinstance(value, list):
            if len(value) > ENGINE_VALUES_MAX or not all(_int_row(row) for row in value):
                raise ValueError(f"engine: {name} must be a list of pairs of whole numbers")
        elif value is not None and not isinstance(value, bool | int | float | str):
            raise ValueError(f"engine: {name} must be a number, a word or true/false")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"engine: {name}: {value!r} is not a finite number")
        if isinstance(value, str) and len(value) > 200:
            raise ValueError(f"engine: {name}: at most 200 characters")
    return dict(given)


def _int_row(row: Any) -> bool:
    return isinstance(row, list) and len(row) <= 10 and all(type(v) is int for v in row)


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
