"""Stage orders of a Cyclo Sim team, their validation and the default AI (cyclosim.md §4).

Players are not at the table: every decision the board game asks of them is read from these
orders (§4.1) or, when a rider has none, from the default AI of his role (§4.6). The defaults
of an order are those of :class:`RiderOrders`, read from it wherever one is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cycling.profile import Profile

PACES: tuple[str, ...] = ("free", "tempo", "safe", "expected", "max")
MODES: tuple[str, ...] = ("follower", "leader", "any")
GRANTS: tuple[str, ...] = ("all", "team", "none")
CONSENTS: tuple[str, ...] = ("all", "team", "none")
WHEEL_CLASSES: tuple[str, ...] = ("team", "any")
#: Order roles (§1) and the engine's roles they stand for.
ORDER_ROLES: Mapping[str, str] = {
    "gc_leader": "gc_leader",
    "sprinter_role": "sprinter",
    "sprinter": "sprinter",
    "breakaway_role": "breakaway",
    "breakaway": "breakaway",
    "domestique": "domestique",
}
TERRAIN_KEYS: tuple[str, ...] = ("flat", "climb", "descent")

#: §4.6 default AI [D], tuned with bench/realism.py (docs/rules-choices.md, "Cyclo Sim engine").
#: A sprinter rides ``tempo`` on the flat (a ``free`` leader drags his whole file at 6 rows a
#: turn) and starts his ``max`` final this many rows (3 km) out: a longer final at ``max``
#: let the first sprinters ride away from the bunch by minutes on 8 lanes (20 rows: a median
#: of 3 riders on the winner's time on flat stages, issue 16; 6 rows: 70).
SPRINTER_PACE_FLAT = "tempo"
SPRINT_FINAL_ROWS = 6
#: A breakaway rider rides ``tempo`` on the flat after his attack, so the bunch can catch him.
BREAKAWAY_PACE_FLAT = "tempo"
#: "Break of the day" [D]: a breakaway rider attacks (``expected``, as leader or follower) as
#: often as ``BREAK_ATTACKS`` times between 5 % and 66 % of the course while he keeps
#: ``BREAK_MIN_PE`` % of his PE, and only from the front of his group (at most
#: ``BREAK_NEAR_FRONT`` rows behind its first rider): an attack from inside the bunch was
#: spent against the riders ahead of him. On a mountain stage only a climber rated
#: ``BREAK_MIN_CLIMBER`` or more goes.
BREAK_ATTACKS = 2
BREAK_MIN_PE = 70
BREAK_NEAR_FRONT = 4
BREAK_MIN_CLIMBER = 3
#: A GC leader climbs at ``tempo`` in the wheels (leading at ``safe`` on every col spent a
#: third of his PE before the last one) and attacks on the last climb as leader or follower,
#: then rides ``tempo`` to its summit with the rivals who held his wheel.
GC_PACE_CLIMB = "tempo"
#: A GC leader keeps only 10 % of his PE in reserve (40 % left him too weak to attack).
GC_FLOOR_PCT = 10
GC_ATTACK_MODE = "any"
GC_ATTACK_PACE = "expected"
GC_ATTACK_THEN = "tempo"
GC_ATTACKS = 1
#: The climbs a GC leader attacks on (the last of them on the stage).
GC_CLIMBS: frozenset[str] = frozenset({"col2", "col1", "colhc"})
#: "Free role" [D]: on a mountain stage a default-AI domestique rated this much as a climber
#: rides the GC leader's plan (a team's second leader), whatever his role.
FREE_CLIMBER = 3
#: "Move up" [D]: before the decisive part (a sprinter's final, a GC leader's last climb) a
#: protected rider leaves the wheels and rides up the bunch: an attack window of this many
#: rows, at this pace, as often as once a turn, while he keeps this much PE.
MOVE_UP_ROWS = 60
MOVE_UP_PACE = "safe"
MOVE_UP_MAX = 99
MOVE_UP_MIN_PE = 50
#: "Chase" and "easy" [D]: a breakaway is up the road when the head of the race is more than
#: ``BREAK_GAP`` rows ahead of the front of a rider's group (rows chain while each holds a
#: rider). A team whose protected rider (the sprinter on a flat stage, else the GC leader) is
#: behind a breakaway chases once its lead is more than the team allows with the rows left
#: (``CHASE_RATIO`` % of them by stage type, at least ``CHASE_GAP`` rows, at most
#: ``CHASE_MAX_GAP``): the default-AI domestiques of that rider's group lead at
#: ``CHASE_PACE`` on the flat and on climbs while they keep ``CHASE_MIN_PE`` % of their PE.
#: Every other default-AI rider of a group behind the breakaway that nobody chases in rides
#: ``EASY_PACE`` on the flat and ``EASY_PACE_CLIMB`` on climbs: the bunch lets the break go,
#: and the sprinters' teams bring it back on a flat stage. A mountain stage has no easy
#: bunch: the GC teams ride their pace.
CHASE_PACE = "expected"
CHASE_GAP = 3
CHASE_RATIO: Mapping[str, int] = {"flat": 5, "hilly": 100, "mountain": 30}
CHASE_MAX_GAP: Mapping[str, int] = {"flat": 16, "hilly": 24, "mountain": 16}
CHASE_MIN_PE = 50
BREAK_GAP = 1
EASY_PACE = "rows:7"
EASY_PACE_CLIMB = "tempo"
EASY_STAGES: frozenset[str] = frozenset({"flat", "hilly"})
#: A chasing domestique in a wheel leaves it (a follower attack, R-AT) to lead the chase. Off:
#: the many extra leaders cost a quarter of the engine's speed (below 20 stages/s) for no
#: clear gain in bench/realism.py.
CHASE_ATTACK = False
#: "Gruppetto" [D]: on a stage with a climb of ``GC_CLIMBS``, a default-AI rider of these
#: roles whose climber rating is at most ``GRUPPETTO_MAX_CLIMBER`` sits up on the climbs of
#: ``GRUPPETTO_CLIMBS`` once every GC leader is ahead of him: he rides ``GRUPPETTO_PACE``,
#: takes no wheel, and leaves the wheel he is in (a follower attack, R-AT, with no event).
#: Without it a weak climber rode in the files at the pace of the strongest and the field
#: crossed the cols as one stream, so mountain stages opened no gaps behind the GC riders
#: (docs/rules-choices.md).
GRUPPETTO_ROLES: frozenset[str] = frozenset({"sprinter", "domestique"})
GRUPPETTO_MAX_CLIMBER = 1
GRUPPETTO_PACE = "rows:3"
GRUPPETTO_CLIMBS: frozenset[str] = frozenset({"col3", "col2", "col1", "colhc"})


def pace_ok(pace: str) -> bool:
    """``free | tempo | safe | expected | max | rows:N`` (N >= 0)."""
    if pace in PACES:
        return True
    if pace.startswith("rows:"):
        n = pace[5:]
        return n.isdigit()
    return False


@dataclass(frozen=True, slots=True)
class AttackWindow:
    """§4.1 ``attacks[]``: attack between rows ``from_row`` (incl.) and ``to_row`` (excl.) at
    ``pace`` while ``pe >= min_pe_pct`` % of ``pe_max``, at most ``max`` times. ``then`` is the
    pace kept in the window once the attacks are spent (the default AI's "then safe to its
    summit", §4.6); ``None`` falls back to the terrain pace."""

    from_row: int
    to_row: int
    pace: str = "expected"
    min_pe_pct: int = 0
    mode: str = "follower"
    max: int = 1
    then: str | None = None
    #: Open only while the rider is at most this many rows behind the front of his group on
    #: the road (the default AI's break of the day goes from the front [D]); ``None``: anywhere.
    near_front: int | None = None


@dataclass(frozen=True, slots=True)
class FinalOrders:
    """§4.1 ``final``: the last ``rows`` rows before the line: floor 0, this pace, and a follower
    attacks (§4.4)."""

    rows: int = 0
    pace: str = "max"


@dataclass(frozen=True, slots=True)
class RiderOrders:
    """One rider's orders for one stage (§4.1); ``grant_wheel`` is his team's (R-RB1)."""

    role: str = "domestique"
    pace_flat: str = "tempo"
    pace_climb: str = "tempo"
    pace_descent: str = "safe"
    floor_pct: int = 0
    wheel: tuple[str, ...] = ("any",)
    relay: str = "team"
    attacks: tuple[AttackWindow, ...] = ()
    final: FinalOrders = field(default_factory=FinalOrders)
    lateral_drop: bool = False
    grant_wheel: str = "all"


_DEFAULT = RiderOrders()
_WINDOW = AttackWindow(0, 1)


@dataclass(frozen=True, slots=True)
class TeamOrders:
    """A team's stage orders (§4.1): ``grant_wheel`` and the orders of its riders by id."""

    grant_wheel: str = "all"
    riders: Mapping[int, RiderOrders] = field(default_factory=dict)


def validate_orders(
    data: Any, *, rider_ids: frozenset[int] | set[int], n_rows: int | None = None
) -> dict[str, dict[str, str]]:
    """§4.1 validation of a team's orders given as JSON data.

    Returns the errors by rider (``"31"``, or ``"team"`` for team-wide fields) and field
    (``"pace.flat"``, ``"attacks[0].to_row"``...); an empty dict means the orders are valid.
    """
    errors: dict[str, dict[str, str]] = {}

    def err(who: str, where: str, message: str) -> None:
        errors.setdefault(who, {})[where] = message

    if not isinstance(data, dict):
        err("team", "orders", "expected an object with grant_wheel and riders")
        return errors
    grant = data.get("grant_wheel", "all")
    if grant not in GRANTS:
        err("team", "grant_wheel", f"{grant!r} is not one of {', '.join(GRANTS)}")
    riders = data.get("riders", {})
    if not isinstance(riders, dict):
        err("team", "riders", "expected an object keyed by rider id")
        return errors
    for key, r in riders.items():
        who = str(key)
        try:
            rid = int(key)
        except (TypeError, ValueError):
            err(who, "id", f"{key!r} is not a rider id")
            continue
        if rid not in rider_ids:
            err(who, "id", f"rider {rid} is not in this team's stage line-up")
            continue
        if not isinstance(r, dict):
            err(who, "orders", "expected an object")
            continue
        role = r.get("role", "domestique")
        if role not in ORDER_ROLES:
            err(who, "role", f"{role!r} is not one of {', '.join(sorted(ORDER_ROLES))}")
        pace = r.get("pace", {})
        if not isinstance(pace, dict):
            err(who, "pace", "expected an object with flat, climb, descent")
        else:
            for terrain, value in pace.items():
                if terrain not in TERRAIN_KEYS:
                    err(
                        who,
                        f"pace.{terrain}",
                        f"unknown terrain (known: {', '.join(TERRAIN_KEYS)})",
                    )
                elif not isinstance(value, str) or not pace_ok(value):
                    err(
                        who,
                        f"pace.{terrain}",
                        f"{value!r} is not a pace (free, tempo, safe, expected, max, rows:N)",
                    )
        floor = r.get("floor_pct", 0)
        if isinstance(floor, bool) or not isinstance(floor, int) or not 0 <= floor <= 100:
            err(who, "floor_pct", f"{floor!r} is not a percentage 0-100")
        wheel = r.get("wheel", ["any"])
        if not isinstance(wheel, list) or any(w not in WHEEL_CLASSES for w in wheel):
            err(who, "wheel", f"{wheel!r} is not a list of {', '.join(WHEEL_CLASSES)}")
        relay = r.get("relay", "team")
        if relay not in CONSENTS:
            err(who, "relay", f"{relay!r} is not one of {', '.join(CONSENTS)}")
        attacks = r.get("attacks", [])
        if not isinstance(attacks, list):
            err(who, "attacks", "expected a list")
            attacks = []
        for i, a in enumerate(attacks):
            where = f"attacks[{i}]"
            if not isinstance(a, dict):
                err(who, where, "expected an object")
                continue
            lo, hi = a.get("from_row"), a.get("to_row")
            if not isinstance(lo, int) or isinstance(lo, bool) or lo < 0:
                err(who, f"{where}.from_row", f"{lo!r} is not a row >= 0")
            elif not isinstance(hi, int) or isinstance(hi, bool) or hi <= lo:
                err(who, f"{where}.to_row", f"{hi!r} must be a row after from_row ({lo})")
            elif n_rows is not None and lo >= n_rows:
                err(who, f"{where}.from_row", f"row {lo} is past the line (row {n_rows})")
            p = a.get("pace", "expected")
            if not isinstance(p, str) or not pace_ok(p):
                err(who, f"{where}.pace", f"{p!r} is not a pace")
            if a.get("mode", "follower") not in MODES:
                err(who, f"{where}.mode", f"{a.get('mode')!r} is not one of {', '.join(MODES)}")
            mp = a.get("min_pe_pct", 0)
            if not isinstance(mp, int) or isinstance(mp, bool) or not 0 <= mp <= 100:
                err(who, f"{where}.min_pe_pct", f"{mp!r} is not a percentage 0-100")
            mx = a.get("max", 1)
            if not isinstance(mx, int) or isinstance(mx, bool) or mx < 1:
                err(who, f"{where}.max", f"{mx!r} is not a count >= 1")
        final = r.get("final", {"rows": 0, "pace": "max"})
        if not isinstance(final, dict):
            err(who, "final", "expected an object with rows and pace")
        else:
            rows = final.get("rows", 0)
            if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
                err(who, "final.rows", f"{rows!r} is not a number of rows >= 0")
            fp = final.get("pace", "max")
            if not isinstance(fp, str) or not pace_ok(fp):
                err(who, "final.pace", f"{fp!r} is not a pace")
        if not isinstance(r.get("lateral_drop", False), bool):
            err(who, "lateral_drop", "expected true or false")
    return errors


def orders_from_data(data: Mapping[str, Any]) -> TeamOrders:
    """Build :class:`TeamOrders` from JSON data that :func:`validate_orders` accepted."""
    grant = str(data.get("grant_wheel", _DEFAULT.grant_wheel))
    riders: dict[int, RiderOrders] = {}
    for key, r in dict(data.get("riders", {})).items():
        pace = dict(r.get("pace", {}))
        final = dict(r.get("final", {}))
        riders[int(key)] = RiderOrders(
            role=ORDER_ROLES[r.get("role", _DEFAULT.role)],
            pace_flat=pace.get("flat", _DEFAULT.pace_flat),
            pace_climb=pace.get("climb", _DEFAULT.pace_climb),
            pace_descent=pace.get("descent", _DEFAULT.pace_descent),
            floor_pct=int(r.get("floor_pct", _DEFAULT.floor_pct)),
            wheel=tuple(r.get("wheel", _DEFAULT.wheel)),
            relay=r.get("relay", _DEFAULT.relay),
            attacks=tuple(
                AttackWindow(
                    from_row=int(a["from_row"]),
                    to_row=int(a["to_row"]),
                    pace=a.get("pace", _WINDOW.pace),
                    min_pe_pct=int(a.get("min_pe_pct", _WINDOW.min_pe_pct)),
                    mode=a.get("mode", _WINDOW.mode),
                    max=int(a.get("max", _WINDOW.max)),
                )
                for a in r.get("attacks", [])
            ),
            final=FinalOrders(
                int(final.get("rows", _DEFAULT.final.rows)),
                final.get("pace", _DEFAULT.final.pace),
            ),
            lateral_drop=bool(r.get("lateral_drop", _DEFAULT.lateral_drop)),
            grant_wheel=grant,
        )
    return TeamOrders(grant, riders)


def default_orders(
    role: str,
    *,
    n_rows: int,
    last_climb: tuple[int, int] | None,
    flat_finish: bool,
    time_trial: bool = False,
    stage_type: str = "",
    profile: Profile | None = None,
) -> RiderOrders:
    """§4.6: the default AI of a role on a board of ``n_rows`` rows.

    ``last_climb`` is (first row, summit line) of the last climb segment, ``flat_finish`` says
    whether the last rows are flat, ``stage_type`` is the course's (``""``: unknown) and
    ``profile`` the rider's ratings (the break of the day on a mountain stage, the free role).
    Time trials (§3.12) ride ``expected`` on flat and climb and ``safe`` downhill with no
    floor [D].
    """
    if time_trial:
        return RiderOrders(role=role, pace_flat="expected", pace_climb="expected", wheel=())
    if (
        role == "domestique"
        and stage_type == "mountain"
        and profile is not None
        and profile.climber >= FREE_CLIMBER
    ):
        role = "gc_leader"
    if role == "gc_leader":
        attacks: tuple[AttackWindow, ...] = ()
        if last_climb is not None:
            lo, hi = last_climb
            attacks = (
                *_move_up(lo),
                AttackWindow(
                    lo, hi, GC_ATTACK_PACE, 30, GC_ATTACK_MODE, GC_ATTACKS, then=GC_ATTACK_THEN
                ),
            )
        return RiderOrders(
            role=role,
            pace_climb=GC_PACE_CLIMB,
            floor_pct=GC_FLOOR_PCT,
            wheel=("team", "any"),
            attacks=attacks,
        )
    if role == "sprinter":
        flat_finish = flat_finish and stage_type != "mountain"
        final = FinalOrders(SPRINT_FINAL_ROWS, "max") if flat_finish else FinalOrders()
        return RiderOrders(
            role=role,
            pace_flat=SPRINTER_PACE_FLAT,
            pace_climb="free",
            floor_pct=40,
            wheel=("team", "any"),
            attacks=_move_up(n_rows - SPRINT_FINAL_ROWS) if flat_finish else (),
            final=final,
        )
    if role == "breakaway":
        if stage_type == "mountain" and profile is not None and profile.climber < BREAK_MIN_CLIMBER:
            return RiderOrders(role=role, pace_flat=BREAKAWAY_PACE_FLAT, floor_pct=20, relay="all")
        lo = (5 * n_rows + 99) // 100
        hi = (66 * n_rows + 99) // 100
        return RiderOrders(
            role=role,
            pace_flat=BREAKAWAY_PACE_FLAT,
            floor_pct=20,
            relay="all",
            attacks=(
                AttackWindow(
                    lo,
                    max(hi, lo + 1),
                    "expected",
                    BREAK_MIN_PE,
                    "any",
                    BREAK_ATTACKS,
                    near_front=BREAK_NEAR_FRONT,
                ),
            ),
        )
    return RiderOrders(role=role)


def sits_up_on_climbs(role: str, climber: int) -> bool:
    """Whether a default-AI rider of ``role`` rated ``climber`` rides in the gruppetto."""
    return role in GRUPPETTO_ROLES and climber <= GRUPPETTO_MAX_CLIMBER


def _move_up(until: int) -> tuple[AttackWindow, ...]:
    """The "move up" window [D] ending at row ``until`` (none when it would start before 0)."""
    lo = until - MOVE_UP_ROWS
    if MOVE_UP_ROWS <= 0 or lo < 0:
        return ()
    return (AttackWindow(lo, until, MOVE_UP_PACE, MOVE_UP_MIN_PE, "any", MOVE_UP_MAX),)
