"""One Ludicitude race (ludicitude.md §4): setup, rounds, turns, end and classification.

The turn's rules are those of ``rules.py`` and the driver's of ``policy.py``; the race reads
them from :class:`Steps`, which keeps every turn once met (by state and roll), so that a turn
costs a few look-ups (bench/engine.py --ruleset ludicitude).
"""

from __future__ import annotations

from functools import lru_cache

from engine.rulesets.ludicitude.dice import POWERS, SeededSpeedDice, SpeedDice
from engine.rulesets.ludicitude.outcome import (
    BRAKE_LOST,
    ELIMINATED,
    ELIMINATION,
    FINISH,
    FINISHED,
    NOT_CLASSIFIED,
    OUT_OF_TIME,
    RECOVERY,
    SPEED_COST,
    CarResult,
    DiceRow,
    EventLog,
    EventRow,
    PositionTrace,
    RaceInputs,
    RaceOutcome,
    RawTraceRow,
)
from engine.rulesets.ludicitude.policy import DecisionTable, decision_table
from engine.rulesets.ludicitude.rules import resolve_move
from engine.rulesets.ludicitude.track import BRAKE_MAX, N_CARDS, Track

#: LU-1: every car starts on card 0 at speed 1 with brake 9.
START_SPEED = 1
START_BRAKE = BRAKE_MAX

#: A step's outcome code.
GOES_ON = 0
FINISHES = 1
OUT = 2

#: An event of a step without its round and car: ``(kind, position, card, amount, brake)``.
Template = tuple[str, int, int, int, int]
#: A turn's result: ``(next, position, brake, code, templates)``; ``next`` is
#: :func:`state_key` of the car's next state times 8 (so that ``next + m`` is the key of its
#: next turn), 0 when the race is over for it.
Step = tuple[int, int, int, int, tuple[Template, ...]]


def state_key(position: int, brake: int, speed: int) -> int:
    """The key of a car's state ``(p, b, v)`` (b in 1..9, v in 1..6)."""
    return (position * 16 + brake) * 8 + speed


class Steps:
    """Every turn a car of one driver (:class:`DecisionTable`) can take, by state and roll:
    LU-4 .. LU-9 from :func:`resolve_move` and the driver's choice, kept per
    ``state_key(p, b, v)·8 + m`` once met, so that a race's turn is one look-up."""

    __slots__ = ("driver", "known", "marker_basis")

    def __init__(self, driver: DecisionTable) -> None:
        self.driver = driver
        self.marker_basis = driver.marker_basis
        self.known: dict[int, Step] = {}

    def step(self, position: int, brake: int, speed: int, moved: int) -> Step:
        """One turn from ``(p, b, v)`` with ``m`` cards rolled (LU-4 .. LU-10), then the next
        speed and its cost (LU-9, §7.2)."""
        key = state_key(position, brake, speed) * 8 + moved
        known = self.known.get(key)
        if known is not None:
            return known
        driver = self.driver
        move = resolve_move(
            driver.track,
            position=position,
            brake=brake,
            moved=moved,
            finish=driver.finish,
            speed=speed if self.marker_basis else None,
        )
        events: list[Template] = []
        running = brake
        for q, points in move.losses:
            running -= points
            events.append((BRAKE_LOST, q, q % N_CARDS, points, running))
        if move.eliminated:
            q = move.position
            events.append((ELIMINATION, q, q % N_CARDS, move.penalty, move.brake))
            result: Step = (0, q, move.brake, OUT, tuple(events))
        elif move.finished:
            result = (0, move.position, move.brake, FINISHES, tuple(events))
        else:
            p, b = move.position, move.brake
            if move.gained:
                events.append((RECOVERY, p, p % N_CARDS, move.gained, b))
            new = driver.choose(p, b, speed)
            if abs(new - speed) == 2:
                b -= 1
                events.append((SPEED_COST, p, p % N_CARDS, new, b))
            result = (state_key(p, b, new) * 8, p, b, GOES_ON, tuple(events))
        self.known[key] = result
        return result


@lru_cache(maxsize=256)
def steps_of(driver: DecisionTable) -> Steps:
    """The shared :class:`Steps` of a driver."""
    return Steps(driver)


def round_one_order(inputs: RaceInputs, dice: SpeedDice) -> list[int]:
    """LU-2: the round-1 order as entry indices. ``random``: a seeded draw. ``reverse_standings``
    (S-5): the lowest-ranked car first (unranked cars before every ranked one), ties drawn at
    random."""
    order = list(range(len(inputs.cars)))
    if inputs.settings.first_round_order == "random":
        dice.shuffle(order)
        return order
    unranked = 1 + max((c.standing or 0) for c in inputs.cars)
    order.sort(key=lambda i: -(inputs.cars[i].standing or unranked))
    start = 0
    while start < len(order):
        standing = inputs.cars[order[start]].standing
        end = start + 1
        while end < len(order) and inputs.cars[order[end]].standing == standing:
            end += 1
        if end - start > 1:
            tied = order[start:end]
            dice.shuffle(tied)
            order[start:end] = tied
        start = end
    return order


