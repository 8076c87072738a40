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
from django.db.models import Exists, F, OuterRef, Value
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext

from engine import commitment, get_ruleset, simulate
from engine.cycling.course import Course, Segment
from engine.cycling.hooks import CyclingHooks
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.outcome import Outcome
from engine.cycling.profile import Profile
from engine.outcome import Event
from engine.registry import cycling_ruleset
from engine.ruleset import CYCLING, Ruleset
from engine.spec import Spec
from plugins.event_keys import event_key, event_pk
from plugins.odds import RunLine
from plugins.protocol import SeasonTables, Starter
from races import formatting
from races.adapters.formation import CyclingFormation
from races.adapters.orders_page import CyclingOrdersPage
from races.adapters.spec_forms import (
    orders_carried,
    rider_fields_from_spec,
    settings_fields_from_spec,
)
from races.course_generation import route_problems, stage_courses_generate
from races.course_validation import stage_course_errors
from races.league import api as league_api
from races.league import pages as league_pages
from races.league import ranking as league_results
from races.league import season_points
from races.league import sheets as league_sheets
from races.league.tables import CalendarTable
from races.models import (
    Classification,
    Race,
    RaceEntry,
    RaceEvent,
    Stage,
    StageResult,
    Standing,
)
from races.ratings import ratings_of
from races.services import (
    league_race_slug,
    race_copy_for_league,
    review_counts_annotate,
    template_races,
)
from races.standings import fork_problems, fork_stages, standings_update
from races.timing import (
    FINISHED,
    UNSCALED_GAPS,
    EngineLine,
    TimedLine,
    TimingRules,
    stage_times,
)
from riders.models import RATING_AXES, Rider
from sheets import Block
from specforms.references import linked_references

#: The statuses of a rider out of the race for the rest of it (crashed out, abandoned, outside
#: the time limit).
OUT_OF_RACE = tuple(s for s in StageResult.Status.values if s != StageResult.Status.FINISHED)

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


def profile_of(ratings: Mapping[str, int]) -> Profile:
    """The engine's profile of a rider: his eight ratings, as his race rates him
    (races.ratings: a league's snapshot)."""
    return Profile(**{axis: int(ratings[axis]) for axis in RATING_AXES})


def dice_rows(outcome: Outcome) -> list[list[Any]]:
    return [[d.turn, d.unit, d.rider_id, d.rule_id, d.die, d.face] for d in outcome.dice]


