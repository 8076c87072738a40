"""The default roles (``auto``: a team whose player gives no orders) against a handful of fixed
orders, in the cycling games (issue 32): whole Tours, pure engine, no database.

    .venv/bin/python bench/cycling_auto_vs_best.py --game moreno [--tours 40] [--seed S]
    .venv/bin/python bench/cycling_auto_vs_best.py --game cyclosim [--tours 20] [--seed S]

The field is bench/realism.py's 4-player league (8 riders each drafted from the demo start
list, the other 144 riders in computer teams, every team on the default roles of
``season.orders.default_roles``; Cyclo Sim's riders on the default AI of their role, §4.6).
Each candidate orders are given to Player 1's team only; every candidate rides the same Tours
(Tour t's stage n has seed S + 1000 t + n, as realism.py: common random numbers, so the gaps
are paired). The team is scored as the league's default players' ranking scores it: its
fantasy points (races/league/fantasy.py ``stage_points``: stage places, daily GC, jerseys,
intermediate sprints, summits and the final classifications), read from the harness's own
stage results and classifications; beside them, its best rider's final GC place, its stage
wins and its days in a jersey. Figures are means per Tour, with a 95 % interval (normal, over
Tours); then ``auto``'s gap in points to the best fixed orders, paired per Tour. The best is
picked on the same Tours, so its mean is a little flattering (the winner's curse): a gap
inside the interval is no gap.

Fresh seeds unless ``--seed``; the seed is printed.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.auto_vs_best import interval  # noqa: E402
from bench.realism import default_roles, league_riders, load_demo, simulate_tour  # noqa: E402
from races.league.fantasy import JERSEY_POINTS, StageFacts, stage_points  # noqa: E402

PLAYER = "Player 1"
Row = dict[str, Any]
#: A candidate: its label, and from the team's rows its roles and its riders' orders.
Plan = Callable[[list[Row]], tuple[dict[int, str], dict[int, dict[str, Any]]]]


@dataclass
class Tally:
    """Per Tour, the team's fantasy points, best final GC place, stage wins, jersey days."""

    label: str
    points: list[float] = field(default_factory=list)
    best_gc: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    jerseys: list[float] = field(default_factory=list)


# -- the candidates ------------------------------------------------------------------------


def _rating(row: Row, axis: str) -> int:
    return int(getattr(row["profile"], axis))


def _best(rows: Sequence[Row], *axes: str, but: Sequence[int] = ()) -> Row | None:
    """The rider best rated on ``axes`` in turn (``"all"``: the sum of his ratings), the
    lowest id on a tie."""
    left = [r for r in rows if r["id"] not in but]
    if not left:
        return None

    def rated(r: Row, axis: str) -> int:
        if axis == "all":
            return sum(getattr(r["profile"], a) for a in r["profile"].__dataclass_fields__)
        return _rating(r, axis)

    return max(left, key=lambda r: (*(rated(r, a) for a in axes), -r["id"]))


def plan(
    *,
    leader: tuple[str, ...] = ("climber", "time_trialist"),
    sprinter: bool = True,
    breakaways: int = 2,
    no_breakaway: bool = False,
    leader_orders: dict[str, Any] | None = None,
) -> Plan:
    """Roles built as default_roles builds them, with one thing changed: the leader picked on
    ``leader``'s ratings (see _best), a sprinter or none, ``breakaways`` baroudeurs (rated 1+) in
    breakaways; ``no_breakaway`` on the domestiques (Moréno R-P20); the leader's orders
    (Cyclo Sim: his paces and the energy he keeps, instead of the default AI)."""

    def build(rows: list[Row]) -> tuple[dict[int, str], dict[int, dict[str, Any]]]:
        roles = {r["id"]: "domestique" for r in rows}
        chief = _best(rows, *leader)
        assert chief is not None
        roles[chief["id"]] = "gc_leader"
        if sprinter:
            fast = _best(rows, "sprinter", but=[chief["id"]])
            if fast is not None and _rating(fast, "sprinter") >= 2:
                roles[fast["id"]] = "sprinter"
        free = [r for r in rows if roles[r["id"]] == "domestique" and _rating(r, "baroudeur") >= 1]
        for r in sorted(free, key=lambda r: (-_rating(r, "baroudeur"), r["id"]))[:breakaways]:
            roles[r["id"]] = "breakaway"
        orders: dict[int, dict[str, Any]] = {}
        if no_breakaway:
            for rid, role in roles.items():
                if role == "domestique":
                    orders[rid] = {"role": role, "no_breakaway": True}
        if leader_orders is not None:
            orders[chief["id"]] = {"role": "gc_leader", **leader_orders}
        return roles, orders

    return build


def candidates(game: str) -> list[tuple[str, Plan]]:
    """At most 8 fixed orders of Player 1's team, each one change from the default roles."""
    out: list[tuple[str, Plan]] = [
        ("leader: the all-rounder (best sum of ratings)", plan(leader=("all", "climber"))),
        ("no sprinter", plan(sprinter=False)),
        ("0 breakaway riders", plan(breakaways=0)),
        ("1 breakaway rider", plan(breakaways=1)),
        ("3 breakaway riders", plan(breakaways=3)),
    ]
    if game == "moreno":
        out += [
            ("domestiques: no breakaway (R-P20)", plan(no_breakaway=True)),
            (
                "all for the leader (no sprinter, 0 breakaway, no breakaway)",
                plan(sprinter=False, breakaways=0, no_breakaway=True),
            ),
            ("stage hunting (no sprinter, 3 breakaway riders)", plan(sprinter=False, breakaways=3)),
        ]
    else:
        out += [
            (
                "leader: climb 'expected', keeps 20 %",
                plan(leader_orders={"pace_climb": "expected", "floor_pct": 20}),
            ),
            (
                "leader: climb all out, keeps 0 %",
                plan(leader_orders={"pace_climb": "max", "pace_flat": "tempo", "floor_pct": 0}),
            ),
            ("all for the leader (no sprinter, 0 breakaway)", plan(sprinter=False, breakaways=0)),
        ]
    return out


