import pytest
from django.core.exceptions import ValidationError

from races.course_validation import course_errors
from tests.factories import StageFactory


def test_a_valid_course_has_no_errors():
    segments = [{"terrain": "plain", "km": 100, "name": "a"}, {"terrain": "col1", "km": 12}]
    assert course_errors(segments, 112) == []


def test_each_bad_segment_is_named():
    segments = [{"terrain": "cobbles", "km": 10}, {"terrain": "plain", "km": -3}]
    errors = course_errors(segments, 7)
    assert "Segment 1: terrain 'cobbles' is not one of" in errors[0]
    assert errors[1] == "Segment 2: km -3 must be a positive number."


def test_segments_must_add_up_to_the_stage_distance():
    assert course_errors([{"terrain": "plain", "km": 100}], 150) == [
        "The segments add up to 100.0 km but the stage is 150.0 km."
    ]


@pytest.mark.django_db
def test_stage_validation_reports_course_errors():
    stage = StageFactory.build(race=StageFactory().race, number=9, distance_km=99)
    with pytest.raises(ValidationError, match=r"add up to 150\.0 km"):
        stage.full_clean()
