"""The motor pages on the imported 1981 championship (issue 15 item 6): every page answers in
a few queries whatever the number of rounds, in English and French, with its CSV export."""

import csv
import io
import re

import pytest
from django.urls import reverse

from motor.models import (
    Championship,
    Constructor,
    Driver,
    GrandPrix,
    GrandPrixEvent,
    Result,
    Standing,
    Track,
)
from motor.track_files import SHIPPED, track_store
from races.importing import results_import
from tests.motor.test_import_f1 import DATA, f1_files

SLUG = "formula-1-1981"
MAX_QUERIES = 15


@pytest.fixture(scope="module")
def imported(django_db_setup, django_db_blocker):
    """The 1981 championship imported once for the module (the import takes seconds), its
    Canadian Grand Prix (round 14) on the shipped Gilles-Villeneuve track file; removed after."""
    with django_db_blocker.unblock():
        report = results_import(files=f1_files())
        assert report.ok, report.lines()
        path = SHIPPED / "grandprix" / "gilles-villeneuve.yaml"
        track, _created = track_store(content=path.read_bytes(), file_name=path.name)
        GrandPrix.objects.filter(championship__slug=SLUG, round=14).update(track=track)
        yield
        Result.objects.all().delete()
        Standing.objects.all().delete()
        Championship.objects.all().delete()
        Track.objects.all().delete()
        Driver.objects.all().delete()
        Constructor.objects.all().delete()


@pytest.fixture
def season_1981(imported, db):
    return Championship.objects.get(slug=SLUG)


def urls() -> list[str]:
    return [
        reverse("motor-championships"),
        reverse("motor-championship", args=[SLUG]),
        reverse("motor-round", args=[SLUG, 1]),
        reverse("motor-round", args=[SLUG, 14]),
        reverse("motor-standings", args=[SLUG, "drivers"]),
        reverse("motor-standings", args=[SLUG, "constructors"]) + "?after=7",
        reverse("motor-what-if", args=[SLUG, "drivers"]),
        reverse("motor-what-if", args=[SLUG, "constructors"]),
        reverse("motor-driver", args=[SLUG, "nelson-piquet"]),
        reverse("motor-constructor", args=[SLUG, "lotus"]),
    ]


@pytest.mark.parametrize("index", range(10))
def test_every_page_answers_in_few_queries(
    client, season_1981, django_assert_max_num_queries, index
):
    url = urls()[index]
    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(url)
    assert response.status_code == 200, url


