"""A ruleset is one object: its specs (settings, orders) and its codecs (inputs, settings,
outcome), the same for the command line, the golden files and the adapter."""

from __future__ import annotations

import dataclasses

import pytest

from engine import simulate
from engine.cycling.codec import OUTCOME_CODEC, InputError
from engine.cycling.events import EVENT_FIELDS, event_errors
from engine.cycling.inputs import StageInputs
from engine.outcome import Event
from engine.registry import RULESETS, WrongDiscipline, cycling_ruleset, get_ruleset
from engine.rulesets.cyclosim.orders import RiderOrders
from engine.rulesets.cyclosim.player_orders import ORDERS_SPEC as CYCLOSIM_ORDERS
from engine.rulesets.cyclosim.player_orders import orders_errors, rider_orders
from engine.rulesets.cyclosim.settings import CyclosimRider, CyclosimSettings
from engine.rulesets.moreno.settings import MorenoRider, MorenoSettings
from engine.spec import SpecError
from tests.engine.factory import flat_course, mountain_course, peloton
from tests.engine.golden_io import CASES, load

CYCLING = [name for name, r in RULESETS.items() if r.discipline == "cycling"]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_ruleset_is_one_object_with_a_name_version_and_discipline(name: str) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.name == name
    assert ruleset.version >= 1
    assert ruleset.discipline in ("cycling", "motor")
    assert (ruleset.motor is not None) == (ruleset.discipline == "motor")


@pytest.mark.parametrize("name", CYCLING)
def test_the_settings_spec_holds_every_setting_with_its_default_bounds_and_help(
    name: str,
) -> None:
    ruleset = cycling_ruleset(name)
    assert ruleset.settings_type is not None
    assert ruleset.settings is not None
    names = [f.name for f in dataclasses.fields(ruleset.settings_type)]
    assert list(ruleset.settings_spec.names) == names
    defaults = ruleset.default_settings()
    for field in ruleset.settings_spec:
        assert field.help
        assert field.label
        assert field.default == ruleset.settings.to_data(defaults)[field.name]
        if field.kind in ("int", "float"):
            assert field.minimum is not None
            assert field.maximum is not None
    # A form can be generated from it: plain JSON.
    assert all(isinstance(f["name"], str) for f in ruleset.settings_spec.to_data())
    # Every setting can be set within its bounds, and refused outside them.
    for field in ruleset.settings_spec:
        if field.kind == "int" and field.maximum is not None:
            top = ruleset.settings.from_data({field.name: int(field.maximum)})
            assert getattr(top, field.name) == field.maximum
            with pytest.raises(SpecError, match=field.name):
                ruleset.settings.from_data({field.name: int(field.maximum) + 1})


def test_settings_from_data_name_the_field_at_fault_and_keep_the_defaults() -> None:
    codec = cycling_ruleset("moreno").settings
    assert codec is not None
    assert codec.from_data({}) == MorenoSettings()
    assert codec.from_data({"tt_multiplier": 5}) == MorenoSettings(tt_multiplier=5)
    with pytest.raises(SpecError, match=r"tt_multiplier: 11 is not within 1 \.\. 10"):
        codec.from_data({"tt_multiplier": 11})
    with pytest.raises(SpecError, match="lanes: unknown field"):
        codec.from_data({"lanes": 3})
    with pytest.raises(SpecError, match="sprint_selection: 'fastest' is not one of"):
        codec.from_data({"sprint_selection": "fastest"})
    table = codec.from_data({"abandon_table": [[0, 0], [10, 3]]}).abandon_table
    assert table == ((0, 0), (10, 3))


def test_the_cyclo_sim_orders_spec_is_the_one_source_of_the_order_defaults() -> None:
    defaults = CYCLOSIM_ORDERS.defaults()
    engine = RiderOrders()
    assert defaults["pace_flat"] == engine.pace_flat
    assert defaults["pace_climb"] == engine.pace_climb
    assert defaults["pace_descent"] == engine.pace_descent
    assert defaults["floor_pct"] == engine.floor_pct
    assert [defaults["wheel"]] == list(engine.wheel)
    assert defaults["relay"] == engine.relay
    assert defaults["attack_from_km"] is None
    assert defaults["attack_to_km"] is None
    # Orders with only a role are the engine's defaults for that role's fields.
    orders = rider_orders({"role": "gc_leader"}, mountain_course())
    assert dataclasses.replace(orders, role="domestique", grant_wheel="all") == engine
    assert cycling_ruleset("moreno").orders_spec.names == ("role", "no_breakaway")


