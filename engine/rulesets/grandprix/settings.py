"""Every [CFG] of grandprix.md, and the engine's [D] numbers, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass

SPEED_CARD_MODES = ("range", "printed")
TRACK_EXIT_MODES = ("rejoin", "retire")


@dataclass(frozen=True, slots=True)
class GrandPrixSettings:
    """Season/track settings of the Grand Prix ruleset.

    [CFG] ``laps`` (GP-1.1; None = the track's), ``speed_card_mode`` (§2, A2),
    ``max_lane_changes`` (GP-6.2b, A10), ``track_exit_mode`` (GP-7.5), ``reshuffle`` (GP-9.2),
    ``max_rounds`` (GP-12.2), ``points_table`` and ``pole_points`` (S-3; scored by the league).
    [D] ``max_qualifying_turns``: a qualifying run still going after that many turns has no time.
    """

    laps: int | None = None
    speed_card_mode: str = "range"
    max_lane_changes: int = 2
    track_exit_mode: str = "rejoin"
    reshuffle: bool = True
    max_rounds: int = 300
    points_table: tuple[int, ...] = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
    pole_points: int = 0
    max_qualifying_turns: int = 60

    def __post_init__(self) -> None:
        if self.laps is not None and not 1 <= self.laps <= 20:
            raise ValueError(f"laps must be 1..20, got {self.laps!r}")
        if self.speed_card_mode not in SPEED_CARD_MODES:
            raise ValueError(f"speed_card_mode must be one of {', '.join(SPEED_CARD_MODES)}")
        if self.track_exit_mode not in TRACK_EXIT_MODES:
            raise ValueError(f"track_exit_mode must be one of {', '.join(TRACK_EXIT_MODES)}")
        if not 0 <= self.max_lane_changes <= 4:
            raise ValueError(f"max_lane_changes must be 0..4, got {self.max_lane_changes!r}")
        if self.max_rounds < 1:
            raise ValueError(f"max_rounds must be >= 1, got {self.max_rounds!r}")
