"""The motor pages in Chromium (issue 15 item 6): every page of the imported 1981 championship
at 1366 and 390 px (no sideways scroll of the page: wide tables scroll in their own box), and
the race replayed on the track map with the step buttons and the slider."""

import pytest
from django.urls import reverse

from motor.models import Championship, GrandPrix
from motor.track_files import SHIPPED, track_store
from races.importing import results_import
from tests.motor.test_import_f1 import f1_files
from tests.motor.test_pages import SLUG, synthetic_race

WIDTHS = {"desktop": 1366, "phone": 390}
PAGES = {
    "calendar": ("motor-championship", []),
    "round-real": ("motor-round", [6]),
    "round-replay": ("motor-round", [14]),
    "drivers": ("motor-standings", ["drivers"]),
    "constructors": ("motor-standings", ["constructors"]),
    "what-if": ("motor-what-if", ["drivers"]),
    "driver": ("motor-driver", ["nelson-piquet"]),
    "constructor": ("motor-constructor", ["lotus"]),
}


def _page_width(page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_motor_page_at_both_widths_and_the_replay(live_server, page, screenshot):
    assert results_import(files=f1_files()).ok
    championship = Championship.objects.get(slug=SLUG)
    for number, name in ((14, "gilles-villeneuve.yaml"), (6, "monaco.yaml")):
        path = SHIPPED / "grandprix" / name
        track, _created = track_store(content=path.read_bytes(), file_name=path.name)
        GrandPrix.objects.filter(championship=championship, round=number).update(track=track)
    synthetic_race(GrandPrix.objects.get(championship=championship, round=14))

    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        for name, (url_name, args) in PAGES.items():
            page.goto(live_server.url + reverse(url_name, args=[SLUG, *args]))
            scroll, inner = _page_width(page)
            assert scroll <= inner, f"{name} at {width} px scrolls sideways ({scroll} > {inner})"
            screenshot(page, f"motor-{name}-{label}")
    assert page.console_errors == []

    # The replay: the cars start on the grid; a step moves them, the slider jumps to the end.
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    page.goto(live_server.url + reverse("motor-round", args=[SLUG, 14]))
    car = page.locator("#track-map .car").first
    on_grid = car.get_attribute("transform")
    assert page.locator(".replay-status").inner_text() == "the grid"
    page.click("[data-step='1']")
    assert car.get_attribute("transform") != on_grid
    assert page.locator(".replay-status").inner_text().startswith("Round 1")
    page.locator(".replay input[type=range]").fill("6")
    assert page.locator(".replay-status").inner_text().startswith("Round 6")
    # Round 6: a car retires, its incident is marked on the map and listed under it.
    assert page.locator("#track-map .incident.current").count() == 1
    assert "retired" in page.locator(".replay-incidents").inner_text()
    page.locator("#track-map").screenshot(
        path=str(screenshot(page, "motor-replay-6").with_name("motor-replay-map-6.png"))
    )
    page.click("[data-step='last']")
    last = page.locator(".replay input[type=range]").input_value()
    assert int(last) == len(GrandPrix.objects.get(championship=championship, round=14).trace) - 1
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 900})
    page.locator("#replay").screenshot(
        path=str(
            screenshot(page, "motor-replay-phone").with_name("motor-replay-controls-phone.png")
        )
    )
    assert page.console_errors == []
