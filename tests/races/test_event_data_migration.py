"""Events stored before RaceEvent.data (races migration 0007): their old ``detail`` text turns
into the same data the engine writes now, on every event of the golden stages."""

import importlib
import json

import pytest

from tests.engine.golden_events_check import old_detail
from tests.engine.golden_io import CASES, golden_path

migration = importlib.import_module("races.migrations.0007_raceevent_data")


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_old_detail_of_every_golden_event_becomes_its_data(case):
    events = json.loads(golden_path(case).read_text(encoding="utf-8"))["expected"]["events"]
    assert events
    for event in events:
        data = event["data"]
        detail = old_detail(event["kind"], data)
        assert migration.data_of(event["kind"], data["case"], detail) == data, event


def test_a_detail_it_cannot_read_is_left_alone():
    assert migration.data_of("crash", 3, "something else") is None
    assert migration.data_of("abandon", 3, "tired") is None
