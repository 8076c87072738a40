"""A Cyclo Sim league in Chromium: the organiser picks the ruleset, a player gives the orders
of cyclosim.md §4 (paces, energy kept, wheel, relays, an attack window in km), is told which
rider and field break a rule, fixes them; the stage is resolved and the energy is carried."""

import pytest

from races.models import StageResult
from season.demo import demo_load
from season.models import SeasonTeam
from tests.e2e.helpers import (
    cheap_riders,
    check_widths,
    logged_in_pages,
    season_create,
    stage_publish,
    team_join,
)

ROSTER = 4


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_cyclosim_week_with_orders_fixed_after_a_refusal(live_server, browser, screenshot):
    demo_load()
    base = live_server.url
    errors = []
    pages = logged_in_pages(browser, base, ("olivia", "alice"), errors)
    olivia, alice = pages["olivia"], pages["alice"]

    season = season_create(
        olivia,
        base,
        name="Cyclo League",
        slug="cyclo-league",
        roster=ROSTER,
        ruleset="cyclosim",
        peloton="players",  # a league of the players' riders only: the results are theirs
    )
    assert season.ruleset == "cyclosim"
    team_join(alice, base, season, name="Alice Cyclo", riders=cheap_riders(ROSTER))
    olivia.goto(base + "/seasons/cyclo-league/stages/1/")
    olivia.click("text=Open orders")
    olivia.wait_for_load_state()

    team = SeasonTeam.objects.get(season=season, name="Alice Cyclo")
    leader, *others = [m.rider_id for m in team.seats.order_by("number", "pk")]
    alice.goto(base + f"/seasons/cyclo-league/teams/{team.pk}/orders/")
    assert "Pace climbing" in alice.content()
    alice.select_option(f"#id_{leader}-role", "gc_leader")
    alice.select_option(f"#id_{leader}-pace_climb", "expected")
    alice.fill(f"#id_{leader}-floor_pct", "20")
    alice.select_option(f"#id_{leader}-wheel", "team")
    for rider in others:
        alice.select_option(f"#id_{rider}-role", "domestique")
        alice.select_option(f"#id_{rider}-relay", "all")
    # Stage 1 is 182 km long: an attack window after the finish is refused, rider named.
    alice.fill(f"#id_{leader}-attack_from_km", "300")
    alice.fill(f"#id_{leader}-attack_to_km", "320")
    alice.click("text=Save my orders")
    alice.wait_for_load_state()
    name = team.seats.get(rider_id=leader).rider.name
    assert f"{name}, Attack from km: The stage is 182 km long" in alice.content()
    assert "Last saved" not in alice.content()
    screenshot(alice, "cyclosim-orders-refused")
    alice.fill(f"#id_{leader}-attack_from_km", "150")
    alice.fill(f"#id_{leader}-attack_to_km", "175")
    alice.click("text=Save my orders")
    alice.wait_for_load_state()
    assert "Last saved" in alice.content()
    screenshot(alice, "cyclosim-orders")

    olivia.goto(base + "/seasons/cyclo-league/stages/1/")
    olivia.click("text=Resolve now")
    olivia.click("button:has-text('Resolve stage 1 now')")  # the confirmation (issue 17)
    olivia.wait_for_load_state()
    olivia.wait_for_selector("table.data tbody tr", timeout=30000)
    stage_publish(olivia, base, "cyclo-league", 1)  # results are the organiser's until then
    alice.goto(base + "/seasons/cyclo-league/stages/1/")
    # The results come first; the GC top 10 after the stage follows them.
    assert alice.locator("table.data").first.locator("tbody tr").count() == ROSTER
    screenshot(alice, "cyclosim-stage-results")
    # The energy each rider spent is kept for the next stage (§2.3).
    states = StageResult.objects.filter(stage__race=season.event).values_list("state", flat=True)
    assert all("pe_consumed" in state for state in states)

    # Stage 2's orders page starts from the orders of stage 1 (issue 29 item 3), and says so.
    alice.goto(base + f"/seasons/cyclo-league/teams/{team.pk}/orders/")
    alice.wait_for_selector("#carried")
    assert "carried over from stage 1" in alice.inner_text("#carried")
    assert alice.input_value(f"#id_{leader}-pace_climb") == "expected"
    assert alice.input_value(f"#id_{leader}-floor_pct") == "20"
    assert alice.input_value(f"#id_{leader}-wheel") == "team"
    assert all(alice.input_value(f"#id_{rider}-relay") == "all" for rider in others)
    alice.check("#id_standing")
    check_widths(alice, "cyclosim-orders-carried", screenshot, errors)
    alice.click("text=Save my orders")
    alice.wait_for_selector("#standing-notice")
    assert "for every following round until you change them" in alice.content()
    assert errors == []
