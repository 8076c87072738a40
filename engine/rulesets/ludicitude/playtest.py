"""A track playtest for admins: many races with the default driver and what they show
(eliminations and brake lost per card, rounds per race, the round-1 slot of the winners), so
that a new track can be judged before a league uses it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.rulesets.ludicitude.dice import speed_dice
from engine.rulesets.ludicitude.orders import RISKS, CarOrders, LudicitudeSettings
from engine.rulesets.ludicitude.outcome import (
    BRAKE_LOST,
    ELIMINATED,
    FINISHED,
    NOT_CLASSIFIED,
    RECOVERY,
    CarEntry,
    RaceInputs,
    RaceOutcome,
)
from engine.rulesets.ludicitude.race import run_race
from engine.rulesets.ludicitude.track import GAME, N_CARDS, Track

#: ``risk`` of :func:`playtest` that gives the cars safe, normal, aggressive in turn.
MIXED = "mixed"
PLAYTEST_RISKS: tuple[str, ...] = (*RISKS, MIXED)


@dataclass(frozen=True, slots=True)
class RiskFigures:
    """What the cars of one risk did: cars raced, finished, eliminated, wins, mean rank of
    those that finished."""

    cars: int
    finished: int
    eliminated: int
    wins: int
    mean_finish_rank: float


@dataclass(frozen=True, slots=True)
class PlaytestReport:
    """Figures of ``races`` races of ``cars`` cars on one track (see :meth:`lines`)."""

    track: Track
    races: int
    cars: int
    risk: str
    laps: int
    finished: int
    eliminated: int
    not_classified: int
    rounds_min: int
    rounds_mean: float
    rounds_max: int
    winner_rounds_mean: float
    brake_lost: tuple[int, ...]  # points lost on each card, all races
    eliminations: tuple[int, ...]  # eliminations on each card
    recoveries: tuple[int, ...]  # points regained on each card
    first_slot_wins: int  # races won by the car that played first in round 1
    last_slot_wins: int
    by_risk: dict[str, RiskFigures]

    @property
    def elimination_rate(self) -> float:
        return self.eliminated / (self.races * self.cars)

    def lines(self) -> list[str]:
        """The report for people, one figure per line, then one line per card."""
        n = self.races * self.cars
        out = [
            f"{self.track.name} ({self.track.id}): {self.track.circuit}, {self.laps} lap(s), "
            f"{self.races} races x {self.cars} cars, risk {self.risk}",
            f"finished {self.finished / n:.1%}, eliminated {self.eliminated / n:.1%}, "
            f"not classified {self.not_classified / n:.1%}",
            f"rounds per race: min {self.rounds_min}, mean {self.rounds_mean:.1f}, "
            f"max {self.rounds_max}; winner's rounds: mean {self.winner_rounds_mean:.1f}",
            f"round-1 slot of the winner: first {self.first_slot_wins / self.races:.1%}, "
            f"last {self.last_slot_wins / self.races:.1%} (even: {1 / self.cars:.1%})",
        ]
        for risk, f in self.by_risk.items():
            out.append(
                f"risk {risk}: {f.cars} cars, eliminated {f.eliminated / f.cars:.1%}, "
                f"finished {f.finished / f.cars:.1%}, wins {f.wins}, "
                f"mean rank of finishers {f.mean_finish_rank:.2f}"
            )
        out.append("card  type          brake lost/car  eliminated  regained/car")
        for i, card in enumerate(self.track.cards):
            out.append(
                f"{i:>4}  {card.label:<12}  {self.brake_lost[i] / n:>14.2f}  "
                f"{self.eliminations[i] / n:>10.1%}  {self.recoveries[i] / n:>12.2f}"
            )
        return out


def playtest_field(cars: int, risk: str) -> tuple[CarEntry, ...]:
    """``cars`` cars ``lud-1`` .. with the default orders of ``risk`` (``mixed``: safe, normal,
    aggressive in turn)."""
    if risk not in PLAYTEST_RISKS:
        raise ValueError(f"risk must be one of {', '.join(PLAYTEST_RISKS)}, got {risk!r}")
    return tuple(
        CarEntry(f"lud-{i + 1}", CarOrders(risk=RISKS[i % 3] if risk == MIXED else risk))
        for i in range(cars)
    )


def playtest(
    track: Track,
    *,
    races: int,
    risk: str = "normal",
    cars: int = 12,
    seed: int = 0,
    settings: LudicitudeSettings | None = None,
) -> PlaytestReport:
    """Run ``races`` races (seeds ``seed``, ``seed + 1``, ...) with the default driver."""
    if races < 1 or cars < 1:
        raise ValueError("races and cars must be >= 1")
    field = playtest_field(cars, risk)
    inputs = RaceInputs(track, field, settings or LudicitudeSettings())
    risk_of = {c.car: c.orders.risk for c in field}
    outcomes = [
        run_race(inputs, speed_dice(None, seed + k), ruleset=GAME, seed=seed + k)
        for k in range(races)
    ]
    return summarise(track, outcomes, risk, risk_of)


def summarise(
    track: Track, outcomes: list[RaceOutcome], risk: str, risk_of: dict[str, str]
) -> PlaytestReport:
    """The :class:`PlaytestReport` of races already run."""
    status: Counter[str] = Counter()
    lost = [0] * N_CARDS
    outs = [0] * N_CARDS
    regained = [0] * N_CARDS
    winner_rounds = []
    first = last = 0
    per_risk: dict[str, Counter[str]] = {}
    ranks: dict[str, list[int]] = {}
    for out in outcomes:
        for r in out.results:
            status[r.status] += 1
            c = per_risk.setdefault(risk_of[r.car], Counter())
            c["cars"] += 1
            c[r.status] += 1
            if r.status == ELIMINATED and r.card is not None:
                outs[r.card] += 1
            if r.status == FINISHED:
                ranks.setdefault(risk_of[r.car], []).append(r.rank)
        winner = out.results[0]
        if winner.status == FINISHED:
            per_risk[risk_of[winner.car]]["wins"] += 1
            winner_rounds.append(winner.rounds)
            first += winner.car == out.start_order[0]
            last += winner.car == out.start_order[-1]
        for e in out.events:
            if e.kind == BRAKE_LOST:
                lost[e.card] += e.amount
            elif e.kind == RECOVERY:
                regained[e.card] += e.amount
    rounds = [o.rounds for o in outcomes]
    by_risk = {
        name: RiskFigures(
            cars=c["cars"],
            finished=c[FINISHED],
            eliminated=c[ELIMINATED],
            wins=c["wins"],
            mean_finish_rank=sum(ranks.get(name, [])) / max(1, len(ranks.get(name, []))),
        )
        for name, c in sorted(per_risk.items(), key=lambda kv: RISKS.index(kv[0]))
    }
    return PlaytestReport(
        track=track,
        races=len(outcomes),
        cars=len(outcomes[0].results),
        risk=risk,
        laps=outcomes[0].laps,
        finished=status[FINISHED],
        eliminated=status[ELIMINATED],
        not_classified=status[NOT_CLASSIFIED],
        rounds_min=min(rounds),
        rounds_mean=sum(rounds) / len(rounds),
        rounds_max=max(rounds),
        winner_rounds_mean=sum(winner_rounds) / max(1, len(winner_rounds)),
        brake_lost=tuple(lost),
        eliminations=tuple(outs),
        recoveries=tuple(regained),
        first_slot_wins=first,
        last_slot_wins=last,
        by_risk=by_risk,
    )
