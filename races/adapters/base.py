"""What every cycling adapter does the same way; a ruleset's module adds only its own part.

The one module family that knows both the engine's dataclasses and the ORM: rows to plain
engine inputs (and back from their stored JSON for replays), an outcome to StageResult and
RaceEvent rows (and the dice rows the season keeps with its round), and one timing pipeline
shared by resolution and replay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy, gettext_noop, pgettext

from engine import commitment, get_ruleset, simulate
from engine.cycling.course import Course, Segment
from engine.cycling.hooks import CyclingHooks
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.outcome import Outcome
from engine.cycling.profile import Profile
from engine.odds import RunLine
from engine.outcome import Event
from engine.registry import cycling_ruleset
from engine.ruleset import CYCLING, Ruleset
from engine.spec import Spec
from races.adapters.formation import CyclingFormation
from races.adapters.spec_forms import rider_fields_from_spec, settings_fields_from_spec
from races.league import pages as league_pages
from races.league import ranking as league_results
from races.models import RaceEvent, Stage, StageResult
from races.timing import (
    FINISHED,
    UNSCALED_GAPS,
    EngineLine,
    TimedLine,
    TimingRules,
    stage_times,
)
from riders.models import RATING_AXES, Rider

#: Key of the ruleset version in a stage's stored inputs.
ENGINE_VERSION_KEY = "engine_version"

#: The status reason of a rider the organiser kept in the race after the time cut (R-T3); the
#: StageResult.reinstated marks him (the timing and the replay read the field, not this text).
REINSTATED_REASON = gettext_noop("reinstated by the organiser")


@dataclass(frozen=True)
class EntrantSpec:
    """What the season knows of a starter: who, for which league team, with which orders and
    which state carried from the previous stage (the ruleset reads both)."""

    rider_id: int
    team_id: int
    bib: int
    role: str = "domestique"
    tour_crash_count: int = 0
    gc_rank_before: int | None = None
    gc_time_before: int = 0
    #: The orders as the season stores them: the fields of the ruleset's orders spec.
    orders: Mapping[str, Any] = field(default_factory=dict)
    #: The ``carried`` of the rider's previous result (Cyclo Sim: his energy consumed).
    carried: Mapping[str, Any] = field(default_factory=dict)


def course_from_stage(stage: Stage) -> Course:
    return Course(
        name=f"{stage.start} – {stage.finish}" if stage.start else f"Stage {stage.number}",
        stage_type=stage.stage_type,
        distance_km=float(stage.distance_km),
        segments=tuple(
            Segment(terrain=s["terrain"], km=float(s["km"]), name=s.get("name", ""))
            for s in stage.segments
        ),
        intermediate_sprints_km=tuple(float(km) for km in stage.intermediate_sprints_km),
    )


def profile_of(rider: Rider) -> Profile:
    """The engine's profile of a rider: his eight ratings."""
    return Profile(**{axis: getattr(rider, axis) for axis in RATING_AXES})


def dice_rows(outcome: Outcome) -> list[list[Any]]:
    return [[d.turn, d.unit, d.rider_id, d.rule_id, d.die, d.face] for d in outcome.dice]