def run_race(
    inputs: RaceInputs, dice: SpeedDice, *, ruleset: str, seed: int, record: bool = True
) -> RaceOutcome:
    """LU-1 .. LU-12 for every car of ``inputs``.

    Each round (LU-2) every active car rolls its speed (LU-3), moves (LU-4), pays the
    penalties of the cards it entered (LU-5), is eliminated below 1 brake (LU-6), finishes at
    ``F`` (LU-7) or regains brake on the card it stopped on (LU-8); a car that did not move
    does nothing of that (LU-10); then the default driver picks its next speed (LU-9, §7.2).
    The race ends when no car is active or after ``max_rounds`` (LU-11). ``record`` False
    keeps no events, dice log nor trace (the outcome's are empty): the same draws and
    results, for a caller that reads the classification alone (the odds).
    """
    settings = inputs.settings
    track = inputs.track
    finish = inputs.finish
    marker = settings.limit_basis == "marker"
    cars = inputs.cars
    n = len(cars)
    ids = [c.car for c in cars]
    walkers = [
        steps_of(decision_table(track, finish, marker, c.orders.risk, c.orders.max_speed))
        for c in cars
    ]
    known = [w.known for w in walkers]
    pos = [0] * n
    brake = [START_BRAKE] * n
    state = [state_key(0, START_BRAKE, START_SPEED) * 8] * n
    speeds: list[list[int]] = [[] for _ in range(n)]
    ended_round = [0] * n
    status = [""] * n
    out_seq = [0] * n  # when each car went out, for LU-12 ties
    finishers: list[int] = []
    events: list[EventRow] = []
    log: list[DiceRow] = []
    throw = dice.throw
    # The seeded draw inline (dice.py): the same faces as ``dice.throw``, without a call.
    seeded = dice.tables if isinstance(dice, SeededSpeedDice) else None
    draw = dice.rng.random if isinstance(dice, SeededSpeedDice) else None
    powers = POWERS

    order = round_one_order(inputs, dice)
    start_order = tuple(ids[i] for i in order)
    rnd = 0
    trace: list[RawTraceRow] = [(0, tuple(pos), tuple(status), tuple(order))] if record else []
    outs = 0
    while order and rnd < settings.max_rounds:
        rnd += 1
        if rnd > 1:
            # LU-2: leader first; sort is stable, so ties keep the previous round's order.
            order.sort(key=pos.__getitem__, reverse=True)
        still: list[int] = []
        for i in order:
            key = state[i]
            v = (key >> 3) & 7
            if seeded is not None and draw is not None:
                faces, m = seeded[v][int(draw() * powers[v])]
            else:
                faces, m = throw(v, round_no=rnd, unit=i)
            car = ids[i]
            if record:
                log.append((rnd, car, faces))
            step = known[i].get(key + m)
            if step is None:
                k = key >> 3
                step = walkers[i].step(k >> 7, (k >> 3) & 15, v, m)
            key, p, b, code, templates = step
            if templates and record:
                events.append((rnd, car, templates))
            pos[i] = p
            if code == GOES_ON:
                state[i] = key
                speeds[i].append((key >> 3) & 7)
                still.append(i)
                continue
            brake[i] = b
            ended_round[i] = rnd
            if code == FINISHES:
                # LU-7: crossing order is play order (B11); no recovery.
                status[i] = FINISHED
                finishers.append(i)
                if record:
                    events.append((rnd, car, ((FINISH, p, p % N_CARDS, len(finishers), b),)))
            else:
                # LU-6 (B6): out on the card where the brake ran out.
                status[i] = ELIMINATED
                outs += 1
                out_seq[i] = outs
        order = still
        if record:
            trace.append((rnd, tuple(pos), tuple(status), tuple(still)))
    for i in order:
        brake[i] = (state[i] >> 6) & 15
        status[i] = NOT_CLASSIFIED
        ended_round[i] = rnd
        if record:
            events.append((rnd, ids[i], ((OUT_OF_TIME, pos[i], pos[i] % N_CARDS, 0, brake[i]),)))
    ranking = classify(finishers, order, pos, status, out_seq)
    results = []
    for rank, i in enumerate(ranking, 1):
        card = pos[i] % N_CARDS if status[i] == ELIMINATED else None
        results.append(
            CarResult(
                car=ids[i],
                rank=rank,
                status=status[i],
                rounds=ended_round[i],
                position=pos[i],
                brake=brake[i],
                speeds=tuple(speeds[i]),
                card=card,
                reason=_reason(track, status[i], ended_round[i], card, settings.max_rounds),
            )
        )
    return RaceOutcome(
        ruleset=ruleset,
        seed=seed,
        track=track.id,
        laps=inputs.laps,
        finish=finish,
        rounds=rnd,
        start_order=start_order,
        results=tuple(results),
        events=EventLog(events),
        dice=tuple(log),
        trace=PositionTrace.from_race(
            tuple(ids),
            inputs.laps,
            finish,
            track.closed,
            tuple(finishers),
            tuple(out_seq),
            trace,
        ),
    )


def classify(
    finishers: list[int],
    unfinished: list[int],
    pos: list[int],
    status: list[str],
    out_seq: list[int],
) -> list[int]:
    """LU-12: finishers in finishing order; then the cars not classified by ``p`` (descending,
    ties in the last round's play order); then the eliminated cars by ``p`` at elimination
    (descending), ties to the later elimination."""
    ranked = list(finishers)
    ranked += sorted(unfinished, key=lambda i: -pos[i])
    out = [i for i in range(len(pos)) if status[i] == ELIMINATED]
    ranked += sorted(out, key=lambda i: (-pos[i], -out_seq[i]))
    return ranked


def _reason(track: Track, status: str, rnd: int, card: int | None, max_rounds: int) -> str | None:
    if status == ELIMINATED and card is not None:
        return f"brake ran out on card {card} ({track.cards[card].label}) in round {rnd}"
    if status == NOT_CLASSIFIED:
        return f"still racing after {max_rounds} rounds"
    return None
