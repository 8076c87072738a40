"""What every motor adapter does the same way; a ruleset's module adds only its own part.

The one module family that knows both a motor engine and the motor ORM: the season passes
plain data (:class:`CarEntrantSpec` per car, the orders as stored, the round's Grand Prix), the
adapter builds the engine's inputs (the track's content embedded, so a resolved round keeps
the track version it was raced on), runs the engine, and writes ``Result`` rows (points from
the championship's points system), ``GrandPrixEvent`` rows, the position trace and the
standings. Nothing here knows the season: motor never imports season or races.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from django import forms
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from engine import commitment
from engine.motor import CarEntry, DataDocument, EntryError
from engine.registry import motor_ruleset
from engine.ruleset import MOTOR, Ruleset
from engine.spec import Spec, SpecError
from motor.adapters.formation import MotorFormation
from motor.adapters.orders_page import MotorOrdersPage
from motor.championship import RaceLine, car_points
from motor.league import api as league_api
from motor.league import pages as league_pages
from motor.league import ranking as league_results
from motor.league import sheets as league_sheets
from motor.league.tables import LeagueCalendarTable
from motor.league_copy import (
    championship_copy_for_league,
    championship_problems,
    grand_prix_laps_update,
    league_championship_slug,
    real_championships,
)
from motor.models import (
    Championship,
    ChampionshipKind,
    Entry,
    GrandPrix,
    GrandPrixEvent,
    PointsSystem,
    Result,
    ResultStatus,
    Standing,
    StandingTable,
    Track,
)
from motor.place_names import place_name
from motor.standings import championship_standings_write
from plugins.event_keys import event_key, event_pk
from plugins.odds import TOP, RunLine
from plugins.protocol import SeasonTables, Starter
from sheets import Block
from specforms import car_fields_from_spec, orders_carried, settings_fields_from_spec
from specforms.references import linked_references

#: Key of the ruleset version in a round's stored inputs.
ENGINE_VERSION_KEY = "engine_version"
#: The format of the stored inputs of a motor round (see :meth:`MotorAdapter.inputs_to_data`).
INPUTS_FORMAT = 1
#: The game laps of a league Grand Prix when neither the season nor the track says (the real
#: races' 50 to 80 laps would take an evening each; docs/league.md "Motor seasons").
DEFAULT_GAME_LAPS = 3


class MotorInputError(ValueError):
    """Inputs the engine refuses (a track of another game, orders out of bounds...)."""


@dataclass(frozen=True)
class CarEntrantSpec:
    """What the season knows of a car on the grid: its car id (the car number as text), the
    motor Entry it is, the league team that runs it (id and name: the engine groups a team's
    two cars), its driver's name, its orders as stored (the fields of the orders spec) and its
    place in the drivers' standings before the round (None: unranked)."""

    car_id: str
    entry_id: int
    team_id: int
    team: str
    driver: str
    orders: Mapping[str, Any] = field(default_factory=dict)
    standing: int | None = None


@dataclass(frozen=True)
class MotorRun:
    """One simulated Grand Prix: the inputs as stored (JSON) and the outcome as the engine's
    JSON document (``results``, ``events``, ``trace`` when the ruleset gives one)."""

    inputs: dict[str, Any]
    outcome: dict[str, Any]


def _status(engine_status: str) -> str:
    """An engine's car status as a motor Result status."""
    if engine_status == "finished":
        return ResultStatus.FINISHED
    if engine_status == "not_classified":
        return ResultStatus.NC
    return ResultStatus.DNF  # retired (Grand Prix), eliminated (Ludicitude)