def dice_sha256(rows: Iterable[Sequence[Any]]) -> str:
    text = json.dumps(list(rows), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _case_of(event: Event) -> int | None:
    case = event.data.get("case")
    return case if type(case) is int else None


class CyclingAdapter(CyclingFormation, commitment.DiceCommitment):
    """A cycling ruleset's adapter. A subclass sets ``name``, ``label``, ``how_it_works`` and
    overrides what its ruleset does differently (the orders form's cross-field checks, the
    settings the season's rules already hold, the gap scale)."""

    name: str = ""
    discipline = CYCLING
    #: The ruleset as the season's settings form offers it (translated lazily).
    label: Any = ""
    #: One paragraph for the "how it works" page.
    how_it_works: Any = ""
    #: Shown above the orders table (None: nothing).
    orders_legend: Any = None
    #: What a round of this game is called, one and several (commands' messages).
    round_noun = "stage"
    rounds_noun = "stages"

    @staticmethod
    def round_label(number: int) -> str:
        """Round ``number`` as a sentence names it, in the active language ("stage 3",
        "l'étape 3": feminine, with its article, as a championship's round is)."""
        return pgettext("a stage of a stage race, in a sentence", "stage %(number)s") % {
            "number": number
        }

    @staticmethod
    def event_label(event: Any) -> str:
        """A round's event as the notices name it: a stage's start and finish."""
        return f"{event.start} – {event.finish}" if event is not None else ""

    #: The league's defaults of some of the ruleset's settings, where they differ from the
    #: engine's (docs/rules-choices.md); the organiser's values come on top.
    season_defaults: Mapping[str, Any] = MappingProxyType({})
    #: How the ruleset's gaps are stretched into times, by stage type, and the seconds of a
    #: gap left as they are before the scale applies (races.timing.TimingRules); a season's
    #: own gap scale overrides it per stage type.
    gap_scale: Mapping[str, float] = UNSCALED_GAPS
    gap_scale_after_s: int = 0

    # --- the ruleset -------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset[Any, Any, Any]:
        return get_ruleset(self.name)

    @property
    def hooks(self) -> CyclingHooks[Any]:
        hooks = cycling_ruleset(self.name).cycling
        assert hooks is not None
        return hooks

    @property
    def version(self) -> int:
        """The version of the ruleset this engine runs."""
        return self.ruleset.version

    # --- orders ------------------------------------------------------------------------

    @property
    def orders_spec(self) -> Spec:
        """The orders a player gives each rider: fields, choices, bounds, defaults and help
        text, from the engine (the one source of the order defaults)."""
        return self.ruleset.orders_spec

    def orders_stored(self, order: Mapping[str, Any]) -> dict[str, Any]:
        """A rider's orders as the season stores them: every field of the spec, given or at
        its default."""
        defaults = self.orders_spec.defaults()
        return {name: order.get(name, defaults[name]) for name in self.orders_spec.names}

    def orders_errors(self, *, orders: Mapping[Any, Mapping[str, Any]], round: Any) -> list[str]:
        """The engine's own check of a team's orders on the stage's course, as readable
        messages naming the rider and the field; then the checks across one rider's fields
        (``rider_clean``), which the orders form also shows by its field, so that no path to
        the service (the admin, a command, another view) stores what the form refuses."""
        stage: Stage = round.stage
        errors = {
            who: dict(fields)
            for who, fields in self.hooks.orders_errors(orders, course_from_stage(stage)).items()
        }
        distance = float(stage.distance_km) if stage.distance_km else None
        labels = {f.name: f.label for f in self.orders_spec}
        for who, order in orders.items():
            for name, message in self.rider_clean(order, distance_km=distance).items():
                errors.setdefault(str(who), {}).setdefault(labels.get(name, name), message)
        names = {
            str(pk): name
            for pk, name in Rider.objects.filter(pk__in=orders).values_list("pk", "name")
        }
        return [
            f"{names.get(str(who), f'Rider {who}')}, {name}: {message}"
            for who, fields in sorted(errors.items())
            for name, message in sorted(fields.items())
        ]

    def order_fields(self, given: Mapping[str, Any]) -> dict[str, forms.Field]:
        """One rider's row of the orders form, generated from the orders spec."""
        return rider_fields_from_spec(self.orders_spec, given)

    def rider_clean(
        self, values: Mapping[str, Any], *, distance_km: float | None
    ) -> dict[str, Any]:
        """Checks across one rider's fields, {field name: message}; none by default."""
        return {}

    # --- settings ----------------------------------------------------------------------

    @property
    def settings_spec(self) -> Spec:
        return self.ruleset.settings_spec

    def settings_fields(self, values: Mapping[str, Any]) -> dict[str, forms.Field]:
        """The organiser's settings form of this ruleset, generated from its settings spec
        (every setting, within its bounds), filled with ``values``."""
        return settings_fields_from_spec(self.settings_spec, values)

    def season_values(self, rules: Any) -> dict[str, Any]:
        """The ruleset's settings a season holds: the league's defaults, with what the
        organiser set in the generated form (``rules.engine``) on top."""
        return {**self.season_defaults, **rules.engine}

    def engine_settings(self, rules: Any) -> Any:
        """The ruleset's own settings object of a season: its defaults, with the season's
        values (checked against the spec: ValueError naming the field out of bounds)."""
        codec = self.ruleset.settings
        assert codec is not None
        return codec.from_data(self.season_values(rules))

    def timing_rules(self, rules: Any) -> TimingRules:
        """How the engine's gaps become times in this ruleset (the season's rules)."""
        return rules.timing_rules(
            gap_scale=self.gap_scale, gap_scale_after_s=self.gap_scale_after_s
        )

    # --- inputs, simulation, outcome ---------------------------------------------------

    def inputs_build(
        self,
        *,
        stage: Stage,
        entrants: Sequence[EntrantSpec],
        rules: Any,
        yellow_jersey: int | None = None,
        green_jersey: int | None = None,
    ) -> StageInputs[Any, Any]:
        """Engine inputs for a stage; ``entrants`` come in start order (GC order, or bib
        order). Each rider's ruleset part is built by the ruleset from his orders and carried
        state."""
        hooks = self.hooks
        riders = Rider.objects.in_bulk([spec.rider_id for spec in entrants])
        course = course_from_stage(stage)
        extras = {}
        for spec in entrants:
            own = hooks.rider_of(dict(spec.orders), dict(spec.carried), course)
            if own != hooks.rider.default:
                extras[spec.rider_id] = own
        return StageInputs(
            course=course,
            entrants=tuple(
                Entrant(
                    rider_id=spec.rider_id,
                    team_id=spec.team_id,
                    bib=spec.bib,
                    profile=profile_of(riders[spec.rider_id]),
                    role=spec.role,
                    tour_crash_count=spec.tour_crash_count,
                    gc_rank_before=spec.gc_rank_before,
                    gc_time_before=spec.gc_time_before,
                )
                for spec in entrants
            ),
            settings=self.engine_settings(rules),
            extras=extras,
            yellow_jersey=yellow_jersey,
            green_jersey=green_jersey,
        )

    def simulate(self, inputs: StageInputs[Any, Any], *, seed: int) -> Outcome:
        return simulate(self.name, inputs, seed)

    def inputs_to_data(self, inputs: StageInputs[Any, Any]) -> dict[str, Any]:
        """The inputs in the ruleset's one JSON form, stored with the stage so that it can be
        replayed, with the version of the ruleset that resolved it."""
        codec = cycling_ruleset(self.name).inputs
        assert codec is not None
        return {**codec.to_data(inputs), ENGINE_VERSION_KEY: self.version}

    def inputs_from_data(self, data: Mapping[str, Any]) -> StageInputs[Any, Any]:
        """Stored inputs back, through the ruleset's inputs codec (older formats too)."""
        codec = cycling_ruleset(self.name).inputs
        assert codec is not None
        return codec.from_data({k: v for k, v in data.items() if k != ENGINE_VERSION_KEY})

    @staticmethod
    def stored_version(data: Mapping[str, Any]) -> int | None:
        """The ruleset version stored with the inputs (None: stored before versions)."""
        version = data.get(ENGINE_VERSION_KEY)
        return int(version) if version is not None else None

    def stage_times(
        self,
        *,
        stage: Stage,
        outcome: Outcome,
        rules: Any,
        reinstated: Collection[int] = (),
    ) -> list[TimedLine]:
        """The one timing pipeline of resolution and replay: the outcome's gaps to times,
        bonuses and time-cut statuses (races.timing), with ``reinstated`` riders kept in the
        race when they miss the time cut (R-T3)."""
        kept = set(reinstated)
        return stage_times(
            lines=[
                EngineLine(
                    rider_id=r.rider_id,
                    rank=r.rank,
                    gap_seconds=r.gap_seconds,
                    final_group=r.final_group,
                    status=r.status,
                    reinstated=r.rider_id in kept,
                )
                for r in outcome.results
            ],
            stage_type=stage.stage_type,
            distance_km=float(stage.distance_km),
            rules=self.timing_rules(rules),
            intermediate_sprints=[
                e.rider_ids for e in outcome.events if e.kind == "intermediate_sprint"
            ],
        )

    @staticmethod
    def dice_rows(outcome: Outcome) -> list[list[Any]]:
        """The outcome's dice log as the round stores it: one row a roll, ``[turn, unit,
        rider_id, rule_id, die, face]``."""
        return dice_rows(outcome)

    @staticmethod
    def dice_log(outcome: Outcome) -> tuple[int, str]:
        """The number of rolls and the sha256 of an outcome's dice log, as stored."""
        rows = dice_rows(outcome)
        return len(rows), dice_sha256(rows)

    def outcome_write(
        self,
        *,
        stage: Stage,
        outcome: Outcome,
        timed: Sequence[TimedLine],
        team_of: Mapping[int, int],
    ) -> None:
        """Write an outcome's rows (results and events; the season keeps the dice with its
        round, from :meth:`dice_rows`). Call inside the resolving transaction."""
        by_rider = {result.rider_id: result for result in outcome.results}
        rider_teams = dict(Rider.objects.filter(pk__in=by_rider).values_list("pk", "team_id"))
        StageResult.objects.bulk_create(
            StageResult(
                stage=stage,
                rider_id=line.rider_id,
                team_id=rider_teams.get(line.rider_id),
                entry_team_id=team_of[line.rider_id],
                rank=line.rank,
                status=line.status,
                status_reason=line.status_reason,
                time_seconds=line.time_seconds,
                gap_seconds=line.gap_seconds,
                bonus_seconds=line.bonus_seconds,
                final_case=by_rider[line.rider_id].final_case,
                squares_behind=by_rider[line.rider_id].squares_behind,
                final_group=by_rider[line.rider_id].final_group,
                crashes=[asdict(crash) for crash in by_rider[line.rider_id].crashes],
                state=dict(by_rider[line.rider_id].carried),
            )
            for line in timed
        )
        RaceEvent.objects.bulk_create(
            RaceEvent(
                stage=stage,
                seq=seq,
                turn=event.turn,
                kind=event.kind,
                rider_id=event.rider_ids[0] if event.rider_ids else None,
                rider_ids=list(event.rider_ids),
                case=_case_of(event),
                detail=str(event.data.get("rule", "")),
                data=dict(event.data),
            )
            for seq, event in enumerate(outcome.events, start=1)
        )

    #: The rules page's words for what a player orders (templates/season/public/rules.html).
    page_words: Mapping[str, Any] = MappingProxyType(
        {
            "orders_heading": gettext_lazy("The orders you give each rider"),
            "no_orders": gettext_lazy("A rider without orders rides with his role as it stands."),
        }
    )
    #: The codes of the dice log and their texts (the rules page's "What the dice decide").
    rule_texts: Mapping[str, Any] = MappingProxyType({})

    # --- odds (season.services.odds) ----------------------------------------------------

    #: The odds table's columns as this discipline says them (docs/odds.md).
    odds_labels: Mapping[str, Any] = MappingProxyType(
        {
            "name": gettext_lazy("Rider"),
            "top10": gettext_lazy("Top 10"),
            "lead": gettext_lazy("Leads after the stage"),
            "out": gettext_lazy("Abandons"),
            "expected": gettext_lazy("Expected gap"),
            # The odds page's words (templates/season/odds.html).
            "intro": gettext_lazy(
                "The stage simulated again and again with the orders given so far (the default "
                "orders for the teams that have given none), each run with dice of its own. The "
                "real dice are drawn at the deadline: these are chances, not the result."
            ),
            "draft": gettext_lazy(
                "With the draft of your orders (not saved). Your riders' chance to win with your "
                "saved orders stands beside it."
            ),
        }
    )
    #: The odds' expectation of a rider: his gap in time (season.views.odds).
    odds_expected = "expected_gap"

    def odds_runner(
        self, inputs_data: Mapping[str, Any], *, round: Any, rules: Any
    ) -> Callable[[int], list[RunLine]]:
        """One run of a stage's stored inputs with a given seed, as the odds count it: each
        rider's place, out or not (after the time cut: the resolution's timing), gap, and time
        in the general classification after the stage (his time before, plus the stage's, less
        its bonuses; no penalties, no tie-break beyond the stage place)."""
        stage: Stage = round.stage
        inputs = self.inputs_from_data(inputs_data)
        before = {e.rider_id: e.gc_time_before for e in inputs.entrants}

        def run(seed: int) -> list[RunLine]:
            outcome = self.simulate(inputs, seed=seed)
            lines = []
            for line in self.stage_times(stage=stage, outcome=outcome, rules=rules):
                finished = line.status == FINISHED
                lines.append(
                    RunLine(
                        line.rider_id,
                        line.rank if finished else None,
                        out=not finished,
                        gap=float(line.gap_seconds),
                        standing=float(
                            before[line.rider_id] + line.time_seconds - line.bonus_seconds
                        )
                        if finished
                        else None,
                    )
                )
            return lines

        return run

    # --- pages -------------------------------------------------------------------------

    def team_energy(
        self, *, rules: Any, starters: Sequence[Any], carried: Mapping[int, Mapping[str, Any]]
    ) -> dict[int, tuple[int, int]]:
        """Each starter's energy at the start of the stage, ``(left, max)``, for a ruleset
        that counts one (empty otherwise)."""
        return {}

    # --- the league's public pages (plugins.protocol.GameAdapter, races.league.pages) ----

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
        return league_pages.season_part(
            event, season=season, rounds=rounds, last=last, team_names=team_names
        )

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
            event,
            season=season,
            visible=visible,
            team_names=team_names,
            seats=seats,
            reinstate=reinstate,
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
        return league_pages.team_part(event, season=season, seats=seats, upto=upto)

    def league_dice(
        self,
        rolls: Sequence[Any],
        *,
        season: Any,
        seats: Sequence[Any],
        rule_link: Callable[[Any], Any],
    ) -> dict[str, Any]:
        return league_pages.dice_part(rolls, seats=seats, rule_link=rule_link)

    def league_standings_url(self, slug: str) -> str:
        return reverse("season-standings", args=[slug, "general"])

    #: A stage race's stages and classifications are the season's own pages.
    league_event_pages: Collection[str] = ()

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
        raise LookupError(f"a stage race serves no page {page!r} of its own")

    # --- the end of the race (plugins.protocol.GameAdapter, races.league.ranking) ---------

    ranking_columns: Mapping[str, Any] = MappingProxyType({})

    def league_ranking(
        self,
        event: Any,
        *,
        players: Mapping[int, Sequence[str]],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
    ) -> list[tuple[int | None, int, str, str]]:
        return list(league_results.ranking(event, players=players))

    def league_end(
        self,
        event: Any,
        *,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
    ) -> dict[str, Any]:
        return league_results.end(event, team_names=team_names)

    def league_abandons(
        self, event: Any, *, numbers: Iterable[int], team_names: Mapping[int, str]
    ) -> list[dict[str, Any]] | None:
        return league_results.abandons(event, numbers=numbers, team_names=team_names)
