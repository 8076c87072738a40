"""Set up a small Cyclo Sim road by hand: riders on given cells and PE, scripted dice."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cycling.course import Board, board_from_cases
from engine.cycling.inputs import Entrant
from engine.cycling.profile import Profile
from engine.dice import Face, ScriptedDice
from engine.rulesets.cyclosim.race import Cell, Race
from engine.rulesets.cyclosim.settings import CyclosimSettings

#: The spec's test vectors (§7): profiles off, W = 3.
BASE = CyclosimSettings(lanes=3, profiles=False, overnight_recovery=0)
FLAT_300 = board_from_cases([("plain", 300)])


class Kit:
    """A race on ``board``; riders given as ``(name, row, lane, pe)`` (team 1 unless 5th)."""

    def __init__(
        self,
        riders: Sequence[tuple[str, int, int, int] | tuple[str, int, int, int, int]],
        faces: Sequence[Face] = (),
        *,
        board: Board = FLAT_300,
        distance_km: float = 150.0,
    ) -> None:
        self.index = {r[0]: i for i, r in enumerate(riders)}
        entrants = [
            Entrant(
                rider_id=i + 1,
                team_id=r[4] if len(r) > 4 else 1,  # type: ignore[misc]
                bib=i + 1,
                profile=Profile(),
            )
            for i, r in enumerate(riders)
        ]
        self.dice = ScriptedDice(faces)
        self.race = Race(board, entrants, settings=BASE, dice=self.dice, distance_km=distance_km)
        self.race.turn = 1
        for i, r in enumerate(riders):
            self.race.place(i, r[1] + self.race.off, r[2])
            self.race.consumed[i] = self.race.pe_max[i] - r[3]

    def __getitem__(self, name: str) -> int:
        return self.index[name]

    def cell(self, name: str) -> tuple[int, int]:
        i = self.index[name]
        return (self.race.pos[i] - self.race.off, self.race.lane[i])

    def pe(self, name: str) -> int:
        return self.race.pe(self.index[name])

    def path(self, name: str, rows: int, lane: int = -1) -> list[Cell]:
        """The R-M4 path of ``name`` to ``rows`` rows ahead (no cap)."""
        i = self.index[name]
        ri = self.race.pos[i]
        _, masks, lat = self.race.reach(ri, self.race.lane[i], 10**6)
        return self.race.build_path(ri, self.race.lane[i], ri + rows, lane, masks, lat)
