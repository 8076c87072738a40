"""Set up a small Moréno board by hand: riders on given cases, scripted dice, one unit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cycling.course import Board, board_from_cases
from engine.cycling.inputs import Entrant
from engine.cycling.profile import Profile
from engine.dice import Face, ScriptedDice
from engine.rulesets.moreno.settings import MorenoRider, MorenoSettings
from engine.rulesets.moreno.stage import build_units
from engine.rulesets.moreno.state import Group, Race

#: The spec's reading of the crash chain (R-X2: the faller's case and the case behind it), for
#: the spec's test vectors; the default stops at the faller's case (docs/rules-choices.md).
SPEC_CHAIN = MorenoSettings(crash_chain_cases=2, crash_confirm_faces=6)
#: A hand-made board's default: the league's settings but for the crash, confirmed by one die
#: as the rules say (R-X1; the second confirm die of version 5, R-X1.2, has tests of its own).
KIT_SETTINGS = MorenoSettings(crash_confirm_faces=6)

#: The spec's test board (§7): N = 300, sprint zone 288..299, phase split 200.
FLAT_300 = board_from_cases([("plain", 300)])


@dataclass
class R:
    """A rider for a hand-made board: name, case, and what differs from the defaults."""

    name: str
    pos: int
    team: int = 1
    role: str = "domestique"
    ratings: dict[str, int] = field(default_factory=dict)
    no_breakaway: bool = False
    tour_crash_count: int = 0
    gc_time_before: int = 0
    gc_rank_before: int | None = None


def rider(name: str, pos: int, team: int = 1, role: str = "domestique", **ratings: int) -> R:
    return R(name, pos, team, role, dict(ratings))


class Kit:
    """A race on ``board`` with ``riders`` placed in the given order (same case: list order)."""

    def __init__(
        self,
        riders: Sequence[R],
        faces: Sequence[Face] = (),
        *,
        board: Board = FLAT_300,
        settings: MorenoSettings | None = None,
        yellow: str | None = None,
        green: str | None = None,
    ) -> None:
        self.names = [r.name for r in riders]
        self.index = {r.name: i for i, r in enumerate(riders)}
        entrants = [
            Entrant(
                rider_id=i + 1,
                team_id=r.team,
                bib=i + 1,
                profile=Profile(**r.ratings),
                role=r.role,
                tour_crash_count=r.tour_crash_count,
                gc_time_before=r.gc_time_before,
                gc_rank_before=r.gc_rank_before,
            )
            for i, r in enumerate(riders)
        ]
        self.dice = ScriptedDice(faces)
        self.race = Race(
            board,
            entrants,
            dice=self.dice,
            settings=KIT_SETTINGS if settings is None else settings,
            extras=[MorenoRider(no_breakaway=r.no_breakaway) for r in riders],
            yellow_jersey=None if yellow is None else self.index[yellow] + 1,
            green_jersey=None if green is None else self.index[green] + 1,
        )
        for i, r in enumerate(riders):
            self.race.put(i, r.pos)

    def __getitem__(self, name: str) -> int:
        return self.index[name]

    def start_turn(self) -> list[Group]:
        """Begin a turn: turn counter, turn-start positions, units (R-T2 .. R-T4); returns
        the plain groups."""
        self.race.turn += 1
        self.race.units = build_units(self.race, self.race.race_order())
        return [u for u in self.race.units if isinstance(u, Group)]

    def pos(self, name: str) -> int:
        return self.race.pos[self.index[name]]

    def positions(self) -> dict[str, int]:
        return {n: self.race.pos[i] for n, i in self.index.items()}

    def case(self, c: int) -> list[str]:
        """Names on case ``c``, first = ahead."""
        return [self.names[i] for i in self.race.cases[c + self.race.off]]

    def order(self) -> list[str]:
        return [self.names[i] for i in self.race.race_order()]

    def fallen(self, name: str) -> bool:
        return self.race.status[self.index[name]] == 1

    def done(self) -> bool:
        """All scripted dice used."""
        return self.dice.remaining == 0
