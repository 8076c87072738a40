"""The motor charts are pure functions of plain data: the track map drawn from a track file,
the lap chart and the points chart (issue 15 item 6)."""

import math
import re
from itertools import pairwise
from pathlib import Path

import pytest
import yaml

from motor.charts.lap_chart import LapLine, lap_chart_svg, laps_from_trace
from motor.charts.layout import Bend, Loop
from motor.charts.points_chart import points_chart_svg
from motor.charts.track_map import (
    CarDot,
    Incident,
    direction_clockwise,
    replay_svg,
    track_map_for,
    track_map_svg,
)

TRACKS = Path(__file__).resolve().parents[2] / "motor" / "tracks"
GP_TRACKS = sorted((TRACKS / "grandprix").glob("*.yaml"))
LUDI_TRACKS = sorted((TRACKS / "ludicitude").glob("*.yaml"))


def content(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def signed_area(points) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in pairwise(points)) / 2


@pytest.mark.parametrize("path", GP_TRACKS, ids=lambda p: p.stem)
def test_the_map_has_one_corner_label_per_corner_with_its_max_gear(path):
    track = content(path)
    svg = track_map_svg(track)
    labels = re.findall(
        r'<g class="corner-label" data-corner="([^"]+)" data-max-gear="(\d)">'
        r"<title>[^<]*</title><circle[^>]*/><text[^>]*>(\d)</text>",
        svg,
    )
    expected = [(c["id"], str(c["max_gear"]), str(c["max_gear"])) for c in track["corners"]]
    assert labels == expected


@pytest.mark.parametrize("path", GP_TRACKS, ids=lambda p: p.stem)
def test_the_map_draws_both_lanes_the_grid_the_racing_lines_and_the_pit_boxes(path):
    track = content(path)
    svg = track_map_svg(track)
    n = track["length"]
    squares = re.findall(r'data-square="([AB])(\d+)"', svg)
    assert sorted(squares) == sorted((lane, str(i)) for lane in "AB" for i in range(n))
    assert svg.count('class="racing-line"') == len(track.get("racing_lines") or [])
    assert re.findall(r'data-box="P(\d+)"', svg) == [str(k) for k in range(23, 3, -1)]
    grid = re.search(r'<g class="grid".*?</g>', svg, re.S)
    assert grid
    assert grid.group(0).count("<rect") == track["grid"]["slots"]


def test_a_corner_sits_at_its_bend_on_the_loop():
    # Four corners of a 100-square loop; the loop turns most at the marked squares.
    loop = Loop(100, [Bend(10.5), Bend(35.5, 1.6), Bend(60.5), Bend(85.5, 1.6)])

    def turn(q: float) -> float:
        (_p, u0), (_q, u1) = loop.frame(q - 2), loop.frame(q + 2)
        return abs(math.atan2(u0[0] * u1[1] - u0[1] * u1[0], u0[0] * u1[0] + u0[1] * u1[1]))

    for bend in (10.5, 35.5, 60.5, 85.5):
        assert turn(bend) > 0.5
        assert turn(bend + 12) < 0.05  # on the straight after it


def test_the_loop_closes_and_turns_the_tracks_way():
    bends = [Bend(10.5), Bend(30.5, 1.6), Bend(70.5)]
    clockwise = Loop(100, bends, clockwise=True)
    anticlockwise = Loop(100, bends, clockwise=False)
    for loop in (clockwise, anticlockwise):
        start, end = loop.frame(0)[0], loop.frame(99.999)[0]
        assert math.dist(start, end) < 0.1
    # On a screen (y down) a clockwise loop has a positive shoelace area.
    assert signed_area(clockwise.points) > 0 > signed_area(anticlockwise.points)
    assert direction_clockwise({"direction": "ANTI_CLOCKWISE"}) is False
    assert direction_clockwise({}) is True