class MotorAdapter(MotorFormation, MotorOrdersPage, commitment.DiceCommitment):
    """A motor ruleset's adapter (discipline ``motor``). A subclass sets ``name``, ``label``
    and ``how_it_works``, and overrides :meth:`run` when its engine takes more than the
    command line's ``simulate(track, cars, orders, seed, laps)`` (settings, standings)."""

    name: str = ""
    label: Any = ""
    how_it_works: Any = ""
    orders_legend: Any = None
    discipline = MOTOR
    #: What a round of this game is called, one and several (commands' messages).
    round_noun = "Grand Prix"
    rounds_noun = "Grands Prix"

    @staticmethod
    def round_label(number: int) -> str:
        """Round ``number`` as a sentence names it, in the active language ("round 3",
        "la manche 3")."""
        return pgettext("a round of a championship, in a sentence", "round %(number)s") % {
            "number": number
        }

    @staticmethod
    def rounds_count_text(count: int) -> str:
        return ngettext("%(count)d Grand Prix", "%(count)d Grands Prix", count) % {"count": count}

    #: What the orders page says once every round is resolved.
    over_text = gettext_lazy("The championship is over: every round has been resolved.")

    @staticmethod
    def event_label(event: Any) -> str:
        """A round's event as the notices name it: the Grand Prix and its circuit."""
        return f"{place_name(event.name)} ({event.circuit})" if event is not None else ""

    #: The league's own defaults where they differ from the engine's (none).
    season_defaults: Mapping[str, Any] = MappingProxyType({})

    # --- the ruleset -------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset[Any, Any, Any]:
        return motor_ruleset(self.name)[0]

    @property
    def hooks(self) -> Any:
        return motor_ruleset(self.name)[1]

    @property
    def version(self) -> int:
        return self.ruleset.version

    @property
    def game(self) -> str:
        """The ``game`` of this ruleset's track files."""
        return str(self.hooks.game)

    @property
    def max_cars(self) -> int:
        return int(self.hooks.max_cars)

    @property
    def team_size(self) -> int:
        return int(self.hooks.team_size)

    # --- orders ------------------------------------------------------------------------

    @property
    def orders_spec(self) -> Spec:
        """The orders a player gives each car, from the engine's orders spec."""
        return self.ruleset.orders_spec

    def orders_stored(self, order: Mapping[str, Any]) -> dict[str, Any]:
        """A car's orders as the season stores them: every field of the spec, given or at
        its default."""
        defaults = self.orders_spec.defaults()
        return {name: order.get(name, defaults[name]) for name in self.orders_spec.names}

    def orders_errors(self, *, orders: Mapping[Any, Mapping[str, Any]], round: Any) -> list[str]:
        """The spec's and the engine's checks of a team's orders, ``{car id: orders}``, as
        messages naming the car and the field."""
        errors = []
        for car, order in sorted(orders.items()):
            try:
                self.orders_spec.clean(order)
            except SpecError as error:
                errors += [
                    f"Car {car}, {name}: {why}" for name, why in sorted(error.errors.items())
                ]
                continue
            try:
                self.engine_orders({str(car): self.orders_stored(order)})
            except EntryError as error:
                errors.append(str(error))
        return errors

    def engine_orders(self, orders: Mapping[str, Mapping[str, Any]]) -> Any:
        """The engine's orders objects of ``{car id: stored orders}`` (EntryError naming the
        car and the field)."""
        raw = {
            car: ({**self.to_engine_order(order), "car": car}, None)
            for car, order in orders.items()
        }
        return self.hooks.parse_orders(raw, "orders", ())

    def to_engine_order(self, order: Mapping[str, Any]) -> dict[str, Any]:
        """A stored order in the engine's §7.1 shape (the spec's fields are the engine's)."""
        return dict(order)

    def order_fields(self, given: Mapping[str, Any]) -> dict[str, forms.Field]:
        """One car's row of the orders form, generated from the orders spec."""
        return car_fields_from_spec(self.orders_spec, given, help_html=self.help_html)

    def orders_carry(
        self,
        previous_data: Mapping[str, Mapping[str, Any]],
        round: Any,
        *,
        starters: Sequence[Starter],
    ) -> tuple[dict[str, dict[str, Any]], list[str]]:
        """A car's orders carry field by field as the form still offers them (a choice still
        offered, a value within its bounds), then through the engine's check of the car's
        orders; every car races again at the next Grand Prix."""

        def seat_errors(key: str, order: dict[str, Any]) -> list[str]:
            try:
                self.engine_orders({key: self.orders_stored(order)})
            except EntryError as error:
                return [str(error)]
            return []

        labels = {s.key: self.seat_label(s) for s in starters}
        return orders_carried(
            self.orders_spec,
            previous_data,
            racing={
                s.key: labels[s.key]
                for s in self.starters_racing(event=round.grand_prix, starters=starters)
            },
            labels=labels,
            offered=self.order_fields,
            seat_clean=lambda values: self.seat_clean(values, round=round),
            seat_errors=seat_errors,
        )

    # --- settings ----------------------------------------------------------------------

    @property
    def settings_spec(self) -> Spec:
        return self.ruleset.settings_spec

    def settings_fields(self, values: Mapping[str, Any]) -> dict[str, forms.Field]:
        return settings_fields_from_spec(self.settings_spec, values, help_html=self.help_html)

    def season_values(self, rules: Any) -> dict[str, Any]:
        """The ruleset's settings a season holds (``rules.engine``), checked against the spec."""
        given = dict(getattr(rules, "engine", None) or {})
        return self.settings_spec.clean(given) if self.settings_spec.fields else given

    def engine_settings(self, rules: Any) -> Any:
        """The season's values of the ruleset's settings, checked against its spec
        (ValueError naming the field out of bounds)."""
        return self.season_values(rules)

    def game_laps(self, *, track: Track, values: Mapping[str, Any]) -> int:
        """The laps a league races on ``track``: the season's ``laps`` setting, else the track
        file's, else DEFAULT_GAME_LAPS."""
        laps = values.get("laps") or (track.content or {}).get("laps") or DEFAULT_GAME_LAPS
        return int(laps)

    # --- the league: the event a season runs, its rounds (season.leagues) ---------------

    #: The heading of the events a league of this game runs, and what choosing one gives.
    league_events_label: Any = gettext_lazy("Championships (Grands Prix)")
    league_events_help: Any = gettext_lazy(
        "A championship: the season runs one round per Grand Prix, on a track of the game's "
        "for its circuit. Players form teams of two cars from its drivers; computer teams fill "
        "the grid."
    )
    #: The season's settings a motor league does not use: a team is its cars, and the race
    #: rules are the cycling ones (the game's own settings are on the game settings page).
    league_settings_unused: tuple[str, ...] = (
        "roster_size",
        "max_per_real_team",
        "peloton",
        "player_ranking",
        "same_group_same_time",
        "finish_bonuses",
        "intermediate_sprint_bonuses",
        "time_cut_enabled",
    )
    _EVENT_KEY = "championship"

    def league_events(self) -> list[tuple[str, str]]:
        """The real championships, as (key, name) for the create form."""
        return [(event_key(self._EVENT_KEY, c.pk), str(c)) for c in real_championships()]

    def league_event_get(self, key: str) -> Championship | None:
        pk = event_pk(key, kind=self._EVENT_KEY)
        return None if pk is None else real_championships().filter(pk=pk).first()

    def league_event_fits(self, event: Any) -> bool:
        """A championship, and for a league's own copy one whose Grands Prix are all on
        tracks of this game (another game cannot race them)."""
        if not isinstance(event, Championship):
            return False
        if event.kind != ChampionshipKind.LEAGUE:
            return True
        return not event.grands_prix.exclude(track__game=self.game).exists()

    def league_event_problems(self, event: Championship) -> list[str]:
        return championship_problems(event, game=self.game)

    def league_round_count(self, event: Championship) -> int:
        return event.grands_prix.count()

    def league_copy_taken(self, *, slug: str, event: Championship) -> bool:
        copy = league_championship_slug(slug=slug, championship=event)
        return Championship.objects.filter(slug=copy).exists()

    def league_create_fields(self) -> dict[str, forms.Field]:
        return {
            "points_system": forms.ModelChoiceField(
                label=gettext_lazy("Points system"),
                queryset=PointsSystem.objects.order_by("name"),
                to_field_name="slug",
                required=False,
                empty_label=gettext_lazy("The championship's own"),
                help_text=gettext_lazy("The points of each place, as the real eras gave them."),
            )
        }

    def league_round_number(self, event: Championship, within: int) -> int:
        return within

    def league_options_problems(
        self, event: Championship, *, options: Mapping[str, Any]
    ) -> list[str]:
        """A points system fits every championship."""
        return []

    def league_event(
        self, *, event: Championship, slug: str, name: str, rules: Any, options: Mapping[str, Any]
    ) -> Championship:
        """The league's copy of the championship (motor.league_copy), each Grand Prix over
        the game's laps (``options["laps"]``, else the season's laps setting, else the track
        file's), scored by ``options["points_system"]`` (else the real one's)."""
        values = self.season_values(rules)
        laps = options.get("laps")
        return championship_copy_for_league(
            championship=event,
            slug=slug,
            name=name,
            game=self.game,
            laps=lambda track: laps or self.game_laps(track=track, values=values),
            points_system=options.get("points_system"),
        )

    def league_season_fields(self, event: Championship) -> dict[str, Any]:
        return {"roster_size": self.team_size, "max_per_real_team": None}

    def league_event_fields(self, event: Championship) -> dict[str, Any]:
        return {"championship": event}

    #: A championship is the whole calendar of a motor season: its Grands Prix are the rounds.
    league_calendar_grows = False

    def league_rounds(self, event: Championship) -> list[dict[str, Any]]:
        """One round per Grand Prix, numbered from 1 in the championship's order."""
        grands_prix = event.grands_prix.order_by("round")
        return [{"number": n, "grand_prix": gp} for n, gp in enumerate(grands_prix, start=1)]

    # --- the organiser's page --------------------------------------------------------

    def league_source(self, event: Championship) -> str:
        return event.copied_from.name if event.copied_from_id else ""  # type: ignore[union-attr]

    def league_capacity_text(self, event: Championship, *, roster_size: int) -> str:
        grid = self.pool_size(event)
        return ngettext(
            "The grid has %(grid)d car: teams of %(size)d, computer teams on the seats no "
            "player takes.",
            "The grid has %(grid)d cars: teams of %(size)d, computer teams on the seats no "
            "player takes.",
            grid,
        ) % {"grid": grid, "size": roster_size}

    def league_formation_notes(self, *, season: Any, players: int) -> list[str]:
        # The seats computer_teams fills: the grid's free seats, as far as the championship's
        # free cars go, in whole teams (a lone car does not race).
        taken = season.roster_size * players
        free_cars = int(self.pool(season.event).count()) - taken
        seats = max(0, min(self.max_cars - taken, free_cars))
        seats -= seats % self.cars_per_team
        notes = [
            self.peloton_text(season.event, peloton=season.peloton),
            ngettext("%(seats)d seat for the computer", "%(seats)d seats for the computer", seats)
            % {"seats": seats},
        ]
        if season.points_system is not None:
            notes.append(_("Points: %(system)s") % {"system": season.points_system.title})
        return notes

    def league_standings_lines(
        self, event: Championship, *, number: int, limit: int = 20
    ) -> list[str]:
        grands_prix = list(event.grands_prix.order_by("round"))
        lines = [f"Drivers' standings after round {number}:"]
        if not 1 <= number <= len(grands_prix):
            return lines
        rows = (
            Standing.objects.filter(grand_prix=grands_prix[number - 1], table="drivers")
            .select_related("driver")
            .order_by("position")[:limit]
        )
        for row in rows:
            name = row.driver.name if row.driver else ""
            lines.append(f"{row.position:>3}. {name:<28} {row.points.normalize():>6f}")
        return lines

    def league_calendar(
        self, event: Championship, *, season: Any, rounds: Any
    ) -> LeagueCalendarTable:
        return LeagueCalendarTable(
            list(rounds.select_related("grand_prix")), season=season, prefix="calendar-"
        )

    def league_settings_changed(self, *, season: Any, rounds: Any) -> int:
        """After the organiser changed the game's settings: the laps of the Grands Prix of
        ``rounds`` (those not raced yet), from the ``laps`` setting, else each track file's;
        the number changed."""
        values = self.season_values(season.rules)
        grands_prix = GrandPrix.objects.filter(league_round__in=rounds).select_related("track")
        return grand_prix_laps_update(
            grands_prix, laps=lambda track: self.game_laps(track=track, values=values)
        )

    # --- inputs, simulation, outcome ---------------------------------------------------

    def track_check(self, track: Track) -> None:
        """MotorInputError unless ``track`` is a track file of this ruleset's game."""
        if track.game != self.game:
            raise MotorInputError(
                f"Track {track.slug} v{track.version} is a {track.game} track, not {self.game}."
            )

    def inputs_build(
        self,
        *,
        grand_prix: GrandPrix,
        cars: Sequence[CarEntrantSpec],
        values: Mapping[str, Any],
    ) -> dict[str, Any]:
        """The round's inputs as stored (JSON): the track's content and hash, the cars in
        entry order, their orders, the laps and the settings, with the ruleset's version."""
        track = grand_prix.track
        if track is None:
            raise MotorInputError(f"{grand_prix.name} has no track.")
        self.track_check(track)
        if not 1 <= len(cars) <= self.max_cars:
            raise MotorInputError(f"A Grand Prix has 1 to {self.max_cars} cars, not {len(cars)}.")
        return {
            "format": INPUTS_FORMAT,
            ENGINE_VERSION_KEY: self.version,
            "track": {
                "slug": track.slug,
                "version": track.version,
                "hash": track.content_hash,
                "content": track.content,
            },
            "laps": grand_prix.laps,
            "settings": dict(values),
            "cars": [
                {
                    "car": c.car_id,
                    "entry": c.entry_id,
                    "driver": c.driver,
                    "team": c.team,
                    "team_id": c.team_id,
                    "standing": c.standing,
                }
                for c in cars
            ],
            "orders": {c.car_id: self.orders_stored(c.orders) for c in cars},
        }

    def engine_track(self, inputs: Mapping[str, Any]) -> Any:
        """The engine's track of stored inputs (validated again by the engine's loader)."""
        track = inputs["track"]
        return self.hooks.load_track(DataDocument(track["slug"], track["content"], {}))

    def engine_cars(self, inputs: Mapping[str, Any]) -> tuple[CarEntry, ...]:
        return tuple(CarEntry(c["car"], c["driver"], c["team"]) for c in inputs["cars"])

    def run(self, inputs: Mapping[str, Any], *, seed: int) -> Any:
        """The engine's outcome of stored inputs: the ruleset's league round
        (:class:`engine.motor.LeagueHooks`, which ``python -m engine replay`` runs too), or the
        command line's entry point for a ruleset without one."""
        league = self.hooks.league
        if league is not None:
            return league.run(inputs, seed)
        orders = self.engine_orders(inputs["orders"])
        return self.hooks.simulate(
            self.engine_track(inputs), self.engine_cars(inputs), orders, seed, inputs["laps"]
        )

    def outcome_json(self, outcome: Any) -> dict[str, Any]:
        league = self.hooks.league
        if league is not None:
            return dict(league.outcome_json(outcome))
        return dict(self.hooks.outcome_json(outcome))

    def simulate(self, inputs: Mapping[str, Any], *, seed: int) -> MotorRun:
        """Run the engine on stored inputs: the same inputs and seed give the same outcome."""
        try:
            outcome = self.run(inputs, seed=seed)
        except (EntryError, ValueError) as error:
            raise MotorInputError(str(error)) from error
        # Through JSON once, so that what is compared on a replay is what the database keeps.
        return MotorRun(
            inputs=json.loads(json.dumps(inputs)),
            outcome=json.loads(json.dumps(self.outcome_json(outcome))),
        )

    # --- the dice log (kept with the league's round: season.services.dice) ---------------

    def dice_rows(self, run: MotorRun) -> list[list[Any]]:
        """The run's dice and card log as the round stores it, one row an entry in the order
        drawn: ``[phase, round, car, kind, values, card]`` (Grand Prix: every ``throw``, ``pit``
        throw, ``tie`` throw, ``card`` played, ``draw`` and ``shuffle``; ``car`` None for a
        shuffle before the event); the ruleset's league round says its own."""
        league = self.hooks.league
        if league is not None:
            return list(league.dice_rows(run.outcome))
        return [
            [d["phase"], d["round"], d["car"], d["kind"], list(d["values"]), d.get("card", "")]
            for d in run.outcome.get("dice", [])
        ]

    def dice_log(self, run: MotorRun) -> tuple[int, str]:
        """The number of rows and the sha256 of a run's dice log, as stored."""
        rows = self.dice_rows(run)
        text = json.dumps(rows, separators=(",", ":"))
        return len(rows), hashlib.sha256(text.encode()).hexdigest()

    @staticmethod
    def stored_version(data: Mapping[str, Any]) -> int | None:
        version = data.get(ENGINE_VERSION_KEY)
        return int(version) if version is not None else None

    #: The rules page's words for what a player orders (templates/season/public/rules.html).
    page_words: Mapping[str, Any] = MappingProxyType(
        {
            "orders_heading": gettext_lazy("The orders you give each car"),
            "no_orders": gettext_lazy("A car without orders races with the default orders."),
            "budget_help": gettext_lazy(
                "Budget picks only: the most a team's two cars may cost together."
            ),
        }
    )
    #: The codes of the dice log and their texts (none listed yet for the motor games).
    rule_texts: Mapping[str, Any] = MappingProxyType({})
    #: The short wording of the rules the pages cite (specforms.references).
    rule_titles: Mapping[str, Any] = MappingProxyType({})

    def help_html(self, text: str) -> str:
        """A help text with the rules it cites linked to this game's rules page."""
        return linked_references(
            text, ruleset=self.name, titles=self.rule_titles, texts=self.rule_texts
        )

    # --- odds (season.services.odds) ----------------------------------------------------

    #: The odds table's columns as a motor round says them (docs/odds.md).
    odds_labels: Mapping[str, Any] = MappingProxyType(
        {
            "name": gettext_lazy("Car"),
            "top10": gettext_lazy("Points finish"),
            "lead": gettext_lazy("Leads the championship"),
            "out": gettext_lazy("Retires"),
            "expected": gettext_lazy("Expected place"),
            # The odds page's words (templates/season/odds.html).
            "intro": gettext_lazy(
                "The Grand Prix simulated again and again with the orders given so far (the "
                "default orders for the cars that have none), each run with dice of its own. The "
                "real dice are drawn at the deadline: these are chances, not the result."
            ),
            "draft": gettext_lazy(
                "With the draft of your orders (not saved). Your cars' chance to win with your "
                "saved orders stands beside it."
            ),
        }
    )
    #: The odds' expectation of a car: its place (season.views.odds).
    odds_expected = "expected_place"

    def points_before(self, *, grand_prix: GrandPrix) -> dict[int, Decimal]:
        """Each entry's driver's points in the drivers' table after the previous round
        (``{entry id: points}``; empty before the first round)."""
        points = dict(
            Standing.objects.filter(
                grand_prix__championship_id=grand_prix.championship_id,
                grand_prix__round=grand_prix.round - 1,
                table=StandingTable.DRIVERS,
            ).values_list("driver_id", "points")
        )
        return {
            entry: points.get(driver, Decimal(0))
            for entry, driver in Entry.objects.filter(
                championship_id=grand_prix.championship_id
            ).values_list("pk", "driver_id")
        }

    def odds_runner(
        self, inputs_data: Mapping[str, Any], *, round: Any, rules: Any
    ) -> Callable[[int], list[RunLine]]:
        """One run of a round's stored inputs with a given seed, as the odds count it: each
        car's place (None unless classified), retired (or eliminated) or not, a points finish
        (the places the championship's points system scores; the first ten if it scores
        none), and minus its driver's points after the round (his points before, plus the
        place's and the pole's, as :meth:`outcome_write` scores them; best-N results and the
        countback are not applied: a tie goes to the better place in the round)."""
        grand_prix: GrandPrix = round.grand_prix
        scoring = grand_prix.championship.points_system.scoring()
        scored = len(scoring.table) or TOP
        before = self.points_before(grand_prix=grand_prix)
        points_of = {c["car"]: before.get(c["entry"], Decimal(0)) for c in inputs_data["cars"]}
        league = self.hooks.league
        lean = league.odds if league is not None else None
        # The ruleset's lean runs (LeagueHooks.odds: the inputs read once, no events, dice log
        # nor trace kept) when it has them, else the whole outcome's JSON; the same results.
        prepared: list[Callable[[int], list[dict[str, Any]]]] = []

        def results(seed: int) -> list[dict[str, Any]]:
            if lean is None:
                outcome = self.outcome_json(self.run(inputs_data, seed=seed))
                return list(outcome["results"])
            if not prepared:
                prepared.append(lean(inputs_data))
            return prepared[0](seed)

        def run(seed: int) -> list[RunLine]:
            try:
                rows = results(seed)
            except (EntryError, ValueError) as error:
                raise MotorInputError(str(error)) from error
            lines = []
            for r in rows:
                status = _status(r["status"])
                place = r["rank"] if status == ResultStatus.FINISHED else None
                points = car_points(
                    RaceLine(
                        round=grand_prix.round,
                        drivers=(str(r["car"]),),
                        team=("", ""),
                        position=place,
                        pole=r.get("grid") == 1,
                    ),
                    scoring,
                )
                lines.append(
                    RunLine(
                        str(r["car"]),
                        place,
                        out=status == ResultStatus.DNF,
                        gap=float(r.get("gap_seconds") or 0.0),
                        standing=-float(points_of.get(str(r["car"]), Decimal(0)) + points),
                        top=place is not None and place <= scored,
                    )
                )
            return lines

        return run

    # --- a round: one Grand Prix of the league's championship (plugins.GameAdapter) -------

    #: The message naming the cars a team's orders give that are not its own.
    unknown_seats: Any = gettext_lazy("Cars %(numbers)s are not this team's.")

    @staticmethod
    def round_event(round: Any) -> GrandPrix | None:
        grand_prix: GrandPrix | None = round.grand_prix
        return grand_prix

    @staticmethod
    def round_errors(event: GrandPrix) -> list[str]:
        """None before the inputs: a track of another game is refused as they are built."""
        return []

    @staticmethod
    def starters_racing(*, event: GrandPrix, starters: Sequence[Starter]) -> list[Starter]:
        """Every car: a car that retired races again at the next Grand Prix."""
        return list(starters)

    @staticmethod
    def standing_places(grand_prix: GrandPrix) -> dict[int, int]:
        """Each driver's place in the drivers' table after the previous Grand Prix of the
        championship (empty before the first). A league's championship may copy a part of a
        real calendar: the previous one is the last before it, not the one numbered one less."""
        previous = (
            GrandPrix.objects.filter(
                championship_id=grand_prix.championship_id, round__lt=grand_prix.round
            )
            .order_by("-round")
            .values_list("pk", flat=True)
            .first()
        )
        if previous is None:
            return {}
        return dict(
            Standing.objects.filter(
                grand_prix_id=previous, table=StandingTable.DRIVERS
            ).values_list("driver_id", "position")
        )

    def round_cars(self, *, event: GrandPrix, starters: Sequence[Starter]) -> list[CarEntrantSpec]:
        """The grid's cars in the starters' order (team by team, car 1 then car 2), each with
        its orders and its driver's place in the standings before the round."""
        places = self.standing_places(event)
        drivers = {
            pk: (driver_id, name)
            for pk, driver_id, name in Entry.objects.filter(
                pk__in=[s.competitor_id for s in starters]
            ).values_list("pk", "driver_id", "driver__name")
        }
        return [
            CarEntrantSpec(
                car_id=s.key,
                entry_id=s.competitor_id,
                team_id=s.team_id,
                team=s.team,
                driver=drivers[s.competitor_id][1],
                orders=s.orders,
                standing=places.get(drivers[s.competitor_id][0]),
            )
            for s in starters
        ]

    def round_inputs(
        self, *, event: GrandPrix, starters: Sequence[Starter], rules: Any
    ) -> dict[str, Any]:
        return self.inputs_build(
            grand_prix=event,
            cars=self.round_cars(event=event, starters=starters),
            values=self.season_values(rules),
        )

    @staticmethod
    def inputs_stored(inputs: Mapping[str, Any]) -> dict[str, Any]:
        """The inputs through JSON, as :meth:`simulate` keeps them in its run."""
        stored: dict[str, Any] = json.loads(json.dumps(inputs))
        return stored

    def round_write(
        self, *, event: GrandPrix, outcome: MotorRun, starters: Sequence[Starter], rules: Any
    ) -> None:
        """Results, events, trace, then both tables of the championship."""
        self.outcome_write(grand_prix=event, run=outcome)
        self.standings_write(championship=event.championship)

    def round_replay(
        self, *, event: GrandPrix, stored_inputs: Mapping[str, Any], seed: int, rules: Any
    ) -> tuple[MotorRun, list[str]]:
        run = self.simulate(stored_inputs, seed=seed)
        return run, self.replay_differences(grand_prix=event, run=run)

    @staticmethod
    def seat_label(starter: Starter) -> str:
        return f"#{starter.number} {starter.name}"

    # --- rows ---------------------------------------------------------------------------

    def result_lines(self, run: MotorRun) -> list[dict[str, Any]]:
        """The Result fields of each car, in classification order (comparable for replays)."""
        entry_of = {c["car"]: c["entry"] for c in run.inputs["cars"]}
        lines = []
        for r in run.outcome["results"]:
            status = _status(r["status"])
            laps = r.get("laps")
            if laps is None:
                laps = run.outcome.get("laps") if status == ResultStatus.FINISHED else None
            gap = ""
            if r.get("gap_seconds") is not None and r["rank"] > 1:
                gap = f"+{r['gap_seconds']:.1f}s"
            elif r.get("laps_behind"):
                gap = f"+{r['laps_behind']} lap" + ("s" if r["laps_behind"] > 1 else "")
            lines.append(
                {
                    "entry_id": entry_of[r["car"]],
                    "number": int(r["car"]) if str(r["car"]).isdigit() else None,
                    "grid": r.get("grid"),
                    "position": r["rank"] if status == ResultStatus.FINISHED else None,
                    "status": status,
                    "reason": str(r.get("reason") or "")[:80],
                    "retired_lap": r.get("retired_lap"),
                    "laps": laps,
                    "gap": gap,
                    "pit_stops": len(r["pit_stops"]) if "pit_stops" in r else None,
                    "track_exits": len(r["track_exits"]) if "track_exits" in r else None,
                }
            )
        return lines

    def event_lines(self, run: MotorRun) -> list[dict[str, Any]]:
        """The GrandPrixEvent fields of each event, in the engine's order."""
        entry_of = {c["car"]: c["entry"] for c in run.inputs["cars"]}
        lines = []
        for event in run.outcome.get("events", []):
            data = {k: v for k, v in event.items() if k not in ("phase", "round", "kind", "car")}
            lines.append(
                {
                    "phase": event.get("phase", GrandPrixEvent.Phase.RACE),
                    "round": event["round"],
                    "kind": event["kind"],
                    "entry_id": entry_of.get(str(event.get("car"))),
                    "data": data,
                }
            )
        return lines

    def outcome_write(self, *, grand_prix: GrandPrix, run: MotorRun) -> None:
        """Write a round's rows: results with points (the championship's points system),
        events and the position trace. Call inside the resolving transaction."""
        scoring = grand_prix.championship.points_system.scoring()
        results = []
        for line in self.result_lines(run):
            points = car_points(
                RaceLine(
                    round=grand_prix.round,
                    drivers=(str(line["entry_id"]),),
                    team=("", ""),
                    position=line["position"],
                    pole=line["grid"] == 1,
                ),
                scoring,
            )
            results.append(Result(grand_prix=grand_prix, points=Decimal(points), **line))
        Result.objects.bulk_create(results)
        GrandPrixEvent.objects.bulk_create(
            GrandPrixEvent(grand_prix=grand_prix, seq=seq, **line)
            for seq, line in enumerate(self.event_lines(run), start=1)
        )
        grand_prix.trace = run.outcome.get("trace")
        grand_prix.save(update_fields=["trace"])

    def standings_write(self, *, championship: Championship) -> None:
        """The drivers' and constructors' tables after every raced round."""
        with transaction.atomic():
            championship_standings_write(championship)

    def replay_differences(self, *, grand_prix: GrandPrix, run: MotorRun) -> list[str]:
        """What a fresh run changes in the stored rows of ``grand_prix`` (empty: identical)."""
        fields = list(self.result_lines(run)[0]) if run.outcome["results"] else []
        stored = [
            dict(zip(fields, row, strict=True))
            for row in Result.objects.filter(grand_prix=grand_prix)
            .order_by("position", "pk")
            .values_list(*fields)
        ]
        by_entry = {row["entry_id"]: row for row in stored}
        differences = []
        replayed = self.result_lines(run)
        if {r["entry_id"] for r in replayed} != set(by_entry):
            differences.append(f"cars: {len(by_entry)} stored, {len(replayed)} replayed")
        for line in replayed:
            kept = by_entry.get(line["entry_id"])
            if kept is not None and kept != line:
                differences.append(f"car {line['number']}: stored {kept}, replayed {line}")
        kept_events = list(
            GrandPrixEvent.objects.filter(grand_prix=grand_prix)
            .order_by("seq")
            .values("phase", "round", "kind", "entry_id", "data")
        )
        if kept_events != self.event_lines(run):
            differences.append(
                f"events: {len(kept_events)} stored, {len(self.event_lines(run))} replayed"
            )
        if grand_prix.trace != run.outcome.get("trace"):
            differences.append("position trace differs")
        return differences

    # --- the league's public pages (plugins.protocol.GameAdapter, motor.league.pages) ----

    league_templates: Mapping[str, str] = MappingProxyType(league_pages.TEMPLATES)

    def league_season(
        self,
        event: Any,
        *,
        season: Any,
        rounds: Sequence[Any],
        teams: Sequence[Any],
        last: int | None,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
    ) -> dict[str, Any]:
        return {
            **league_pages.season_part(event, rounds=rounds, teams=teams, last=last, seats=seats),
            "ruleset_label": self.label,
        }

    def league_round(
        self,
        event: Any,
        *,
        season: Any,
        round: Any,
        visible: bool,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        reinstate: bool,
    ) -> dict[str, Any]:
        return league_pages.round_part(
            event, season=season, round=round, visible=visible, seats=seats
        )

    def league_team(
        self,
        event: Any,
        *,
        season: Any,
        team: Any,
        seats: Sequence[Any],
        upto: int,
        upto_event: Any,
    ) -> dict[str, Any]:
        return league_pages.team_part(seats=seats, upto_event=upto_event)

    def league_dice(
        self,
        rolls: Sequence[Any],
        *,
        season: Any,
        seats: Sequence[Any],
        rule_link: Callable[[Any], Any],
    ) -> dict[str, Any]:
        return league_pages.dice_part(rolls, seats=seats)

    # --- the read API (plugins.protocol.GameAdapter, motor.league.api) ---------------------

    def api_tables(self) -> list[tuple[str, str, str]]:
        return league_api.tables()

    def api_results(
        self, event: Any, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
    ) -> list[dict[str, Any]]:
        return league_api.results_lines(event, team_names=team_names, team_of=team_of)

    def api_standing(
        self, event: Any, table: str, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
    ) -> list[dict[str, Any]] | None:
        return league_api.standing_lines(event, table, team_names=team_names, team_of=team_of)

    def api_events(self, event: Any) -> list[dict[str, Any]]:
        return league_api.event_lines(event)

    def league_standings_url(self, slug: str) -> str:
        return reverse("season-motor-standings", args=[slug, "drivers"])

    league_event_pages: Collection[str] = league_pages.EVENT_PAGES

    def league_event_page(
        self,
        page: str,
        request: Any,
        *,
        season: Any,
        event: Any,
        key: Any,
        upto: int,
        renderer: Callable[[str, dict[str, Any]], Any] | None,
    ) -> Any:
        return league_pages.event_page(
            page, request, season=season, event=event, key=key, upto=upto, renderer=renderer
        )

    # --- the printed sheets (plugins.protocol.GameAdapter, motor.league.sheets) ----------

    def round_sheet_blocks(
        self,
        event: Any,
        *,
        season: Any,
        round: Any,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
    ) -> list[Block]:
        return league_sheets.round_blocks(event, round=round, seats=seats())

    def event_sheet_blocks(self, event: Any, *, team_names: Mapping[int, str]) -> list[Block]:
        return league_sheets.championship_blocks(event)

    # --- the end of the race (plugins.protocol.GameAdapter, motor.league.ranking) ---------

    _RANKING_COLUMNS: Mapping[str, Any] = MappingProxyType(
        {"score": gettext_lazy("Points"), "behind": gettext_lazy("Wins")}
    )

    def league_ranking_choices(self) -> Sequence[tuple[str, Any]]:
        # A championship always ranks its players by their drivers' points.
        return ()

    def league_ranking_columns(self, scoring: str) -> Mapping[str, Any]:
        return self._RANKING_COLUMNS

    def league_ranking(
        self,
        event: Any,
        *,
        players: Mapping[int, Sequence[str]],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        scoring: str,
    ) -> list[tuple[int | None, int, str, str]]:
        return league_results.ranking(event, players=players, seats=seats())

    def league_end(
        self,
        event: Any,
        *,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        players: Mapping[int, Sequence[str]],
        scoring: str,
    ) -> dict[str, Any]:
        return league_results.end(event, seats=seats(), players=players)

    def league_season_points_choices(self) -> Sequence[tuple[str, Any]]:
        # A championship scores with its own points system.
        return ()

    def season_tables(
        self,
        *,
        events: Sequence[tuple[int, Any, Any]],
        players: Mapping[int, Sequence[str]],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        system: str,
    ) -> SeasonTables:
        # The championship's own tables after the Grand Prix: its drivers' standings and the
        # players' ranking of the end of the championship (a motor season is unchanged).
        grand_prix = events[-1][2] if events else None
        return SeasonTables(
            riders=league_results.season_drivers(grand_prix),
            players=league_results.season_players(grand_prix, players=players, seats=seats()),
        )

    def league_abandons(
        self, event: Any, *, numbers: Iterable[int], team_names: Mapping[int, str]
    ) -> list[dict[str, Any]] | None:
        # A championship lists its retirements on each Grand Prix's page.
        return None
