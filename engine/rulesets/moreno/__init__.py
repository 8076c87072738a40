"""The Moréno ruleset (``shared/rules/moreno.md``): one stage from inputs, dice and seed.

Package layout: ``tables`` (§2.4-2.5 values), ``state`` (the board and the riders on it,
place/pack/file, crashes and chains), ``rules`` (climbs, descents, restarts, solo, pair,
sprint, close-up), ``bunch`` (the d20 table), ``stage`` (turns), ``finish`` (ranking, gaps,
abandons), ``timetrial`` (ITT, TTT).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cycling.codec import OUTCOME_CODEC, RiderCodec, inputs_codec
from engine.cycling.course import Board, Course, build_board
from engine.cycling.hooks import CyclingHooks
from engine.cycling.inputs import StageInputs
from engine.cycling.outcome import Outcome
from engine.dice import DiceSource
from engine.outcome import JsonValue
from engine.ruleset import CYCLING, Ruleset
from engine.rulesets.moreno.finish import (
    abandons,
    finish_groups,
    neutralise,
    outcome,
    stage_gaps,
)
from engine.rulesets.moreno.settings import (
    DEFAULT_RIDER,
    ORDERS_SPEC,
    SETTINGS_CODEC,
    SETTINGS_SPEC,
    MorenoRider,
    MorenoSettings,
)
from engine.rulesets.moreno.stage import run, start_grid
from engine.rulesets.moreno.state import Race
from engine.rulesets.moreno.timetrial import run_itt, run_ttt

NAME = "moreno"
#: Bumped whenever the same inputs and seed give another outcome (rules, [D] values).
#: 2: groups at the line (sprint, climbs), no-breakaway riders never trigger (issue 16).
#: 3: a crash chain stays on the faller's case (R-X2 `crash_chain_cases` = 1, issue 16).
#: 4: the abandon table scaled to a field smaller than 176 riders (R-A2 `abandon_field`).
#: 5: riders who both sprinted cross the line in one group up to 6 free cases apart, and a
#:    crash needs a second confirm d6 of 1-2
#:    (`sprint_free_cases`, `crash_confirm_faces`, issue 32).
VERSION = 5
DESCRIPTION = "Moréno: 8-axis profiles, climbs, descents, the d20 bunch table, crashes, sprint"

MorenoInputs = StageInputs[MorenoSettings, MorenoRider]


#: The last course's board, kept for the next race on it (the odds' runs of a round, or a
#: replay): keyed by identity, the key kept alive with it; a board is immutable.
_last_board: tuple[Course, Board] | None = None


def board_of(course: Course) -> Board:
    """The board of ``course`` (§2.6), built once for consecutive races on the same course."""
    global _last_board
    kept = _last_board
    if kept is not None and kept[0] is course:
        return kept[1]
    board = build_board(course)
    _last_board = (course, board)
    return board


def new_race(inputs: MorenoInputs, dice: DiceSource, *, keep: bool = True) -> Race:
    """The stage's state before the start (riders not on the board yet); ``keep=False``: no
    dice log, no events but the lines' (the lean path)."""
    return Race(
        board_of(inputs.course),
        inputs.entrants,
        dice=dice,
        settings=inputs.settings,
        extras=inputs.extras_in_order(DEFAULT_RIDER),
        yellow_jersey=inputs.yellow_jersey,
        green_jersey=inputs.green_jersey,
        keep=keep,
    )


def simulate(inputs: MorenoInputs, dice: DiceSource, seed: int) -> Outcome:
    """Resolve one stage (moreno.md §3): mass start (R-T1 .. R-A5) or time trial (R-TT)."""
    return _simulate(inputs, dice, seed, keep=True)


def simulate_lean(inputs: MorenoInputs, dice: DiceSource, seed: int) -> Outcome:
    """:func:`simulate` keeping no dice log and no events but the summit and intermediate
    sprint lines (the odds' runs): the same results, turns and rider-moves."""
    return _simulate(inputs, dice, seed, keep=False)


def _simulate(inputs: MorenoInputs, dice: DiceSource, seed: int, *, keep: bool) -> Outcome:
    race = new_race(inputs, dice, keep=keep)
    stage_type = inputs.course.stage_type
    if stage_type in ("ITT", "TTT"):
        race.time_trial = True
        tt = run_itt(race) if stage_type == "ITT" else run_ttt(race)
        return outcome(
            race,
            ruleset=NAME,
            seed=seed,
            order=tt.order,
            gaps=tt.gaps,
            groups=tt.groups,
            final_case=tt.final_case,
            quits=(),
            turns=tt.turns,
        )
    start_grid(race)
    order, _ = run(race)
    return finish_mass_start(race, order, seed)


def finish_mass_start(race: Race, order: list[int], seed: int) -> Outcome:
    """R-F1 .. R-F3, §4 neutralisation and groups, R-A abandons."""
    gaps = stage_gaps(race, order)
    neutralise(race, gaps)
    pos = race.pos
    groups = finish_groups(race, order)
    quits = abandons(race, order, gaps)
    return outcome(
        race,
        ruleset=NAME,
        seed=seed,
        order=order,
        gaps=gaps,
        groups=groups,
        final_case=list(pos),
        quits=quits,
        turns=race.turn,
    )


def _rider_to_data(rider: MorenoRider) -> dict[str, JsonValue]:
    return {"no_breakaway": rider.no_breakaway}


def _rider_from_data(data: Mapping[str, Any]) -> MorenoRider:
    value = data.get("no_breakaway", DEFAULT_RIDER.no_breakaway)
    if type(value) is not bool:
        raise ValueError(f"no_breakaway must be true or false, got {value!r}")
    return MorenoRider(no_breakaway=value)


def _rider_of(orders: Mapping[str, Any], carried: Mapping[str, Any], course: Course) -> MorenoRider:
    """A rider's part from his orders (R-P20 no-breakaway); Moréno carries no state."""
    return MorenoRider(no_breakaway=bool(orders.get("no_breakaway", DEFAULT_RIDER.no_breakaway)))


RIDER_CODEC = RiderCodec(("no_breakaway",), DEFAULT_RIDER, _rider_to_data, _rider_from_data)

RULESET: Ruleset[MorenoInputs, Outcome, MorenoSettings] = Ruleset(
    name=NAME,
    description=DESCRIPTION,
    version=VERSION,
    discipline=CYCLING,
    simulate=simulate,
    simulate_lean=simulate_lean,
    settings_type=MorenoSettings,
    settings_spec=SETTINGS_SPEC,
    settings=SETTINGS_CODEC,
    orders_spec=ORDERS_SPEC,
    inputs=inputs_codec(
        SETTINGS_CODEC,
        RIDER_CODEC,
        default_settings=MorenoSettings(),
        legacy_settings_key="settings",
    ),
    outcome=OUTCOME_CODEC,
    cycling=CyclingHooks(RIDER_CODEC, _rider_of),
)