def test_squares_are_laid_in_driving_order_one_square_apart():
    track = content(GP_TRACKS[0])
    drawn = track_map_for(track)
    spots = [drawn.location({"square": ["A", i]}) for i in range(track["length"])]
    gaps = [math.dist(a, b) for a, b in pairwise(spots)]
    # Evenly spread between bends: no two consecutive squares on top of each other or far apart.
    assert min(gaps) > 0.3 * max(gaps)


def test_a_track_without_a_file_is_a_placeholder():
    svg = track_map_svg(None)
    assert "No track file" in svg
    assert track_map_for({"game": "chess"}) is None


@pytest.mark.parametrize("path", LUDI_TRACKS, ids=lambda p: p.stem)
def test_a_ludicitude_map_has_every_card_with_its_tokens(path):
    track = content(path)
    svg = track_map_svg(track)
    cards = re.findall(
        r'<g class="track-card" data-card="(\d+)"><title>Card \d+: ([^<]+)</title>', svg
    )
    assert cards == [(str(i), card) for i, card in enumerate(track["cards"])]


def grid_trace():
    return [
        {
            "round": 0,
            "cars": {
                "1": {"place": 1, "lap": 1, "square": ["B", 99], "state": "racing"},
                "2": {"place": 2, "lap": 1, "square": ["A", 99], "state": "racing"},
                "3": {"place": 3, "lap": 1, "square": ["B", 98], "state": "racing"},
            },
        },
        {
            "round": 1,
            "cars": {
                "1": {"place": 1, "lap": 1, "square": ["B", 8], "state": "racing"},
                "2": {"place": 2, "lap": 1, "square": ["P", 20], "state": "pit"},
                "3": {"place": 3, "lap": 1, "square": ["B", 98], "state": "retired"},
            },
        },
    ]


def test_the_replay_moves_the_cars_and_marks_the_incidents():
    drawn = track_map_for(content(TRACKS / "grandprix" / "gilles-villeneuve.yaml"))
    cars = [CarDot(str(i), str(i)) for i in (1, 2, 3)]
    incident = Incident(1, "3", "3 retired (engine)")
    svg, frames = replay_svg(drawn, grid_trace(), cars=cars, incidents=[incident])
    assert [f["round"] for f in frames] == [0, 1]
    assert sorted(frames[0]["cars"]) == ["1", "2", "3"]
    # A retired car leaves the map; a car in the pit is on the pit road.
    assert sorted(frames[1]["cars"]) == ["1", "2"]
    assert frames[1]["cars"]["2"][2] == "pit"
    assert frames[0]["cars"]["1"][:2] != frames[1]["cars"]["1"][:2]
    assert svg.count('<g class="car" data-car=') == 3
    # The incident is drawn where the car was (the round before, as it left the race).
    marker = re.search(r'<g class="incident" data-round="1" data-car="3">.*?points="([^"]+)"', svg)
    assert marker
    x = float(marker.group(1).split()[0].split(",")[0])
    assert x == pytest.approx(frames[0]["cars"]["3"][0])


def test_a_cars_number_reads_on_its_teams_colour():
    from motor.charts.track_map import INK, label_colour, team_colours

    colours = team_colours(["a", "b", "c"])
    assert len(set(colours.values())) == 3
    assert label_colour("#4e79a7") == "#fff"  # dark blue: a white number
    assert label_colour("#edc948") == INK  # yellow: an ink one
    drawn = track_map_for(content(TRACKS / "grandprix" / "gilles-villeneuve.yaml"))
    cars = [CarDot("1", "1", colour="#edc948"), CarDot("2", "2", colour="#4e79a7")]
    svg, _ = replay_svg(drawn, grid_trace(), cars=cars)
    assert 'fill="#edc948"' in svg
    assert 'fill="#4e79a7"' in svg


