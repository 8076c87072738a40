"""The rating scale explained wherever ratings show (issue 29): H is the weakest, 4 the
strongest (rules/moreno.md §1, §2.1)."""

from django.template import Context, Template

from riders.models import RATING_WORDS, Rating
from riders.templatetags.ratings import rating_html


def test_every_rating_has_its_words():
    assert set(RATING_WORDS) == set(Rating)


def test_a_rating_says_its_meaning_on_hover():
    assert rating_html(-1) == '<abbr title="handicap">H</abbr>'
    assert rating_html("H") == '<abbr title="handicap">H</abbr>'
    assert rating_html(4) == '<abbr title="mythical">4</abbr>'
    assert rating_html("—") == "—"


def test_the_legend_reads_the_scale_and_the_axes_shown():
    html = Template("{% load ratings %}{% ratings_legend axes %}").render(
        Context({"axes": [("climber", "climber"), ("time_trialist", "time trialist")]})
    )
    assert "from weakest to strongest" in html
    assert '<abbr title="handicap">H</abbr> handicap' in html
    assert '<abbr title="mythical">4</abbr> mythical' in html
    assert '<abbr title="time trialist">tim</abbr> time trialist' in html
