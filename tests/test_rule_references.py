"""The rules a game's words cite are links to their line on its "how it works" page, with the
rule's wording (issue 29): "§7.1" reads "§7.1 The orders of a car"."""

import re

import pytest
from django.urls import reverse
from django.utils.translation import gettext

from plugins import adapter_for, adapter_names
from specforms.references import (
    REFERENCE,
    linked_references,
    reference_candidates,
    rule_anchor,
    rule_reference,
)

TITLES = {"§7.1": "The orders of a car", "GP-10": "Incident cards", "R-X": "Crashes"}
TEXTS = {"R-X1": "A double 1 may be a crash."}


def test_a_reference_falls_back_on_the_rule_it_belongs_to():
    assert reference_candidates("R-P20.15") == ["R-P20.15", "R-P20", "R-P"]
    assert reference_candidates("GP-10.11") == ["GP-10.11", "GP-10", "GP-", "GP"]
    assert reference_candidates("GP-6.2b") == ["GP-6.2b", "GP-6.2", "GP-6", "GP-", "GP"]
    assert reference_candidates("§7.1") == ["§7.1", "§7"]


def test_a_reference_maps_to_its_rules_page_line_and_wording():
    found = rule_reference("GP-10.11", ruleset="grandprix", titles=TITLES, texts=TEXTS)
    assert found is not None
    assert found.url == reverse("ruleset-rules", args=["grandprix"]) + "#rule-GP-10"
    assert (found.listed, found.title) == ("GP-10", "Incident cards")
    crash = rule_reference("R-X1", ruleset="moreno", titles=TITLES, texts=TEXTS)
    assert crash is not None
    assert (crash.listed, crash.title, crash.text) == ("R-X1", "Crashes", TEXTS["R-X1"])
    assert rule_reference("Z-9", ruleset="moreno", titles=TITLES, texts=TEXTS) is None


def test_a_help_text_links_the_rules_it_cites_and_escapes_the_rest():
    html = linked_references(
        "§7.1, Z-9: <b>top</b> gear", ruleset="grandprix", titles=TITLES, texts=TEXTS
    )
    url = reverse("ruleset-rules", args=["grandprix"])
    assert html == (
        f'<a class="rule-ref" href="{url}#rule-s7-1" title="The orders of a car">'
        "§7.1 The orders of a car</a>, Z-9: &lt;b&gt;top&lt;/b&gt; gear"
    )


def _cited(adapter):
    specs = [adapter.orders_spec, adapter.settings_spec]
    helps = [gettext(f.help) for spec in specs for f in spec if f.help]
    return {code for text in helps for code in REFERENCE.findall(text)}


@pytest.mark.parametrize("name", adapter_names())
def test_every_rule_a_game_cites_has_words_and_a_line_on_its_rules_page(client, name):
    adapter = adapter_for(name)
    page = client.get(reverse("ruleset-rules", args=[name])).content.decode()
    for code in _cited(adapter):
        found = rule_reference(
            code, ruleset=name, titles=adapter.rule_titles, texts=adapter.rule_texts
        )
        assert found is not None, f"{name}: {code} has no wording"
        assert found.title, f"{name}: {code} has no short wording"
        anchor = found.url.split("#", 1)[1]
        assert f'id="{anchor}"' in page, f"{name}: no line {anchor} for {code}"


def test_the_rules_page_links_its_own_help_texts_to_its_lines(client):
    page = client.get(reverse("ruleset-rules", args=["grandprix"])).content.decode()
    assert f'id="{rule_anchor("§7.1")}"' in page
    assert re.search(r'<a class="rule-ref" href="[^"]+#rule-s7-1"[^>]*>§7.1 The orders', page)
