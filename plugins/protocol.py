"""What every game's adapter answers, whatever its discipline: the type of the registry.

The season layer reaches a game through :func:`plugins.adapter_for` only, and what it may ask
is written here once, as a Protocol that both disciplines' base adapters satisfy
(``races.adapters.base.CyclingAdapter`` for riders on stages, ``motor.adapters.base.
MotorAdapter`` for cars on Grands Prix; ``tests/test_plugins_protocol.py`` checks every
registered adapter against it). A member that only one discipline has is not here: the code
that asks for it narrows first (:func:`plugins.cycling_adapter`, :func:`plugins.motor_adapter`),
so mypy shows every place where the season layer still tells the disciplines apart.

This module imports no app (import-linter): the app types (a stage, a round, a Grand Prix)
are ``Any`` here, and the adapters give them precisely.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol, runtime_checkable

from plugins.formation import TeamFormation
from plugins.orders_page import OrdersPage
from sheets.blocks import Block


@dataclass(frozen=True)
class Starter:
    """One seat of a league team as plain data, whatever the game: the season builds these from
    its squads (season.selectors.season_seats) and the adapter turns them into its engine's
    entrants, reading the state each game carries between rounds from its own app."""

    team_id: int
    #: The league team's name (the motor engine groups a team's cars by it).
    team: str
    #: Who: a rider's id, or a car's motor Entry id.
    competitor_id: int
    #: How the team's orders name this seat: a rider's id, a car's number (as text).
    key: str
    #: A rider's bib, a car's number.
    number: int
    #: The rider's role in the squad ("" for a car, which has none).
    role: str = ""
    #: Who the pages name: the rider, the car's driver.
    name: str = ""
    #: The team's orders for this seat in the round, as stored (empty: the spec's defaults).
    orders: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StandingLine:
    """One line of a season's table (riders or players' teams) after a round, as plain data:
    ``key`` a rider's (a driver's) or a league team's id; ``detail`` what the page adds (the
    points of each event of the calendar under "races", keyed by its number as text)."""

    rank: int
    key: int
    name: str
    points: Decimal
    wins: int = 0
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SeasonTables:
    """The season's standings after a round: the riders' (drivers') and the players' teams'."""

    riders: Sequence[StandingLine]
    players: Sequence[StandingLine]


@runtime_checkable
class GameAdapter(TeamFormation, OrdersPage, Protocol):
    """A ruleset's adapter, as the season layer sees it."""

    #: The ruleset's registered name (Season.ruleset).
    name: str
    #: The ruleset as the forms offer it, and a paragraph for the "how it works" page.
    label: Any
    how_it_works: Any
    #: Shown above the orders table (None: nothing).
    orders_legend: Any
    #: "cycling" or "motor" (plugins.CYCLING, plugins.MOTOR).
    discipline: str
    #: What a round of this game is called in the commands' output.
    round_noun: str
    rounds_noun: str

    def round_label(self, number: int) -> str:
        """Round ``number`` as a sentence names it, in the active language ("stage 3")."""
        ...

    def rounds_count_text(self, count: int) -> str:
        """``count`` rounds of this game in the active language ("21 stages", "15 Grands
        Prix")."""
        ...

    #: What the orders page says once every round is resolved ("The race is over...").
    over_text: Any

    def event_label(self, event: Any) -> str:
        """A round's event (a stage, a Grand Prix) as the notices name it."""
        ...

    #: The league's defaults of some of the ruleset's settings (docs/rules-choices.md).
    season_defaults: Mapping[str, Any]
    #: The pages' words for what this game's players order ("each rider", "each car") and what
    #: a team's budget buys ("budget_help").
    page_words: Mapping[str, Any]
    #: The codes of the dice log and their texts, for the rules page (may be empty).
    rule_texts: Mapping[str, Any]
    #: The short wording of the rules its pages cite ("§7.1" -> "The orders of a car"), each
    #: listed with an anchor on the rules page (may be empty).
    rule_titles: Mapping[str, Any]
    #: The odds table's column headings as this discipline says them (docs/odds.md).
    odds_labels: Mapping[str, Any]
    #: Which expectation the odds table shows: "expected_gap" (a time) or "expected_place".
    odds_expected: str
    #: Bits of a round's seed (the dice's commitment, engine.commitment).
    seed_bits: int

    def commitment_of(self, seed: int) -> str: ...

    def dice_seed(self, seed: int, nonces: Sequence[str]) -> int: ...

    @property
    def version(self) -> int: ...

    # --- orders: one entrant's fields (a rider or a car) --------------------------------

    @property
    def orders_spec(self) -> Any: ...

    def orders_stored(self, order: Mapping[str, Any]) -> dict[str, Any]: ...

    def orders_errors(self, *, orders: Mapping[Any, Mapping[str, Any]], round: Any) -> list[str]:
        """A team's stored orders ``{entrant: fields}`` checked by the ruleset for ``round``,
        as messages naming the entrant and the field."""
        ...

    def order_fields(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """One entrant's row of the orders form, from the orders spec."""
        ...

    def orders_carry(
        self,
        previous_data: Mapping[str, Mapping[str, Any]],
        round: Any,
        *,
        starters: Sequence[Starter],
    ) -> tuple[dict[str, dict[str, Any]], list[str]]:
        """A team's stored orders of an earlier round (``{seat key: fields}``) as far as they
        still apply to ``round``, for the team's ``starters`` (all its seats): the seats still
        racing there, each with the fields still valid on this round (a choice still offered,
        a value within its bounds, a km within this stage), and a note per seat or field that
        does not carry, naming it and why. The fields not carried are left out (the form and
        the stored orders give them their defaults)."""
        ...

    # --- the organiser's settings --------------------------------------------------------

    @property
    def settings_spec(self) -> Any: ...

    def settings_fields(self, values: Mapping[str, Any]) -> dict[str, Any]: ...

    def season_values(self, rules: Any) -> dict[str, Any]: ...

    def engine_settings(self, rules: Any) -> Any: ...

    # --- the league: the event a season runs and its rounds (season.leagues) -------------

    #: The create form's heading of this game's events, and a sentence on what one gives.
    league_events_label: Any
    league_events_help: Any
    #: The season settings (SeasonSettings' field names) a league of this game does not use:
    #: the forms leave them out and the season keeps their defaults.
    league_settings_unused: tuple[str, ...]

    def league_events(self) -> list[tuple[str, str]]:
        """The events a league of this game can run, as (key, name): the create form's
        choices (a key names its app's kind of event, e.g. "race-12")."""
        ...

    def league_event_get(self, key: str) -> Any | None:
        """The event of a key of :meth:`league_events`; None when the key is not this game's
        kind of event (or names none)."""
        ...

    def league_event_fits(self, event: Any) -> bool:
        """Whether this game races ``event`` (a real event or a league's copy of one)."""
        ...

    def league_event_problems(self, event: Any) -> list[str]:
        """Why a league of this game cannot run ``event`` (each round named); empty: it can."""
        ...

    def league_round_count(self, event: Any) -> int: ...

    def league_copy_taken(self, *, slug: str, event: Any) -> bool:
        """Whether the league's copy of ``event`` for the season ``slug`` would clash with a
        copy already made."""
        ...

    def league_create_fields(self) -> dict[str, Any]:
        """The create form's fields of this game's own choices (e.g. a points system); their
        cleaned values reach :meth:`league_event` as ``options``."""
        ...

    def league_round_number(self, event: Any, within: int) -> int:
        """The number the event's round ``within`` (1..) has in the event itself, as it is
        named: a stage race forked after stage 10 races its stage 11 as its round 1."""
        ...

    def league_options_problems(self, event: Any, *, options: Mapping[str, Any]) -> list[str]:
        """Why the create fields' ``options`` cannot be used with ``event`` (a stage to start
        after whose real state is not known), each a sentence; empty when they can."""
        ...

    def league_event(
        self, *, event: Any, slug: str, name: str, rules: Any, options: Mapping[str, Any]
    ) -> Any:
        """The league's own copy of ``event``, written in the adapter's app (inside the
        caller's transaction)."""
        ...

    def league_season_fields(self, event: Any) -> dict[str, Any]:
        """The Season's fields that a league of this game on the copy ``event`` takes (the
        settings its game fixes)."""
        ...

    def league_event_fields(self, event: Any) -> dict[str, Any]:
        """The calendar event's (season.SeasonEvent) field that holds the copy ``event``:
        ``{"race": copy}``, ``{"championship": copy}``."""
        ...

    #: Whether more events join a season's calendar after its first (a cycling season of
    #: stage races); False where one event is the whole calendar (a championship).
    league_calendar_grows: bool

    def league_rounds(self, event: Any) -> list[dict[str, Any]]:
        """The Round fields per round of the copy ``event``, in order: the round's event
        (``{"stage": s}``, ``{"grand_prix": gp}``; a ``number`` given is replaced by the
        round's number in the season)."""
        ...

    def league_settings_changed(self, *, season: Any, rounds: Any) -> int:
        """After the organiser changed the game's settings: update what ``rounds`` (those not
        raced yet) take from them; the number of rows changed."""
        ...

    # --- the organiser's page (season.views.organiser.dashboard) ------------------------

    def league_source(self, event: Any) -> str:
        """The real event the league's copy ``event`` was made from, as the organiser's page
        names it ("" for none)."""
        ...

    def league_capacity_text(self, event: Any, *, roster_size: int) -> str:
        """How many teams of ``roster_size`` the league's event seats, in a sentence."""
        ...

    def league_formation_notes(self, *, season: Any, players: int) -> list[str]:
        """What the organiser's page says of who races beside the ``players`` teams."""
        ...

    def league_standings_lines(self, event: Any, *, number: int, limit: int = 20) -> list[str]:
        """The game's main table after round ``number`` of the league's ``event`` as plain
        text lines, a title first (``simulate_season`` prints them): the GC, the drivers'."""
        ...

    def league_calendar(self, event: Any, *, season: Any, rounds: Any) -> Any:
        """The organiser's calendar of the season's ``rounds`` (a queryset, in order): a
        django-tables2 table, sortable and exported under the prefix "calendar-"."""
        ...

    # --- simulation, replay, odds --------------------------------------------------------

    def simulate(self, inputs: Any, *, seed: int) -> Any: ...

    def dice_log(self, outcome: Any) -> tuple[int, str]: ...

    def dice_rows(self, outcome: Any) -> list[list[Any]]: ...

    def stored_version(self, data: Mapping[str, Any]) -> int | None: ...

    def odds_runner(
        self, inputs_data: Mapping[str, Any], *, round: Any, rules: Any
    ) -> Callable[[int], Any]: ...

    # --- a round: its event (a races Stage, a motor GrandPrix) and its starters ---------------

    #: The message naming the seats a team's orders give that are not its starters, formatted
    #: with ``ids`` (a list) and ``numbers`` (a text).
    unknown_seats: Any

    def round_event(self, round: Any) -> Any:
        """The row a league round races (its stage, its Grand Prix); None: it has none."""
        ...

    def round_errors(self, event: Any) -> list[str]:
        """Why the event cannot be raced as it stands (empty: it can), before any input."""
        ...

    def starters_racing(self, *, event: Any, starters: Sequence[Starter]) -> list[Starter]:
        """The starters still in the race at ``event`` (a cycling abandon is out for good)."""
        ...

    def round_inputs(self, *, event: Any, starters: Sequence[Starter], rules: Any) -> Any:
        """The engine's inputs of the event for the starters still racing, each with its
        orders and the state its game carries from the earlier rounds (read by the adapter
        from its own app), in the engine's start order."""
        ...

    def inputs_stored(self, inputs: Any) -> dict[str, Any]:
        """Inputs in the JSON the round keeps (replays, odds), with the ruleset's version."""
        ...

    def round_write(
        self, *, event: Any, outcome: Any, starters: Sequence[Starter], rules: Any
    ) -> None:
        """The outcome as rows of the adapter's app (results, events, the event's standings);
        inside the resolving transaction."""
        ...

    def round_replay(
        self, *, event: Any, stored_inputs: Mapping[str, Any], seed: int, rules: Any
    ) -> tuple[Any, list[str]]:
        """A fresh run of stored inputs and what it changes in the event's stored rows (the
        dice log is the season's to compare): the outcome, and the differences."""
        ...

    def seat_label(self, starter: Starter) -> str:
        """How a table names a seat: the rider, or the car's number and driver."""

    # --- the league's public pages (season/views/public.py) ------------------------------
    # The season builds the shell of each page (access, caching, the round's state, the
    # organiser's actions, comments, the end of the race) and asks the game for its part: the
    # template (which extends the season's shell of that page) and that template's context,
    # built from the game's own rows (the event: a stage race or a championship; a round's: a
    # stage or a Grand Prix) and plain values the season gives. A part's "table", if any, is
    # the page's table (sorted, paginated and exported by the season's view).

    #: This game's templates of the league's pages, by page: "season", "round", "team", "dice"
    #: and "players", and the fragment "route" (where a round is raced, given its ``event``),
    #: under templates/races/league/ or templates/motor/league/.
    league_templates: Mapping[str, str]

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
        """The season page's part: the calendar of ``rounds`` (each with its stage or Grand
        Prix), the leaders after round ``last`` (the latest this visitor may see; None: none
        yet), the ``teams`` and their seats (``seats()``: team id -> its riders or cars, read
        only if the page shows them)."""
        ...

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
        """A round's part: ``event`` is the round's stage or Grand Prix; its results, once
        ``visible`` to this visitor; ``reinstate``: the organiser may keep riders in the race."""
        ...

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
        """A team's public page's part: its ``seats`` (riders or cars) with their places in the
        event's standings after round ``upto`` (its stage or Grand Prix ``upto_event``; 0 and
        None: none visible yet)."""
        ...

    def league_dice(
        self,
        rolls: Sequence[Any],
        *,
        season: Any,
        seats: Sequence[Any],
        rule_link: Callable[[Any], Any],
    ) -> dict[str, Any]:
        """A round's dice log's part: the ``rolls`` as rows naming the riders or cars of
        ``seats``, a rule's code linked to the rules page by ``rule_link``."""
        ...

    def league_standings_url(self, slug: str) -> str:
        """The first standings page of the league season ``slug`` (its tabs lead there)."""
        ...

    #: The pages of its own event a game serves under the season, by name (a championship's
    #: "round", "standings", "what-if", "driver", "constructor"); none for a stage race, whose
    #: stages and classifications are the season's pages.
    league_event_pages: Collection[str]

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
        """One of ``league_event_pages``: the page (or its CSV export), made by ``renderer``
        (the season's cacheable page) when given. ``event``: the round's stage or Grand Prix
        (a round's page), ``key``: the round's number, a table or a slug; ``upto``: the latest
        round whose results this visitor may see."""
        ...

    # --- the read API (season/api): plain lines, one shape for every game ------------------
    # A line is a dict: place, competitor_id, name, team_id, team, value, gap, status, detail
    # (a dict of the game's own fields); an event: seq, turn, kind, competitor_ids, detail.
    # ``team_names``: league team id -> name; ``team_of``: a seat's competitor id (a rider's,
    # a car's entry) -> its league team id.

    def api_tables(self) -> list[tuple[str, str, str]]:
        """The standings tables after a round as (key, label, unit of their value)."""
        ...

    def api_results(
        self, event: Any, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
    ) -> list[dict[str, Any]]:
        """The round's results (``event``: its stage or Grand Prix), by place."""
        ...

    def api_standing(
        self, event: Any, table: str, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
    ) -> list[dict[str, Any]] | None:
        """One of :meth:`api_tables` after the round, by place; None: no such table."""
        ...

    def api_events(self, event: Any) -> list[dict[str, Any]]:
        """What happened in the round, as its page lists it, in the engine's order."""
        ...

    # --- the end of the race (season/results.py) -----------------------------------------

    def league_ranking_choices(self) -> Sequence[tuple[str, Any]]:
        """The players' rankings (season.models.PlayerRanking) the organiser may choose from,
        as (value, label); none for a game that always ranks its players one way (a
        championship: by points)."""
        ...

    def league_ranking_columns(self, scoring: str) -> Mapping[str, Any]:
        """The players' ranking's column headings ("score", "behind") under ``scoring``
        (the season's player_ranking) where this game's differ from time and gap."""
        ...

    def league_ranking(
        self,
        event: Any,
        *,
        players: Mapping[int, Sequence[str]],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        scoring: str,
    ) -> list[tuple[int | None, int, str, str]]:
        """The players' teams (``players``: team id -> (name, player)) ranked after a round
        (``event``: its stage or Grand Prix) by ``scoring`` (the season's player_ranking), as
        (place, team id, score, behind), every player's team in it."""
        ...

    def league_end(
        self,
        event: Any,
        *,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        players: Mapping[int, Sequence[str]],
        scoring: str,
    ) -> dict[str, Any]:
        """The end of the race after the last round (``event``): its "title" (if not "The end
        of the race": "The end of the championship"), its "podium" as (rank, rider
        id or None, name, team, figure) under its heading "podium_title", its final "jerseys"
        (season.selectors.Jersey), the players' "ranking" (as league_ranking's), what its
        scores count ("score_unit": "points", or empty for a time or a rider) and each
        player's team's best "moments" (team id -> sentences: its best result, its days in
        a jersey...), read together so that the page reads each thing once."""
        ...

    def league_season_points_choices(self) -> Sequence[tuple[str, Any]]:
        """The season's points systems (Season.season_points) the organiser may choose from,
        as (value, label); none for a game whose event keeps its own (a championship)."""
        ...

    def season_tables(
        self,
        *,
        events: Sequence[tuple[int, Any, Any]],
        players: Mapping[int, Sequence[str]],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
        system: str,
    ) -> SeasonTables:
        """The season's tables after a round from the stored results: ``events`` every event
        of the calendar raced so far as (its number, the league's copy, the round's event up to
        which it counts: a stage, a Grand Prix), ``players`` the players' teams (id -> (name,
        player)), ``system`` the season's points system (Season.season_points)."""
        ...

    def league_abandons(
        self, event: Any, *, numbers: Iterable[int], team_names: Mapping[int, str]
    ) -> list[dict[str, Any]] | None:
        """Who left the race in the rounds ``numbers`` of the season's ``event`` (stage,
        rider id, rider, team id, team, status, reason); None for a game that lists them on
        each round's page instead."""
        ...

    # --- the printed sheets (sheets; season/views/sheets.py) -------------------------------

    def round_sheet_blocks(
        self,
        event: Any,
        *,
        season: Any,
        round: Any,
        team_names: Mapping[int, str],
        seats: Callable[[], Mapping[int, Sequence[Any]]],
    ) -> list[Block]:
        """A round's printed communiqué once its results are visible (``event``: its stage or
        Grand Prix): the event and its route, the first of its results, the event's
        classifications after it and who left the race, as the sheet's blocks in the active
        language (the season adds the title)."""
        ...

    def event_sheet_blocks(self, event: Any, *, team_names: Mapping[int, str]) -> list[Block]:
        """The classifications of a calendar's event after its round ``event`` (the latest
        one visible: a stage, a Grand Prix), for the season's printed sheet."""
        ...