def synthetic_race(gp: GrandPrix, *, laps: int = 2) -> None:
    """A league-like race on the round's track: twelve cars of its grid driven round by round
    at steady speeds (a position trace as the engines give it), one pit stop, one track exit
    and one retirement stored as events. Enough for the replay and the lap chart."""
    from engine.rulesets.grandprix.track import grid_index

    n = gp.track.content["length"]
    results = sorted(
        (r for r in gp.results.select_related("entry") if r.grid), key=lambda r: r.grid
    )
    cars = results[:12]
    GrandPrix.objects.filter(pk=gp.pk).update(laps=laps)
    start = {}
    for r in cars:
        lane, index = grid_index(r.grid, n)
        start[str(r.number)] = 2 * index + (lane == "B") - 2 * n  # behind the line
    speed = {car: 20 - 0.6 * k for k, car in enumerate(start)}
    retired, pitting = str(cars[-1].number), str(cars[4].number)
    trace, done = [], {}
    for rnd in range(0, 200):
        row = {}
        for car, s0 in start.items():
            d = s0 + speed[car] * rnd - (30 if car == pitting and rnd >= 9 else 0)
            state = "racing"
            if car == retired and rnd >= 6:
                d = s0 + speed[car] * 6
                state = "retired"
            elif d >= laps * 2 * n or car in done:
                done.setdefault(car, rnd)
                d, state = laps * 2 * n, "finished"
            pos = int(d) % (2 * n)
            square = ["B" if pos % 2 else "A", pos // 2]
            if car == pitting and rnd in (7, 8):
                square, state = ["P", 20 - 8 * (rnd - 7)], "pit"
            row[car] = {
                "lap": min(max(int(d) // (2 * n) + 1, 1), laps),
                "square": square,
                "state": state,
            }
        order = sorted(row, key=lambda c: (done.get(c, 999), -(start[c] + speed[c] * rnd)))
        for place, car in enumerate(order, start=1):
            row[car]["place"] = place
        trace.append({"round": rnd, "cars": row})
        if len(done) == len(start) - 1:
            break
    GrandPrix.objects.filter(pk=gp.pk).update(trace=trace)
    by_number = {str(r.number): r for r in cars}
    events = [
        (5, "track_exit", pitting, {"corner": "T6-T7", "lap": 1}),
        (6, "retired", retired, {"reason": "engine", "lap": 1}),
        (7, "pit_stop", pitting, {"lap": 1, "box": "P20"}),
    ]
    GrandPrixEvent.objects.bulk_create(
        GrandPrixEvent(
            grand_prix=gp,
            seq=seq,
            phase="race",
            round=rnd,
            kind=kind,
            entry=by_number[car].entry,
            data=detail,
        )
        for seq, (rnd, kind, car, detail) in enumerate(events, start=1)
    )


@pytest.fixture
def canada_replayed(season_1981):
    gp = GrandPrix.objects.get(championship=season_1981, round=14)
    synthetic_race(gp)
    gp.refresh_from_db()
    return gp


def test_the_round_page_replays_a_traced_race_on_the_map(
    client, canada_replayed, django_assert_max_num_queries
):
    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(reverse("motor-round", args=[SLUG, 14]))
    html = response.content.decode()
    assert 'id="replay-frames"' in html
    assert "motor-replay.js" in html
    assert html.count('<g class="car" data-car=') == 12
    # The track exit and the retirement are marked (a pit stop is not an incident).
    assert html.count('<g class="incident" data-round=') == 2
    pits = html[html.index('id="pit-stops"') :]
    body = pits[pits.index("<tbody") : pits.index("</tbody>")]
    assert body.count("<tr") == 1  # one car stopped, on lap 1
    assert re.search(r'<td class="num">1</td>\s*<td >1</td>', body), body
    # The lap chart from the trace: grid, lap 1, lap 2, one line per car.
    chart = html[html.index('class="chart chart-laps"') :]
    assert chart.count('<g class="lap-car"') == 12
    assert "Lap chart" in chart


def test_the_replay_paints_each_car_in_its_constructors_colour_with_its_number(
    client, canada_replayed
):
    html = client.get(reverse("motor-round", args=[SLUG, 14])).content.decode()
    cars = re.findall(
        r'<g class="car" data-car="([^"]+)"[^>]*><title>[^<]*\(([^)<]+)\)</title>'
        r'<circle r="8" fill="(#[0-9a-f]{6})"[^>]*/><text[^>]*>([^<]+)</text>',
        html,
    )
    assert len(cars) == 12
    colour_of = {}
    for car, constructor, colour, label in cars:
        assert label == car  # the car's number on its disc
        assert colour_of.setdefault(constructor, colour) == colour  # team-mates alike
    assert len(set(colour_of.values())) == len(colour_of) > 1  # each team its own
    legend = html[html.index('class="replay-teams"') :]
    for constructor, colour in colour_of.items():
        assert f'style="background: {colour}"' in legend
        assert constructor in legend


def test_real_results_have_no_replay_and_a_grid_to_finish_chart(client, season_1981):
    html = client.get(reverse("motor-round", args=[SLUG, 14])).content.decode()
    assert "replay-frames" not in html
    assert "No replay" in html
    assert 'class="chart chart-track"' in html  # the track file is drawn
    assert "From the grid to the finish" in html
    html = client.get(reverse("motor-round", args=[SLUG, 1])).content.decode()
    assert 'class="chart chart-track"' not in html  # round 1 has no track file
    assert "Fuel system" in html  # a retirement with its reason


@pytest.mark.parametrize(
    "url",
    [
        "/championships/formula-1-1900/",
        f"/championships/{SLUG}/rounds/16/",
        f"/championships/{SLUG}/standings/teams/",
        f"/championships/{SLUG}/standings/drivers/?after=99",
        f"/championships/{SLUG}/standings/drivers/?after=x",
        f"/championships/{SLUG}/what-if/riders/",
        f"/championships/{SLUG}/drivers/eddy-merckx/",
        f"/championships/{SLUG}/constructors/peugeot/",
    ],
)
def test_unknown_slugs_and_rounds_are_not_found(client, season_1981, url):
    assert client.get(url).status_code == 404


def test_a_leagues_copy_is_not_served_here(client, season_1981):
    # A league's championship is shown by its season (which checks who may see it).
    copy = Championship.objects.create(
        slug="league-copy",
        name="A league",
        year=1981,
        kind="league",
        points_system=season_1981.points_system,
        copied_from=season_1981,
    )
    assert client.get(reverse("motor-championship", args=[copy.slug])).status_code == 404


def csv_rows(response) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_the_final_standings_export_as_csv(client, season_1981):
    url = reverse("motor-standings", args=[SLUG, "drivers"]) + "?_export=csv"
    rows = csv_rows(client.get(url))
    assert rows[0][:3] == ["Pos.", "Driver", "Points"]
    assert rows[1][:3] == ["1", "Nelson Piquet", "50"]
    assert rows[2][:3] == ["2", "Carlos Reutemann", "49"]
    # After round 6 (Monaco) the table of that day.
    rows = csv_rows(client.get(url + "&after=6"))
    assert rows[1][:3] == ["1", "Carlos Reutemann", "34"]


def test_the_round_results_export_as_csv_one_table_at_a_time(client, season_1981):
    url = reverse("motor-round", args=[SLUG, 1])
    rows = csv_rows(client.get(url + "?_export=csv&_table=results-"))
    assert rows[1][:5] == ["1", "1", "Alan Jones", "Williams", "80"]
    assert rows[1][5] == "1:50:41.330"
    assert ["DNF" in " ".join(row) or "retired" in " ".join(row) for row in rows[1:]].count(
        True
    ) == 16
    retirements = csv_rows(client.get(url + "?_export=csv&_table=retirements-"))
    assert retirements[0][:5] == ["No.", "Driver", "Constructor", "Lap", "Reason"]
    assert ["14", "Marc Surer", "Ensign", "71", "Fuel system"] in [r[:5] for r in retirements]


def test_the_what_if_table_scores_the_season_under_every_system(client, season_1981):
    url = reverse("motor-what-if", args=[SLUG, "drivers"]) + "?_export=csv"
    rows = csv_rows(client.get(url))
    header = rows[0]
    piquet = dict(zip(header, rows[1], strict=True))
    reutemann = dict(zip(header, rows[2], strict=True))
    assert (piquet["Driver"], piquet["Formula 1, 1981 #"], piquet["Formula 1, 1981 pts"]) == (
        "Nelson Piquet",
        "1",
        "50",
    )
    # Without the best-11 rule of 1981, 1961-1990 points; under the 1950s table Reutemann wins.
    assert reutemann["Formula 1, 1950s #"] == "1"
    assert (piquet["Formula 1, 2010 on #"], piquet["Formula 1, 2010 on pts"]) == ("1", "166")
    assert len(header) == 1 + 2 * 9  # every preset
    # Each system by its name: the short one in the columns, never its slug.
    assert "Grand Prix #" in header
    assert not [h for h in header if h.startswith("f1-")]


def test_the_pages_are_in_french(client, season_1981):
    client.cookies["django_language"] = "fr"
    html = client.get(
        reverse("motor-round", args=[SLUG, 14]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Manche 14 : Canada" in html
    assert "De la grille à l’arrivée" in html
    assert "vitesse maxi" in html  # the map's corner labels
    html = client.get(
        reverse("motor-what-if", args=[SLUG, "drivers"]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Et si…" in html


def test_driver_and_constructor_pages_list_every_round(client, season_1981):
    html = client.get(reverse("motor-driver", args=[SLUG, "nelson-piquet"])).content.decode()
    assert html.count('<td class="num">') >= 15
    assert "Position 1 in the drivers' standings after round 15, 50 points" in html
    with (DATA / "results.csv").open(encoding="utf-8") as handle:
        lotus_rounds = {
            r["round"] for r in csv.DictReader(handle) if r["constructor_id"] == "lotus"
        }
    url = reverse("motor-constructor", args=[SLUG, "lotus"])
    rows = csv_rows(client.get(url + "?_export=csv"))
    assert rows[0] == ["Round", "Grand Prix", "Cars", "Points", "Standing"]
    assert len(rows) == 1 + len(lotus_rounds)
    html = client.get(url).content.decode()
    assert "engines: Ford" in html


def test_the_query_count_does_not_grow_with_the_rounds(client, season_1981):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def counts() -> list[int]:
        out = []
        for url in urls():
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            out.append(len(queries))
        return out

    with_15 = counts()
    # The same pages with most rounds gone (7 and 14, which the pages show, kept).
    gone = GrandPrix.objects.filter(championship=season_1981, round__gt=3)
    gone.exclude(round__in=[7, 14]).delete()
    assert counts() == with_15
