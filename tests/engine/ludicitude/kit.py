"""Shared pieces of the Ludicitude tests: the example ring of §3.2, one turn with scripted
dice through the race's own path (dice -> :class:`Steps`), and cars."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.dice import Die, Face, ScriptedDice
from engine.rulesets.ludicitude.dice import SourceSpeedDice
from engine.rulesets.ludicitude.orders import CarOrders
from engine.rulesets.ludicitude.outcome import CarEntry
from engine.rulesets.ludicitude.policy import decision_table
from engine.rulesets.ludicitude.race import GOES_ON, Template, state_key, steps_of
from engine.rulesets.ludicitude.rules import Move, resolve_move
from engine.rulesets.ludicitude.track import Track, load_track

ROOT = Path(__file__).resolve().parents[3]
TRACKS = ROOT / "motor" / "tracks" / "ludicitude"
RING_FILE = TRACKS / "anneau-exemple.yaml"
#: §8: the vectors' finish (closed ring, L = 2).
F = 48


def ring() -> Track:
    return load_track(RING_FILE).track


@dataclass(frozen=True)
class Turn:
    """A turn played: ``m``, the move (LU-4 .. LU-8) and the race's step (with LU-9)."""

    moved: int
    move: Move
    position: int
    brake: int
    next_speed: int
    code: int
    events: tuple[Template, ...]


def turn(
    position: int, brake: int, speed: int, faces: Iterable[Face], *, risk: str = "normal"
) -> Turn:
    """One turn of a car in state ``(p, b, v)`` with scripted faces, as the race plays it: the
    speed dice (LU-3), then the step (LU-4 .. LU-9); fails if a face is left over."""
    script = ScriptedDice(faces)
    _, moved = SourceSpeedDice(script).throw(speed, round_no=1, unit=0)
    assert script.remaining == 0, f"{script.remaining} scripted faces not used"
    track = ring()
    move = resolve_move(track, position=position, brake=brake, moved=moved, finish=F)
    steps = steps_of(decision_table(track, F, False, risk, 6))
    key, p, b, code, events = steps.step(position, brake, speed, moved)
    v = (key >> 3) & 7 if code == GOES_ON else speed
    if code == GOES_ON:
        assert key == state_key(p, b, v) * 8
    return Turn(moved, move, p, b, v, code, events)


def cars(*risks: str) -> tuple[CarEntry, ...]:
    return tuple(CarEntry(f"lud-{i + 1}", CarOrders(risk=r)) for i, r in enumerate(risks))


class SameFaces:
    """A dice source that shows one face on every d6 (and the lowest face on any other die):
    every car then moves its speed each turn, and a test can follow a whole race."""

    def __init__(self, face: int) -> None:
        self.face = face
        self.rolls = 0

    def roll(self, die: Die, *, turn: int, unit: int, rider_id: int | None, rule_id: str) -> Face:
        self.rolls += 1
        return self.face if die.name == "d6" else die.faces[0]
