"""Grands Prix, countries, tracks and corners named in the reader's language (issue 29)."""

from django.utils import translation

from motor.place_names import content_in_words, corner_name, place_name, track_title


def test_a_grand_prix_named_after_its_country_is_said_in_french():
    with translation.override("fr"):
        assert place_name("Brazil") == "Brésil"
        assert place_name("United States West") == "États-Unis Ouest"
        assert place_name("Caesars Palace") == "Caesars Palace"  # a name of its own
    with translation.override("en"):
        assert place_name("Brazil") == "Brazil"


def test_a_shipped_tracks_approximation_and_its_numbered_corners_are_said_in_french():
    with translation.override("fr"):
        assert track_title("Circuit de Monaco (our simplified approximation)") == (
            "Circuit de Monaco (notre approximation simplifiée)"
        )
        assert track_title("Circuit de Monaco") == "Circuit de Monaco"
        assert corner_name("Turn 5") == "Virage 5"
        assert corner_name("Turns 2-3") == "Virages 2-3"
        assert corner_name("Hairpin onto Shoreline Drive") == "Hairpin onto Shoreline Drive"


def test_the_map_gets_the_words_and_the_track_file_is_left_as_it_is():
    content = {"name": "Zolder (our simplified approximation)", "corners": [{"name": "Turn 1"}]}
    with translation.override("fr"):
        words = content_in_words(content)
    assert words["corners"][0]["name"] == "Virage 1"
    assert words["name"].endswith("(notre approximation simplifiée)")
    assert content["corners"][0]["name"] == "Turn 1"