def dice_sha256(rows: Iterable[Sequence[Any]]) -> str:
    text = json.dumps(list(rows), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _case_of(event: Event) -> int | None:
    case = event.data.get("case")
    return case if type(case) is int else None


def _first_difference(a: Sequence[object], b: Sequence[object]) -> int:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


class CyclingAdapter(CyclingFormation, CyclingOrdersPage, commitment.DiceCommitment):
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
    def rounds_count_text(count: int) -> str:
        return ngettext("%(count)d stage", "%(count)d stages", count) % {"count": count}

    #: What the orders page says once every round is resolved.
    over_text = gettext_lazy("The race is over: every stage has been resolved.")

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
        (``seat_clean``), which the orders form also shows by its field, so that no path to
        the service (the admin, a command, another view) stores what the form refuses."""
        stage: Stage = round.stage
        # The season names a rider's seat by his id as text; the engine's check takes ids.
        orders = {int(who): order for who, order in orders.items()}
        errors = {
            who: dict(fields)
            for who, fields in self.hooks.orders_errors(orders, course_from_stage(stage)).items()
        }
        labels = {f.name: f.label for f in self.orders_spec}
        for who, order in orders.items():
            for name, message in self.seat_clean(order, round=round).items():
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

    def orders_carry(
        self,
        previous_data: Mapping[str, Mapping[str, Any]],
        round: Any,
        *,
        starters: Sequence[Starter],
    ) -> tuple[dict[str, dict[str, Any]], list[str]]:
        """A rider's orders carry while he is still in the race, field by field as this
        stage still takes them (the attack window inside its length); the engine checks each
        rider's orders on the stage's course. A rider whose role did not carry keeps his role
        in the squad."""
        stage: Stage = round.stage
        course = course_from_stage(stage)
        racing = self.starters_racing(event=stage, starters=starters)

        def seat_errors(key: str, order: dict[str, Any]) -> list[str]:
            fields = self.hooks.orders_errors({int(key): order}, course).get(key, {})
            return [f"{name}: {why}" for name, why in sorted(dict(fields).items())]

        data, notes = orders_carried(
            self.orders_spec,
            previous_data,
            racing={s.key: self.seat_label(s) for s in racing},
            labels={s.key: self.seat_label(s) for s in starters},
            offered=self.order_fields,
            seat_clean=lambda values: self.seat_clean(values, round=round),
            seat_errors=seat_errors,
        )
        roles = {s.key: s.role for s in racing if s.role}
        for key, order in data.items():
            if key in roles and "role" in self.orders_spec.names:
                order.setdefault("role", roles[key])
        return data, notes

    # --- settings ----------------------------------------------------------------------

    @property
    def settings_spec(self) -> Spec:
        return self.ruleset.settings_spec

    def settings_fields(self, values: Mapping[str, Any]) -> dict[str, forms.Field]:
        """The organiser's settings form of this ruleset, generated from its settings spec
        (every setting, within its bounds), filled with ``values``."""
        return settings_fields_from_spec(self.settings_spec, values, help_html=self.help_html)

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

    # --- the league: the event a season runs, its rounds (season.leagues) ---------------

    #: The heading of the events a league of this game runs, and what choosing one gives.
    league_events_label: Any = gettext_lazy("Stage races")
    league_events_help: Any = gettext_lazy(
        "A stage race: the season runs a copy of its stages, one orders deadline per stage."
    )
    #: The season's settings a cycling league does not use: none.
    league_settings_unused: tuple[str, ...] = ()
    _EVENT_KEY = "race"

    def league_events(self) -> list[tuple[str, str]]:
        """The real races with a route, as (key, name) for the create form."""
        races = review_counts_annotate(
            template_races().annotate(
                has_start_list=Exists(RaceEntry.objects.filter(race=OuterRef("pk")))
            )
        )
        return [(event_key(self._EVENT_KEY, race.pk), self._event_label(race)) for race in races]

    @staticmethod
    def _event_label(race: Race) -> str:
        if not race.has_start_list:  # type: ignore[attr-defined]
            return _("%(race)s (no start list)") % {"race": race}
        if race.ratings_not_reviewed:  # type: ignore[attr-defined]
            # Said when the organiser picks it; a warning, not a refusal (docs/profiles.md).
            return ngettext(
                "%(race)s (%(count)d rider not reviewed)",
                "%(race)s (%(count)d riders not reviewed)",
                race.ratings_not_reviewed,  # type: ignore[attr-defined]
            ) % {"race": race, "count": race.ratings_not_reviewed}  # type: ignore[attr-defined]
        return str(race)

    def league_event_get(self, key: str) -> Race | None:
        pk = event_pk(key, kind=self._EVENT_KEY)
        return None if pk is None else template_races().filter(pk=pk).first()

    def league_event_fits(self, event: Any) -> bool:
        """Every stage race is raced by every cycling game."""
        return isinstance(event, Race)

    def league_event_problems(self, event: Race) -> list[str]:
        """The stages that cannot be raced (races.course_generation.route_problems)."""
        stages = list(event.stages.order_by("number"))
        return route_problems(stages) if stages else [str(_("The route has no stage."))]

    def league_round_count(self, event: Race) -> int:
        """The stages a league races: those after the given ones of a forked copy."""
        return event.stages.filter(number__gt=event.start_after).count()

    def league_copy_taken(self, *, slug: str, event: Race) -> bool:
        return Race.objects.filter(slug=league_race_slug(slug=slug, template=event)).exists()

    def league_create_fields(self) -> dict[str, forms.Field]:
        return {
            "start_after": forms.IntegerField(
                label=gettext_lazy("Start after stage"),
                min_value=0,
                max_value=99,
                initial=0,
                required=False,
                help_text=gettext_lazy(
                    "0: from the start. A stage N of a race with real results: the league "
                    "starts at stage N+1 from the real race's state after stage N (times, "
                    "classifications, jerseys, abandons)."
                ),
            )
        }

    def league_round_number(self, event: Race, within: int) -> int:
        """A forked copy's round 1 is the stage after its given ones."""
        return within + event.start_after

    def league_options_problems(self, event: Race, *, options: Mapping[str, Any]) -> list[str]:
        """A stage to start after whose real state is not known (races.standings
        fork_problems), with the stages that can be started after."""
        start_after = options.get("start_after") or 0
        problems = fork_problems(race=event, after_stage=start_after)
        if not problems:
            return []
        offered = ", ".join(str(n) for n in fork_stages(event))
        return [
            *problems,
            _("%(race)s can start after stage: %(offered)s.")
            % {"race": event.name, "offered": offered},
        ]

    def league_event(
        self, *, event: Race, slug: str, name: str, rules: Any, options: Mapping[str, Any]
    ) -> Race:
        """The league's copy of the route; stages the template left without a course get the
        generated one in the copy (docs/import.md "Generated courses")."""
        race = race_copy_for_league(
            template=event,
            name=name,
            slug=league_race_slug(slug=slug, template=event),
            start_after=options.get("start_after") or 0,
        )
        stage_courses_generate(stages=[s for s in race.stages.all() if not s.segments])
        return race

    def league_season_fields(self, event: Race) -> dict[str, Any]:
        return {}

    def league_event_fields(self, event: Race) -> dict[str, Any]:
        return {"race": event}

    #: A cycling season is a calendar of stage races: more join it as the year goes on.
    league_calendar_grows = True

    def league_rounds(self, event: Race) -> list[dict[str, Any]]:
        """One round per stage, numbered as the stage (after a forked copy's given ones)."""
        stages = event.stages.filter(number__gt=event.start_after).order_by("number")
        return [{"number": s.number, "stage": s} for s in stages]

    def league_settings_changed(self, *, season: Any, rounds: Any) -> int:
        """A cycling stage holds nothing the game's settings give: nothing to update."""
        return 0

    # --- the organiser's page --------------------------------------------------------

    def league_source(self, event: Race) -> str:
        return event.template.name if event.template_id else event.name  # type: ignore[union-attr]

    def league_capacity_text(self, event: Race, *, roster_size: int) -> str:
        teams = self.pool_size(event) // max(roster_size, 1)
        if not self.start_list_size(event):
            return ngettext(
                "The race has no start list: the teams are picked from the riders of the year's "
                "real teams, enough for %(teams)d team.",
                "The race has no start list: the teams are picked from the riders of the year's "
                "real teams, enough for %(teams)d teams.",
                teams,
            ) % {"teams": teams}
        return ngettext(
            "The start list has riders for %(teams)d team.",
            "The start list has riders for %(teams)d teams.",
            teams,
        ) % {"teams": teams}

    def league_formation_notes(self, *, season: Any, players: int) -> list[str]:
        event = season.event
        notes = [
            _("Peloton: %(peloton)s") % {"peloton": season.get_peloton_display()},
            self.peloton_text(event, peloton=season.peloton),
        ]
        if event.start_after:
            notes.insert(0, league_pages.fork_text(event))
        warning = self.ratings_warning(event)
        return [*notes, warning] if warning else notes

    def league_standings_lines(self, event: Race, *, number: int, limit: int = 20) -> list[str]:
        rows = (
            Standing.objects.filter(
                stage__race=event, stage__number=number, classification=Classification.GENERAL
            )
            .select_related("rider")
            .order_by("rank")[:limit]
        )
        lines = [f"General classification after stage {number}:"]
        for row in rows:
            shown = formatting.gap(row.gap) or formatting.clock(row.value)
            name = row.rider.name if row.rider else ""
            lines.append(f"{row.rank:>3}. {name:<28} {shown:>10}")
        return lines

    def league_calendar(self, event: Race, *, season: Any, rounds: Any) -> CalendarTable:
        return CalendarTable(
            list(rounds.select_related("stage")), season=season, prefix="calendar-"
        )

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
        # As the league rates them: its snapshot, taken when its team formation started.
        ratings = ratings_of(race_id=stage.race_id, rider_ids=[spec.rider_id for spec in entrants])
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
                    profile=profile_of(ratings[spec.rider_id]),
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
                # The time cut's reason, else the engine's (an abandon roll's criterion, a
                # crash): the abandons list tells it in words (races.league.reasons).
                status_reason=line.status_reason or (by_rider[line.rider_id].abandon_reason or ""),
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
            "budget_help": gettext_lazy(
                "Budget picks only: the most a team's riders may cost together."
            ),
        }
    )
    #: The codes of the dice log and their texts (the rules page's "What the dice decide").
    rule_texts: Mapping[str, Any] = MappingProxyType({})
    #: The short wording of the rules the pages cite (specforms.references).
    rule_titles: Mapping[str, Any] = MappingProxyType({})

    def help_html(self, text: str) -> str:
        """A help text with the rules it cites linked to this game's rules page."""
        return linked_references(
            text, ruleset=self.name, titles=self.rule_titles, texts=self.rule_texts
        )

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
        its bonuses; no penalties, no tie-break beyond the stage place). The engine's lean
        path: no dice log, no events but the lines', the same results as the resolution's."""
        stage: Stage = round.stage
        inputs = self.inputs_from_data(inputs_data)
        before = {e.rider_id: e.gc_time_before for e in inputs.entrants}

        def run(seed: int) -> list[RunLine]:
            outcome = simulate(self.name, inputs, seed, lean=True)
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

    # --- a round: one stage of the league's race (plugins.GameAdapter) -------------------

    #: The message naming the riders a team's orders give that are not among its starters.
    unknown_seats: Any = gettext_lazy("Riders %(ids)s are not in this team's starting riders.")

    @staticmethod
    def round_event(round: Any) -> Stage | None:
        stage: Stage | None = round.stage
        return stage

    @staticmethod
    def round_errors(event: Stage) -> list[str]:
        """A course the engine would refuse, refused before any input is built (naming the
        stage)."""
        return list(stage_course_errors(event))

    @staticmethod
    def riders_out(stage: Stage) -> set[int]:
        """The riders out of the race before ``stage``: crashed out, abandoned or outside the
        time limit on an earlier stage are out for the rest of it (ARCHITECTURE "Abandons")."""
        return CyclingAdapter._out_and_still_in(stage)[0]

    @staticmethod
    def _out_and_still_in(stage: Stage) -> tuple[set[int], set[int] | None]:
        """The riders out of the race before ``stage``, and in a copy forked after stage N the
        riders in its general classification after N (None for a race raced from the start),
        in one query: the pages that list a stage's starters count their queries."""
        out = (
            StageResult.objects.filter(
                stage__race_id=stage.race_id,
                stage__number__lt=stage.number,
                status__in=OUT_OF_RACE,
            )
            .order_by()
            .values_list("rider_id", Value(False))
        )
        given = (
            Standing.objects.filter(
                stage__race_id=stage.race_id,
                stage__race__start_after__gt=0,
                stage__number=F("stage__race__start_after"),
                stage__number__lt=stage.number,
                classification=Classification.GENERAL,
            )
            .order_by()
            .values_list("rider_id", Value(True))
        )
        rows = list(out.union(given, all=True))
        still_in = {rider for rider, is_given in rows if is_given}
        return {rider for rider, is_given in rows if not is_given}, still_in or None

    def starters_racing(self, *, event: Stage, starters: Sequence[Starter]) -> list[Starter]:
        """The starters not out of the race (and, in a forked copy, in it after the given
        stages)."""
        out, still_in = self._out_and_still_in(event)
        return [
            s
            for s in starters
            if s.competitor_id not in out and (still_in is None or s.competitor_id in still_in)
        ]

    @staticmethod
    def _standing_before(stage: Stage, classification: str) -> list[Standing]:
        return list(
            Standing.objects.filter(
                stage__race_id=stage.race_id,
                stage__number=stage.number - 1,
                classification=classification,
            ).order_by("rank")
        )

    def round_entrants(
        self, *, event: Stage, starters: Sequence[Starter]
    ) -> tuple[list[EntrantSpec], int | None, int | None]:
        """The starters still in the race in start order (GC order; stage 1: bib order), each
        with his orders (his role in them, else his squad role) and the state he carries (the
        GC order of the rules, R-T1; his crashes so far; the ruleset's ``carried`` of his
        previous result), and the wearers of the yellow and green jerseys."""
        racing = self.starters_racing(event=event, starters=starters)
        crash_counts: dict[int, int] = {}
        for rider_id, crashes in StageResult.objects.filter(
            stage__race_id=event.race_id, stage__number__lt=event.number
        ).values_list("rider_id", "crashes"):
            crash_counts[rider_id] = crash_counts.get(rider_id, 0) + len(crashes)
        carried = dict(
            StageResult.objects.filter(
                stage__race_id=event.race_id, stage__number=event.number - 1
            ).values_list("rider_id", "state")
        )
        general = self._standing_before(event, Classification.GENERAL)
        gc = {line.rider_id: line for line in general}
        points = self._standing_before(event, Classification.POINTS)
        specs = []
        for starter in racing:
            standing = gc.get(starter.competitor_id)
            specs.append(
                EntrantSpec(
                    rider_id=starter.competitor_id,
                    team_id=starter.team_id,
                    bib=starter.number,
                    role=starter.orders.get("role", starter.role),
                    tour_crash_count=crash_counts.get(starter.competitor_id, 0),
                    gc_rank_before=standing.rank if standing else None,
                    gc_time_before=standing.value if standing else 0,
                    orders=starter.orders,
                    carried=carried.get(starter.competitor_id) or {},
                )
            )
        big = 10**9
        specs.sort(key=lambda s: (s.gc_rank_before or big, s.bib))
        yellow = general[0].rider_id if general else None
        green = points[0].rider_id if points else None
        return specs, yellow, green

    def round_inputs(
        self, *, event: Stage, starters: Sequence[Starter], rules: Any
    ) -> StageInputs[Any, Any]:
        entrants, yellow, green = self.round_entrants(event=event, starters=starters)
        return self.inputs_build(
            stage=event, entrants=entrants, rules=rules, yellow_jersey=yellow, green_jersey=green
        )

    def inputs_stored(self, inputs: StageInputs[Any, Any]) -> dict[str, Any]:
        return self.inputs_to_data(inputs)

    def round_write(
        self, *, event: Stage, outcome: Outcome, starters: Sequence[Starter], rules: Any
    ) -> None:
        """The stage's results (timed by the season's rules), events and classifications."""
        self.outcome_write(
            stage=event,
            outcome=outcome,
            timed=self.stage_times(stage=event, outcome=outcome, rules=rules),
            team_of={s.competitor_id: s.team_id for s in starters},
        )
        standings_update(stage=event)

    def round_replay(
        self, *, event: Stage, stored_inputs: Mapping[str, Any], seed: int, rules: Any
    ) -> tuple[Outcome, list[str]]:
        """Each rider's stored result (rank, status, times, final case, crashes) and the
        stage's events against a fresh run, timed as the resolution timed it (the riders the
        organiser kept in the race after the time cut reinstated)."""
        outcome = self.simulate(self.inputs_from_data(stored_inputs), seed=seed)
        differences = []
        engine = {r.rider_id: r for r in outcome.results}
        stored = {r.rider_id: r for r in StageResult.objects.filter(stage=event)}
        reinstated = {rider_id for rider_id, row in stored.items() if row.reinstated}
        timed = self.stage_times(stage=event, outcome=outcome, rules=rules, reinstated=reinstated)
        if set(stored) != set(engine):
            differences.append(
                f"riders: {len(stored)} stored, {len(engine)} replayed "
                f"(only stored: {sorted(set(stored) - set(engine))[:10]}, "
                f"only replayed: {sorted(set(engine) - set(stored))[:10]})"
            )
        for line in timed:
            row = stored.get(line.rider_id)
            if row is None:
                continue
            result = engine[line.rider_id]
            replayed = (
                line.rank,
                line.status,
                line.time_seconds,
                line.gap_seconds,
                line.bonus_seconds,
                result.final_case,
                result.squares_behind,
                result.final_group,
                [[c.turn, c.case, c.severity] for c in result.crashes],
            )
            kept = (
                row.rank,
                row.status,
                row.time_seconds,
                row.gap_seconds,
                row.bonus_seconds,
                row.final_case,
                row.squares_behind,
                row.final_group,
                [[c["turn"], c["case"], c["severity"]] for c in row.crashes],
            )
            if replayed != kept:
                differences.append(f"rider {line.rider_id}: stored {kept}, replayed {replayed}")
        stored_events = list(
            RaceEvent.objects.filter(stage=event)
            .order_by("seq")
            .values_list("turn", "kind", "rider_ids", "case")
        )
        replayed_events = [
            (e.turn, e.kind, list(e.entrant_ids), e.data.get("case")) for e in outcome.events
        ]
        if stored_events != replayed_events:
            differences.append(
                f"events: {len(stored_events)} stored, {len(replayed_events)} replayed, first "
                f"difference at #{_first_difference(stored_events, replayed_events) + 1}"
            )
        return outcome, differences

    @staticmethod
    def seat_label(starter: Starter) -> str:
        return starter.name

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

    # --- the read API (plugins.protocol.GameAdapter, races.league.api) ---------------------

    def api_tables(self) -> list[tuple[str, str, str]]:
        return league_api.tables()

    def api_results(
        self, event: Any, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
    ) -> list[dict[str, Any]]:
        return league_api.results_lines(event, team_names=team_names)

    def api_standing(
        self, event: Any, table: str, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
    ) -> list[dict[str, Any]] | None:
        return league_api.standing_lines(event, table, team_names=team_names)

    def api_events(self, event: Any) -> list[dict[str, Any]]:
        return league_api.event_lines(event)

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

    # --- the printed sheets (plugins.protocol.GameAdapter, races.league.sheets) ---------

    def round_sheet_blocks(
        self,
        event: Any,
        *,
        season: Any,
        round: Any,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
    ) -> list[Block]:
        return league_sheets.round_blocks(
            event, round=round, team_names=team_names, timing=self.timing_rules(season.rules)
        )

    def event_sheet_blocks(self, event: Any, *, team_names: Mapping[int, str]) -> list[Block]:
        return league_sheets.event_blocks(event, team_names=team_names)

    # --- the end of the race (plugins.protocol.GameAdapter, races.league.ranking) ---------

    def league_ranking_choices(self) -> Sequence[tuple[str, Any]]:
        return league_results.CHOICES

    def league_ranking_columns(self, scoring: str) -> Mapping[str, Any]:
        return league_results.COLUMNS.get(scoring, {})

    def league_ranking(
        self,
        event: Any,
        *,
        players: Mapping[int, Sequence[str]],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        scoring: str,
    ) -> list[tuple[int | None, int, str, str]]:
        return list(league_results.players_ranking(event, players=players, scoring=scoring))

    def league_end(
        self,
        event: Any,
        *,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        players: Mapping[int, Sequence[str]],
        scoring: str,
    ) -> dict[str, Any]:
        return league_results.end(event, team_names=team_names, players=players, scoring=scoring)

    def league_season_points_choices(self) -> Sequence[tuple[str, Any]]:
        return season_points.preset_choices()

    def season_tables(
        self,
        *,
        events: Sequence[tuple[int, Any, Any]],
        players: Mapping[int, Sequence[str]],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        system: str,
    ) -> SeasonTables:
        return season_points.season_standings(
            [(number, stage) for number, _race, stage in events], players=players, system=system
        )

    def league_abandons(
        self, event: Any, *, numbers: Iterable[int], team_names: Mapping[int, str]
    ) -> list[dict[str, Any]] | None:
        return league_results.abandons(event, numbers=numbers, team_names=team_names)
