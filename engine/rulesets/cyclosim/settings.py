"""Cyclo Sim's settings and its per-rider part of a stage's inputs (cyclosim.md §2, §3.11,
§3.12, §4).

:class:`CyclosimSettings` holds every default once; :data:`SETTINGS_SPEC` adds each field's
bounds and help text (an organiser may set any of them within its bounds).
:class:`CyclosimRider` is what Cyclo Sim alone reads of a rider: his §4.1 orders (None: the
default AI of his role, §4.6) and the energy he consumed up to the previous finish (§2.3).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.cyclosim.orders import RiderOrders
from engine.spec import About, Spec, dataclass_codec, dataclass_spec


@dataclass(frozen=True, slots=True)
class CyclosimSettings:
    """League settings and [D] numbers of the Cyclo Sim ruleset (cyclosim.md §2, §3.11, §3.12).

    ``lanes`` is W (§2.1); ``profiles`` the advanced game (§2.3); ``rows_per_turn`` and
    ``turn_kmh`` give ``turn_s`` (R-FT1); ``overnight_recovery`` the points recovered between
    two stages; ``group_chain_rows`` chains finishers into one ``final_group`` when each crossed
    at most that many rows' time after the one ahead (§5 ``gap_chain_rows``), and
    ``group_chain_rows_climb`` on a finish up a climb; ``bunch_gaps``
    measures a mass-start group's gap as the group ahead's plus the hole between them, so the
    length of a bunch on the board (one rider per cell) costs no time (docs/rules-choices.md,
    "Cyclo Sim engine"). ``road_groups``: on a flat finish, riders chained on the road (each
    at most ``group_chain_rows`` rows behind the one ahead) when the first rider starts his
    finishing turn finish in one group, however the final spread them (issue 16).
    ``lanes = 0`` (W by the field: :func:`lanes_for`) and ``group_chain_rows = 6`` are tuned
    with bench/realism.py.
    """

    lanes: int = 0
    profiles: bool = True
    pe_base: int = 60
    pe_per_rouleur: int = 5
    rows_per_turn: int = 10
    turn_kmh: float = 40.0
    same_unit_time: bool = True
    overnight_recovery: int = 40
    group_chain_rows: int = 6
    group_chain_rows_climb: int = 1
    relay_pe_margin: int = 8
    ttt_counting_rider: int = 3
    max_turns: int = 1000
    bunch_gaps: bool = True
    road_groups: bool = True

    def __post_init__(self) -> None:
        if self.lanes < 0 or self.rows_per_turn < 1 or self.max_turns < 1:
            raise ValueError("lanes must be >= 0, rows_per_turn and max_turns >= 1")
        if self.pe_base < 10 or not self.turn_kmh > 0:
            raise ValueError("pe_base must be >= 10 and turn_kmh > 0")
        if (
            self.overnight_recovery < 0
            or min(self.group_chain_rows, self.group_chain_rows_climb) < 0
            or self.ttt_counting_rider < 1
        ):
            raise ValueError(
                "overnight_recovery and group_chain_rows must be >= 0, ttt_counting_rider >= 1"
            )


#: W by the field [D]: a lane for every 8 riders, between the board game's 3 lanes and 16, so
#: the bunch and the start grid (R-T3) of a Grand Tour field are 11 rows deep (5 km), not 22
#: (docs/rules-choices.md, "Cyclo Sim version 5").
RIDERS_PER_LANE = 8
MIN_LANES = 3
MAX_LANES = 16


def lanes_for(settings: CyclosimSettings, n_riders: int) -> int:
    """W for a field of ``n_riders``: the setting, or by the field when it is 0."""
    if settings.lanes:
        return settings.lanes
    return max(MIN_LANES, min(MAX_LANES, -(-n_riders // RIDERS_PER_LANE)))


SETTINGS_SPEC: Spec = dataclass_spec(
    CyclosimSettings,
    {
        "lanes": About(
            "Lanes (W)",
            "§2.1: riders side by side on a row; 0: one lane for every 8 riders, 3 to 16.",
            0,
            16,
        ),
        "profiles": About(
            "Advanced game (profiles)",
            "§2.3: the riders' ratings change their energy and their moves; off, every rider "
            "is the same.",
        ),
        "pe_base": About(
            "Energy base", "§2.3: a rider's energy points before his ratings.", 10, 200
        ),
        "pe_per_rouleur": About(
            "Energy per rouleur point", "§2.3: energy points added per rouleur rating.", 0, 20
        ),
        "rows_per_turn": About(
            "Rows per turn", "R-FT1: a turn is the time of this many rows at the turn speed.", 1, 30
        ),
        "turn_kmh": About(
            "Turn speed (km/h)", "R-FT1: the speed that turns rows into seconds.", 10.0, 80.0
        ),
        "same_unit_time": About(
            "Same time in one file",
            "R-FT2: riders who cross the line in one file get the time of its first.",
        ),
        "overnight_recovery": About(
            "Overnight recovery",
            "§2.3: energy points a rider recovers between two stages.",
            0,
            200,
        ),
        "group_chain_rows": About(
            "Rows inside a group",
            "§5: finishers at most this many rows' time apart finish in one group.",
            0,
            30,
        ),
        "group_chain_rows_climb": About(
            "Rows inside a group (climb finish)",
            "§5 [D]: on a finish up a climb, finishers at most this many rows' time apart "
            "finish in one group (climbers ride alone there).",
            0,
            30,
        ),
        "relay_pe_margin": About(
            "Relay energy margin",
            "R-RL: a follower relays his leader when he has this many more energy points.",
            0,
            60,
        ),
        "ttt_counting_rider": About(
            "Team time-trial counting rider",
            "§3.12: the team's time is the time of its rider finishing in this place.",
            1,
            9,
        ),
        "max_turns": About(
            "Turn cap", "A stage stops after this many turns (a safety net).", 1, 5000
        ),
        "bunch_gaps": About(
            "Bunch gaps",
            "§5 [D]: a group's gap is the gap ahead plus the hole between them, so the length "
            "of a bunch on the board costs no time.",
        ),
        "road_groups": About(
            "Groups from the road (flat finish)",
            "§5 [D]: on a flat finish, riders together on the road when the first rider "
            "starts his finishing turn finish in one group, as a bunch sprint does.",
        ),
    },
)
SETTINGS_CODEC = dataclass_codec(CyclosimSettings, SETTINGS_SPEC)


@dataclass(frozen=True, slots=True)
class CyclosimRider:
    """What Cyclo Sim alone reads of a rider: his orders (None: the default AI of his role,
    §4.6) and ``pe_consumed``, the energy points consumed at the previous finish (0 on stage
    1; the engine applies the overnight recovery of :class:`CyclosimSettings`)."""

    orders: RiderOrders | None = None
    pe_consumed: int = 0

    def __post_init__(self) -> None:
        if self.pe_consumed < 0:
            raise ValueError(f"pe_consumed must be >= 0, got {self.pe_consumed!r}")


DEFAULT_RIDER = CyclosimRider()
