"""The admin edits a track in Chromium (issue 31 item 5): Monaco's Sainte-Dévote taken in 3rd
instead of 2nd redraws the map as it is typed, saves as version 2 (the map shows the change),
and a broken edit (13 grid slots) is refused naming rule V6. Screenshots at 1366 and 390 px."""

import pytest

from motor.models import Track
from motor.track_files import SHIPPED, track_store
from tests.e2e.helpers import admin_log_in, check_widths, close_ups
from tests.factories import UserFactory

FIRST = 'g.corner-label[data-corner="T1"]'
PARTS = ("#track-map-part", "#track-corners")


def _shots(page, screenshot, name, *, parts=PARTS):
    """The page at 1366 and 390 px (no sideways scroll), close-ups of ``parts`` at 390."""
    check_widths(page, f"track-editor-{name}", screenshot, page.console_errors)
    close_ups(page, f"track-editor-{name}", screenshot, parts)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_admin_edits_a_corners_max_gear_and_the_map_changes(live_server, page, screenshot):
    base = live_server.url
    admin = UserFactory(username="ada", is_staff=True, is_superuser=True)
    admin.set_password("ada-secret")
    admin.save()
    monaco, _ = track_store(
        content=(SHIPPED / "grandprix" / "monaco.yaml").read_bytes(), file_name="monaco.yaml"
    )

    admin_log_in(page, base, "ada", "ada-secret")
    page.goto(f"{base}/admin/motor/track/{monaco.pk}/change/")
    assert page.locator(f"#track-map {FIRST}").get_attribute("data-max-gear") == "2"
    _shots(page, screenshot, "monaco-v1")

    # Typing the new max gear redraws the map (htmx preview; nothing is saved yet).
    page.fill("#id_corners-0-max_gear", "3")
    page.wait_for_selector(f'#track-map {FIRST}[data-max-gear="3"]')
    assert Track.objects.filter(slug=monaco.slug).count() == 1

    # A broken edit beside it: refused by the engine's rule V6, nothing saved.
    page.fill("#id_track-grid_slots", "13")
    page.click("input[name=_continue]")
    page.wait_for_selector(".errornote")
    assert "V6" in page.locator(".errorlist").first.inner_text()
    assert page.locator("#id_track-grid_slots").input_value() == "13"
    assert Track.objects.filter(slug=monaco.slug).count() == 1
    _shots(page, screenshot, "refused", parts=(".errornote + ul.errorlist", "#track-main"))

    # Put the grid back: the edit saves as version 2, whose page draws the new gear.
    page.fill("#id_track-grid_slots", "12")
    page.click("input[name=_continue]")
    new = Track.objects.get(slug=monaco.slug, version=2)
    page.wait_for_url(f"{base}/admin/motor/track/{new.pk}/change/")
    assert page.locator(f"#track-map {FIRST}").get_attribute("data-max-gear") == "3"
    assert "v1" in page.locator("#track-versions").inner_text()
    assert new.content["corners"][0]["max_gear"] == 3
    assert Track.objects.get(pk=monaco.pk).content["corners"][0]["max_gear"] == 2
    _shots(page, screenshot, "monaco-v2")
    assert page.console_errors == []
