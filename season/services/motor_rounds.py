"""A motor season's round (one Grand Prix, qualifying and race): its cars with their orders as
plain data for the adapter, a team's orders per car, and the rows the adapter writes. The
lifecycle, the job, the exactly-once claim and lock are season.services.resolution's, shared
with the stages; only the part between them is here."""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _

from motor.adapters.base import CarEntrantSpec, MotorRun
from motor.models import Standing
from plugins import motor_adapter
from season.cache import season_changed
from season.models import DiceLog, Orders, Round, SeasonTeam, Seat
from season.round_names import is_championship
from season.services.commitment import dice_seed_of
from season.services.dice import dice_log_write

#: The season races cars on Grands Prix (its ruleset's adapter says so): one question, asked
#: in season/round_names.py.
is_motor = is_championship


def team_cars(*, team: SeasonTeam) -> list[Seat]:
    return list(team.seats.select_related("entry__driver", "entry__constructor").order_by("slot"))


def car_orders_errors(
    *, adapter: Any, team: SeasonTeam, round: Round, orders: dict[Any, dict[str, Any]]
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """A team's orders ``{car number: fields}`` as stored (every field of the spec) and what
    is wrong with them, each problem naming the car and the field."""
    numbers = {str(car.number) for car in team_cars(team=team)}
    given = {str(car): order for car, order in orders.items()}
    errors = []
    unknown = sorted(set(given) - numbers)
    if unknown:
        errors.append(_("Cars %(numbers)s are not this team's.") % {"numbers": ", ".join(unknown)})
    data = {car: adapter.orders_stored(order) for car, order in sorted(given.items())}
    if not errors:
        errors = adapter.orders_errors(orders=data, round=round)
    return data, errors


def _standing_places(round: Round) -> dict[int, int]:
    """Each driver's place in the drivers' table after the previous round."""
    previous = (
        Round.objects.filter(season_id=round.season_id, number=round.number - 1)
        .values_list("grand_prix_id", flat=True)
        .first()
    )
    if previous is None:
        return {}
    return dict(
        Standing.objects.filter(grand_prix_id=previous, table="drivers").values_list(
            "driver_id", "position"
        )
    )


def round_cars(*, round: Round) -> list[CarEntrantSpec]:
    """The grid's cars in entry order (team by team, car 1 then car 2), each with its team's
    orders for the round (the spec's defaults for a car without), and its driver's place in
    the standings before the round."""
    season = round.season
    orders = {o.team_id: o.data for o in Orders.objects.filter(round=round)}
    places = _standing_places(round)
    cars = (
        Seat.objects.filter(season=season)
        .select_related("team", "entry__driver")
        .order_by("team__draft_position", "team_id", "slot")
    )
    return [
        CarEntrantSpec(
            car_id=str(car.number),
            entry_id=car.entry_pk,
            team_id=car.team_id,
            team=car.team.name,
            driver=car.entry.driver.name,
            orders=orders.get(car.team_id, {}).get(str(car.number), {}),
            standing=places.get(car.entry.driver_id),
        )
        for car in cars
    ]


def motor_round_inputs(
    *,
    round: Round,
    adapter: Any,
    draft_team_id: int | None = None,
    draft: Mapping[str, Mapping[str, Any]] | None = None,
    rivals_default: bool = False,
    own_team_id: int | None = None,
) -> dict[str, Any]:
    """The round's inputs as stored (the track's content embedded), with the orders given so
    far; ``draft`` (``{car number: stored orders}``) in place of team ``draft_team_id``'s
    saved orders (the odds of a draft: season.services.odds). With ``rivals_default`` (the
    odds) every car not of team ``own_team_id`` (every car when None) gets the spec's defaults
    in place of its saved orders."""
    assert round.grand_prix is not None
    cars = round_cars(round=round)
    if rivals_default:
        cars = [car if car.team_id == own_team_id else replace(car, orders={}) for car in cars]
    if draft_team_id is not None and draft is not None:
        cars = [
            replace(car, orders=dict(draft.get(car.car_id, {})))
            if car.team_id == draft_team_id
            else car
            for car in cars
        ]
    inputs: dict[str, Any] = adapter.inputs_build(
        grand_prix=round.grand_prix, cars=cars, values=adapter.season_values(round.season.rules)
    )
    return inputs


def motor_round_simulate(*, round: Round, adapter: Any) -> MotorRun:
    """The round's inputs (the track's content embedded) and the engine's outcome, from the
    stored seed; outside any lock (the engine is pure)."""
    assert round.seed is not None
    inputs = motor_round_inputs(round=round, adapter=adapter)
    run: MotorRun = adapter.simulate(inputs, seed=dice_seed_of(round))
    return run


def motor_round_write(*, round: Round, adapter: Any, run: MotorRun) -> None:
    """Results, events, trace, both tables and the round's dice log: inside the resolving
    transaction (the season's cached pages change with it)."""
    assert round.grand_prix is not None
    adapter.outcome_write(grand_prix=round.grand_prix, run=run)
    adapter.standings_write(championship=round.grand_prix.championship)
    dice_log_write(round=round, adapter=adapter, outcome=run)
    season_changed(round.season)


def motor_round_replay(*, round: Round) -> list[str]:
    """Differences between a fresh run of the stored inputs and seed and the stored rows."""
    if round.engine_inputs is None or round.seed is None or round.grand_prix is None:
        return [f"Round {round.number} is not resolved: nothing to replay."]
    adapter = motor_adapter(round.season.ruleset)
    run = adapter.simulate(round.engine_inputs, seed=dice_seed_of(round))
    differences: list[str] = []
    log = DiceLog.objects.filter(round=round).first()
    count, sha256 = adapter.dice_log(run)
    if log is None:
        differences.append(f"dice log: none stored, replay {count} rows ({sha256[:12]})")
    elif (log.count, log.sha256, log.seed) != (count, sha256, round.seed):
        differences.append(
            f"dice log: stored {log.count} rows ({log.sha256[:12]}), replay "
            f"{count} rows ({sha256[:12]})"
        )
    differences += adapter.replay_differences(grand_prix=round.grand_prix, run=run)
    stored = adapter.stored_version(round.engine_inputs)
    if differences and stored != adapter.version:
        differences.insert(
            0,
            f"resolved by {adapter.name} version {stored}, replayed by version "
            f"{adapter.version}: differences are expected",
        )
    return differences