def auto(rows: list[Row]) -> tuple[dict[int, str], dict[int, dict[str, Any]]]:
    """The default roles, no orders (the league's own rows)."""
    return default_roles(rows), {}


# -- one Tour ------------------------------------------------------------------------------


def with_roles(league: list[Row], roles: dict[int, str]) -> list[Row]:
    """The league's rows with Player 1's roles replaced, his bibs laid again from his block's
    first (the leader first, as season.computer_teams lays them)."""
    team = sorted(
        (r for r in league if r["team"] == PLAYER),
        key=lambda r: (roles[r["id"]] != "gc_leader", r["id"]),
    )
    first = min(r["bib"] for r in team)
    mine = {r["id"]: r | {"role": roles[r["id"]], "bib": first + i} for i, r in enumerate(team)}
    return [mine.get(r["id"], r) for r in league]


def score_tour(
    league: list[Row], courses: list[Any], build: Plan, *, game: str, tour: int, base: int
) -> tuple[int, int | None, int, int]:
    """Player 1's fantasy points, best final GC place, stage wins and jersey days in a Tour."""
    rows = [r for r in league if r["team"] == PLAYER]
    roles, orders = build(rows)
    riders = with_roles(league, roles)
    mine = {r["id"] for r in rows}
    got = {"points": 0, "wins": 0, "jerseys": 0}
    best_gc: list[int] = []

    def on_stage(
        number: int, timed: Sequence[Any], tables: dict[str, Any], record: Any, last: bool
    ) -> None:
        standings = {
            kind: [line.rider_id for line in tables[kind]]
            for kind in JERSEY_POINTS
            if kind in tables
        }
        facts = StageFacts(
            number=number,
            finish={t.rider_id: t.rank for t in timed if t.status == "finished"},
            standings=standings,
            sprints=record.intermediate_sprints,
            climbs=record.climbs,
            last=last,
        )
        for rider, kinds in stage_points(facts).items():
            if rider in mine:
                got["points"] += sum(kinds.values())
        got["wins"] += sum(1 for t in timed if t.rank == 1 and t.rider_id in mine)
        got["jerseys"] += sum(1 for ids in standings.values() if ids and ids[0] in mine)
        if last:
            best_gc.extend(line.rank for line in tables["general"] if line.rider_id in mine)

    simulate_tour(
        riders, courses, ruleset=game, tour=tour, base=base, orders=orders, on_stage=on_stage
    )
    return got["points"], min(best_gc, default=None), got["wins"], got["jerseys"]


# -- the table -----------------------------------------------------------------------------


def line(t: Tally) -> str:
    p, pw = interval(t.points)
    g, gw = interval(t.best_gc)
    wins, jerseys = statistics.fmean(t.wins), statistics.fmean(t.jerseys)
    return (
        f"{t.label:<60} points {p:6.1f} ±{pw:5.1f}  best GC {g:5.1f} ±{gw:4.1f}"
        f"  stage wins {wins:4.2f}  jersey days {jerseys:5.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("moreno", "cyclosim"), required=True)
    parser.add_argument("--tours", type=int, help="Tours per candidate (moreno 40; cyclosim 20)")
    parser.add_argument("--seed", type=int, help="the seeds' base (default: fresh)")
    args = parser.parse_args(argv)
    tours = args.tours or (40 if args.game == "moreno" else 20)
    base = args.seed if args.seed is not None else secrets.randbelow(2**31) * 1_000_000
    riders, courses = load_demo()
    league = league_riders(riders)
    plans = candidates(args.game)
    print(
        f"{args.game}: {len(plans)} fixed orders and auto, each on {PLAYER}'s team (8 riders) "
        f"of a 4-player league (176 riders), {tours} Tours of {len(courses)} stages, "
        f"seeds {base} + 1000 t + n (--seed {base} reproduces)"
    )
    tallies: list[Tally] = []
    for label, build in [*plans, ("auto (the default roles)", auto)]:
        tally = Tally(label)
        for tour in range(1, tours + 1):
            points, best_gc, wins, jerseys = score_tour(
                league, courses, build, game=args.game, tour=tour, base=base
            )
            tally.points.append(points)
            # A team with no rider left on the GC: last place and one more.
            tally.best_gc.append(best_gc if best_gc is not None else len(riders) + 1)
            tally.wins.append(wins)
            tally.jerseys.append(jerseys)
        tallies.append(tally)
    auto_tally = tallies[-1]
    fixed = sorted(tallies[:-1], key=lambda t: -statistics.fmean(t.points))
    for tally in [*fixed, auto_tally]:
        print(line(tally))
    best = fixed[0]
    gap, width = interval([a - b for a, b in zip(auto_tally.points, best.points, strict=True)])
    print(f"best fixed orders: {best.label}")
    print(
        f"auto's gap to the best fixed orders: {gap:+.1f} ±{width:.1f} fantasy points a Tour "
        f"(paired over the same {tours} Tours)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
