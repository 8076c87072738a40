"""The pure derivation: evidence in, suggested ratings out (docs/profiles.md)."""

from riders.profiles import FinalPlace, RiderRecord, StagePlace, profile_suggest

RACE = "tour-de-test-2024"


def _stage(number, stage_type, rank, **extra):
    return StagePlace(race=RACE, stage=number, stage_type=stage_type, rank=rank, **extra)


def _final(classification, rank, classified=140):
    return FinalPlace(race=RACE, classification=classification, rank=rank, classified=classified)


def test_a_start_list_and_one_dnf_are_too_little_data():
    record = RiderRecord(stage_places=(_stage(1, "flat", None, status="dnf"),))
    suggestion = profile_suggest(record=record)
    assert not suggestion.enough_data
    assert suggestion.ratings == {}


def test_the_gc_winner_is_a_mythical_climber_and_no_sprinter():
    suggestion = profile_suggest(record=RiderRecord(final_places=(_final("general", 1),)))
    assert suggestion.enough_data
    assert suggestion.ratings["climber"] == 4
    assert suggestion.ratings["sprinter"] == -1
    assert suggestion.reasons["climber"] == f"GC 1st of 140, {RACE}"


def test_two_flat_stage_wins_make_a_mythical_sprinter_and_the_last_quarter_a_poor_climber():
    record = RiderRecord(
        stage_places=(_stage(2, "flat", 1), _stage(21, "flat", 1)),
        final_places=(_final("general", 130),),
    )
    ratings = profile_suggest(record=record).ratings
    assert ratings["sprinter"] == 4
    assert ratings["climber"] == -1


def test_a_time_trial_win_makes_a_champion_time_trialist_and_two_a_mythical_one():
    one = profile_suggest(record=RiderRecord(stage_places=(_stage(1, "ITT", 1),)))
    assert one.ratings["time_trialist"] == 3
    assert one.ratings["rouleur"] == 3
    two = RiderRecord(stage_places=(_stage(1, "ITT", 1), StagePlace("other-2023", 16, "ITT", 1)))
    assert profile_suggest(record=two).ratings["time_trialist"] == 4


def test_the_end_of_a_time_trial_counts_against_the_time_trialist():
    places = (_stage(1, "ITT", 170, field_size=176), _stage(2, "flat", 50), _stage(3, "flat", 60))
    assert profile_suggest(record=RiderRecord(stage_places=places)).ratings["time_trialist"] == -1


def test_kilometres_in_breakaways_make_a_baroudeur():
    places = tuple(_stage(n, "hilly", 40, breakaway_km=80) for n in range(1, 4))
    ratings = profile_suggest(record=RiderRecord(stage_places=places)).ratings
    assert ratings["baroudeur"] == 3
    assert ratings["rouleur"] == 2


def test_a_mountain_stage_won_far_from_the_gc_fight_is_a_breakaway():
    record = RiderRecord(
        stage_places=(_stage(9, "mountain", 1),), final_places=(_final("general", 40),)
    )
    ratings = profile_suggest(record=record).ratings
    assert (ratings["climber"], ratings["baroudeur"]) == (3, 3)


def test_the_points_of_a_gc_contender_are_not_sprints():
    record = RiderRecord(final_places=(_final("general", 2), _final("points", 3)))
    ratings = profile_suggest(record=record).ratings
    assert ratings["sprinter"] == 0
    winner = RiderRecord(final_places=(_final("general", 2), _final("points", 1)))
    assert profile_suggest(record=winner).ratings["sprinter"] == 3


def test_every_axis_is_rated_within_h_to_4():
    record = RiderRecord(
        stage_places=(_stage(1, "hilly", 1), _stage(2, "TTT", 1), _stage(3, "mountain", 2)),
        final_places=(_final("general", 5), _final("mountains", 2), _final("youth", 1)),
    )
    suggestion = profile_suggest(record=record)
    assert set(suggestion.ratings) == {
        "rouleur",
        "sprinter",
        "baroudeur",
        "finisseur",
        "descender",
        "time_trialist",
        "puncheur",
        "climber",
    }
    assert all(-1 <= value <= 4 for value in suggestion.ratings.values())
    assert set(suggestion.reasons) == set(suggestion.ratings)