def test_positions_by_lap_come_from_the_order_of_crossing():
    trace = [
        {"round": 0, "cars": {"a": {"lap": 1, "place": 1}, "b": {"lap": 1, "place": 2}}},
        # b crosses first (round 3), a a round later: b leads lap 1.
        {"round": 3, "cars": {"a": {"lap": 1, "place": 2}, "b": {"lap": 2, "place": 1}}},
        {"round": 4, "cars": {"a": {"lap": 2, "place": 2}, "b": {"lap": 2, "place": 1}}},
        {
            "round": 9,
            "cars": {
                "a": {"lap": 2, "place": 1, "state": "finished"},
                "b": {"lap": 2, "place": 2, "state": "retired"},
            },
        },
    ]
    positions = laps_from_trace(trace, grid={"a": 1, "b": 2}, laps=2)
    assert positions == {"a": [1, 2, 1], "b": [2, 1, None]}
    # Two cars completing a lap in the same round: the one ahead in that round is ahead.
    same_round = [
        {"round": 0, "cars": {"a": {"lap": 1, "place": 2}, "b": {"lap": 1, "place": 1}}},
        {"round": 5, "cars": {"a": {"lap": 2, "place": 2}, "b": {"lap": 2, "place": 1}}},
    ]
    assert laps_from_trace(same_round, grid={"a": 2, "b": 1}, laps=2) == {
        "a": [2, 2, None],
        "b": [1, 1, None],
    }


def test_the_lap_chart_has_one_line_per_car_named_at_both_ends():
    cars = [
        LapLine("1", "Alan Jones", (2, 1, 1, 1)),
        LapLine("2", "Carlos Reutemann", (1, 2, 2, 2)),
        LapLine("5", "Nelson Piquet", (3, 3, None, None), out=True),
    ]
    svg = lap_chart_svg(cars, columns=["Grid", "1", "2", "3"])
    assert svg.count('<g class="lap-car"') == 3
    assert svg.count("<polyline") == 3
    assert len(re.findall(r">1</text>", svg)) >= 2  # car 1's label at the grid and the finish
    assert svg.count('class="out"') == 1


def test_the_points_chart_names_each_line_with_its_total():
    svg = points_chart_svg(
        [("Nelson Piquet", [4, 10, 19]), ("Carlos Reutemann", [6, 15, 15])], rounds=[1, 2, 3]
    )
    assert svg.count('<g class="points-line"') == 2
    labels = re.findall(
        r"<text[^>]*>(?:<title>[^<]*</title>)?([^<]+)</text>",
        svg[svg.index('class="points-labels"') :],
    )
    assert labels == ["Nelson Piquet 19", "Carlos Reutemann 15"]
    assert "No standings" in points_chart_svg([], rounds=[])


def test_a_simulated_grand_prix_replays_and_charts_by_lap():
    # The engine's own trace (docs/grandprix.md, "Position trace") through the page's charts.
    from engine.motor import CarEntry, load_document
    from engine.rulesets.grandprix import GrandPrixInputs, simulate
    from engine.rulesets.grandprix.outcome import outcome_to_json
    from engine.rulesets.grandprix.track import load_track

    path = TRACKS / "grandprix" / "monaco.yaml"
    field = tuple(CarEntry(str(n), f"Driver {n}", f"Team {n // 2}") for n in range(1, 13))
    doc = outcome_to_json(simulate(GrandPrixInputs(load_track(load_document(path)), field), 7))
    trace = doc["trace"]
    drawn = track_map_for(content(path))
    frames = replay_svg(drawn, trace, cars=[CarDot(c.car_id, c.car_id) for c in field])[1]
    assert len(frames) == len(trace)
    running = {r["car"] for r in doc["results"] if r["status"] != "retired"}
    assert set(frames[-1]["cars"]) == running  # every car still in the race is on the map
    grid = {r["car"]: r["grid"] for r in doc["results"]}
    positions = laps_from_trace(trace, grid=grid, laps=doc["laps"])
    finishers = sorted(
        (r for r in doc["results"] if r["status"] == "finished"), key=lambda r: r["rank"]
    )
    # The order at the end of the last lap is the order of the finish.
    assert [c for c, p in sorted(positions.items(), key=lambda i: i[1][-1] or 99) if p[-1]] == [
        r["car"] for r in finishers
    ]
