"""The lean path (``simulate(..., lean=True)``, the odds' runs) gives the full path's results.

Same seed, same draws: the results, turns and rider-moves are the full path's, the dice log
is empty and, of the events, only the summit and intermediate sprint lines are kept (the
timing reads the sprints' crossing order for its bonuses).
"""

from __future__ import annotations

import pytest

from engine import simulate
from engine.cycling.events import LINE_EVENTS
from engine.cycling.inputs import StageInputs
from engine.dice import RandomDice
from tests.engine.factory import (
    flat_course,
    itt_course,
    mountain_course,
    peloton,
    ttt_course,
)

COURSES = {
    "flat": flat_course,
    "mountain": mountain_course,
    "itt": itt_course,
    "ttt": ttt_course,
}


@pytest.mark.parametrize("ruleset", ["moreno", "cyclosim"])
@pytest.mark.parametrize("course", sorted(COURSES))
def test_lean_path_gives_the_full_paths_results(ruleset: str, course: str) -> None:
    inputs = StageInputs(COURSES[course](), peloton())
    for seed in (1, 2, 3):
        full = simulate(ruleset, inputs, seed)
        lean = simulate(ruleset, inputs, seed, lean=True)
        assert lean.results == full.results, (ruleset, course, seed)
        assert (lean.turns, lean.n_cases, lean.rider_moves, lean.seed) == (
            full.turns,
            full.n_cases,
            full.rider_moves,
            full.seed,
        )
        assert len(lean.dice) == 0 < len(full.dice)
        assert lean.events == tuple(e for e in full.events if e.kind in LINE_EVENTS)


@pytest.mark.parametrize("ruleset", ["moreno", "cyclosim"])
def test_lean_path_keeps_the_sprint_lines(ruleset: str) -> None:
    """The flat course's intermediate sprint is crossed: its event is kept, riders and all."""
    lean = simulate(ruleset, StageInputs(flat_course(), peloton()), 4, lean=True)
    sprints = [e for e in lean.events if e.kind == "intermediate_sprint"]
    assert len(sprints) == 1
    assert len(sprints[0].rider_ids) == len(peloton())


@pytest.mark.parametrize("ruleset", ["moreno", "cyclosim"])
def test_lean_path_with_another_dice_source(ruleset: str) -> None:
    """A dice source other than plain RandomDice (the engines' slow path) draws the same."""

    class Dice(RandomDice):
        pass

    inputs = StageInputs(flat_course(), peloton())
    full = simulate(ruleset, inputs, 5, dice=Dice(5))
    lean = simulate(ruleset, inputs, 5, dice=Dice(5), lean=True)
    assert lean.results == full.results
    assert len(lean.dice) == 0