def test_the_cyclo_sim_orders_check_names_the_rider_and_the_field() -> None:
    course = flat_course()
    assert orders_errors({31: {"role": "sprinter"}}, course) == {}
    errors = orders_errors({31: {"attack_from_km": 500.0, "attack_to_km": 510.0}}, course)
    assert list(errors) == ["31"]
    assert "past the line" in errors["31"]["attack window (its start, in board rows)"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_inputs_codec_turns_inputs_to_json_and_back(case: str) -> None:
    ruleset = cycling_ruleset(CASES[case][0])
    assert ruleset.inputs is not None
    inputs = ruleset.inputs.from_data(load(case)["inputs"])
    again = ruleset.inputs.from_data(ruleset.inputs.to_data(inputs))
    assert again == inputs
    assert ruleset.inputs.to_data(again) == load(case)["inputs"]


def test_the_inputs_codec_keeps_each_rulesets_rider_part() -> None:
    entrants = peloton(2, 2)
    moreno = cycling_ruleset("moreno")
    cyclosim = cycling_ruleset("cyclosim")
    assert moreno.inputs is not None
    assert cyclosim.inputs is not None
    first = entrants[0].rider_id
    inputs = StageInputs(
        flat_course(), entrants, MorenoSettings(), {first: MorenoRider(no_breakaway=True)}
    )
    data = moreno.inputs.to_data(inputs)
    assert data["entrants"][0]["no_breakaway"] is True
    assert moreno.inputs.from_data(data) == inputs
    orders = rider_orders(
        {"pace_climb": "max", "attack_from_km": 10, "attack_to_km": 20}, flat_course()
    )
    inputs = StageInputs(
        flat_course(),
        entrants,
        CyclosimSettings(lanes=5),
        {first: CyclosimRider(orders=orders, pe_consumed=12)},
    )
    data = cyclosim.inputs.to_data(inputs)
    assert data["settings"]["lanes"] == 5
    assert data["entrants"][0]["pe_consumed"] == 12
    assert cyclosim.inputs.from_data(data) == inputs


def test_inputs_stored_before_the_rulesets_owned_their_settings_are_read() -> None:
    codec = cycling_ruleset("cyclosim").inputs
    assert codec is not None
    old = {
        "course": {
            "name": "c",
            "stage_type": "flat",
            "distance_km": 20.0,
            "segments": [{"terrain": "plain", "km": 20.0, "name": ""}],
            "intermediate_sprints_km": [],
        },
        "entrants": [
            {
                "rider_id": 1,
                "team_id": 1,
                "bib": 1,
                "profile": {"climber": 2},
                "role": "sprinter",
                "no_breakaway": False,
                "tour_crash_count": 0,
                "gc_rank_before": None,
                "gc_time_before": 0,
                "orders": None,
                "pe_consumed": 30,
            }
        ],
        "settings": dataclasses.asdict(MorenoSettings()),
        "cyclosim": dataclasses.asdict(CyclosimSettings(lanes=4)),
        "yellow_jersey": None,
        "green_jersey": None,
        "engine_version": 2,
    }
    inputs = codec.from_data({k: v for k, v in old.items() if k != "engine_version"})
    assert inputs.settings == CyclosimSettings(lanes=4)
    assert inputs.extras == {1: CyclosimRider(pe_consumed=30)}
    old["entrants"][0]["no_breakaway"] = True  # type: ignore[index]
    with pytest.raises(ValueError, match="no_breakaway = True is not a field of this ruleset"):
        codec.from_data({k: v for k, v in old.items() if k != "engine_version"})
    with pytest.raises(InputError, match="stage_type"):
        codec.from_data({**old, "course": {**old["course"], "stage_type": "cobbles"}})  # type: ignore[dict-item]


def test_the_outcome_codec_turns_an_outcome_to_json_and_back() -> None:
    inputs = StageInputs(mountain_course(), peloton(4, 4))
    for name in CYCLING:
        outcome = simulate(name, inputs, 3)
        assert OUTCOME_CODEC.from_data(OUTCOME_CODEC.to_data(outcome)) == outcome


def test_a_ruleset_refuses_another_rulesets_settings_or_riders() -> None:
    entrants = peloton(2, 2)
    with pytest.raises(ValueError, match="takes MorenoSettings, not CyclosimSettings"):
        simulate("moreno", StageInputs(flat_course(), entrants, CyclosimSettings()), 1)
    extras = {entrants[0].rider_id: MorenoRider(no_breakaway=True)}
    with pytest.raises(ValueError, match="takes CyclosimRider extras"):
        simulate("cyclosim", StageInputs(flat_course(), entrants, extras=extras), 1)
    with pytest.raises(WrongDiscipline, match="motor ruleset"):
        simulate("grandprix", StageInputs(flat_course(), entrants), 1)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_golden_event_carries_the_data_of_its_kind(case: str) -> None:
    events = load(case)["expected"]["events"]
    kinds = set()
    for e in events:
        event = Event(e["turn"], e["kind"], tuple(e["riders"]), e["data"])
        assert event_errors(event) == [], e
        kinds.add(e["kind"])
    assert kinds <= set(EVENT_FIELDS)


def test_event_errors_name_a_missing_or_mistyped_field() -> None:
    summit = Event(3, "summit", (1,), {"case": 4, "climb": "Col"})
    assert event_errors(summit) == ["summit: missing terrain"]
    sprint = Event(3, "intermediate_sprint", (1,), {"case": 4, "km": "90"})
    assert event_errors(sprint) == ["intermediate_sprint.km: '90' is not a float"]
