"""The SVG charts: valid, accessible, self-contained markup that says what the data says."""

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from races.charts.gc import PALETTE, format_gap, gc_gaps_svg
from races.charts.profile import TERRAIN_COLOURS, stage_profile_pair, stage_profile_svg
from riders.charts import RADAR_AXES, radar_svg
from svg.markup import as_standalone_svg, text_width

MOUNTAIN_STAGE = [
    {"terrain": "plain", "km": 40, "name": "Pau – Côte de Renoir"},
    {"terrain": "hill", "km": 3, "name": "Côte de Renoir"},
    {"terrain": "plain", "km": 30, "name": ""},
    {"terrain": "col3", "km": 4, "name": "Côte de Capvern"},
    {"terrain": "descent", "km": 5, "name": "Descent"},
    {"terrain": "plain", "km": 20, "name": ""},
    {"terrain": "col2", "km": 6, "name": "Col de Spandelles"},
    {"terrain": "descent", "km": 10, "name": "Descent"},
    {"terrain": "col1", "km": 12, "name": "Col d'Aspin"},
    {"terrain": "descent", "km": 12, "name": "Descent"},
    {"terrain": "plain", "km": 8, "name": "Sainte-Marie-de-Campan"},
    {"terrain": "colhc", "km": 17, "name": "Col du Tourmalet"},
    {"terrain": "descent", "km": 18, "name": "Descent to Luz"},
]
RATINGS = {
    "rouleur": 2,
    "sprinter": -1,
    "baroudeur": 1,
    "finisseur": 2,
    "descender": 3,
    "time_trialist": 4,
    "puncheur": 0,
    "climber": 4,
}
SERIES = [
    ("Leader", [0, 0, 0]),
    ("Second", [5, 40, 75]),
    ("Third", [10, None, 300]),
]
NUMBER = re.compile(r"-?\d+\.\d+")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def visible_text(element: ET.Element) -> str:
    """The text a reader sees: tooltips (<title> children) left out."""
    parts = [element.text or ""]
    for child in element:
        if child.tag != "title":
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return "".join(parts)


def points(element: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in (pair.split(",") for pair in element.get("points").split())
    ]


def all_charts() -> dict[str, str]:
    return {
        "profile": stage_profile_svg(MOUNTAIN_STAGE, title="Stage 6: Tarbes – Cauterets"),
        "gc": gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3], title="GC"),
        "radar": radar_svg(RATINGS, title="Jonas Vingegaard"),
        "no course": stage_profile_svg([]),
        "no standings": gc_gaps_svg([], stage_numbers=[]),
    }


# ---------------------------------------------------------------------------------------------
# Every chart
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(all_charts()))
def test_every_chart_is_a_responsive_accessible_svg(name):
    root = parse(all_charts()[name])
    assert root.tag == "svg"
    assert root.get("width") == "100%"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox"))
    assert root.get("role") == "img"
    assert root.get("aria-label")
    assert root[0].tag == "title"
    assert root[0].text == root.get("aria-label")


@pytest.mark.parametrize("name", list(all_charts()))
def test_no_external_references(name):
    svg = all_charts()[name]
    lowered = svg.lower()
    for forbidden in ("http", "<script", "href", "url(", "@import", "<image", "<foreignobject"):
        assert forbidden not in lowered
    assert not any(el.tag == "script" for el in parse(svg).iter())


def test_output_is_deterministic():
    assert all_charts() == all_charts()
    reordered = dict(reversed(RATINGS.items()))
    assert radar_svg(reordered, title="Jonas Vingegaard") == all_charts()["radar"]


@pytest.mark.parametrize("name", list(all_charts()))
def test_coordinates_are_rounded_to_one_decimal(name):
    svg = all_charts()[name]
    assert all(len(number.split(".")[1]) == 1 for number in NUMBER.findall(svg))


def test_a_standalone_copy_declares_the_svg_namespace():
    standalone = as_standalone_svg(all_charts()["radar"])
    assert parse(standalone).tag == "{http://www.w3.org/2000/svg}svg"


# ---------------------------------------------------------------------------------------------
# Stage profile
# ---------------------------------------------------------------------------------------------


def profile_labels(svg: str) -> list[ET.Element]:
    return [el for el in parse(svg).iter("text") if el.get("class") == "profile-climb"]


def outline(svg: str) -> list[tuple[float, float]]:
    (group,) = [g for g in parse(svg).iter("g") if g.get("class") == "profile-terrain"]
    (line,) = group.iter("polyline")
    return points(line)


def test_profile_labels_each_climb_with_its_category():
    labels = profile_labels(stage_profile_svg(MOUNTAIN_STAGE, height=260))
    assert [label.get("data-label") for label in labels] == [
        "Côte de Renoir (cat. 4)",
        "Côte de Capvern (cat. 3)",
        "Col de Spandelles (cat. 2)",
        "Col d'Aspin (cat. 1)",
        "Col du Tourmalet (HC)",
    ]
    assert [visible_text(label) for label in labels] == [
        label.get("data-label") for label in labels
    ]


def test_profile_labels_sit_above_their_summits():
    svg = stage_profile_svg(MOUNTAIN_STAGE)
    root = parse(svg)
    (group,) = [g for g in root.iter("g") if g.get("class") == "profile-climbs"]
    summits = [(float(c.get("cx")), float(c.get("cy"))) for c in group.iter("circle")]
    leaders = [(float(ln.get("x1")), float(ln.get("y2"))) for ln in group.iter("line")]
    assert len(summits) == len(leaders) == 5
    for (summit_x, summit_y), (leader_x, leader_top) in zip(summits, leaders, strict=True):
        assert leader_x == summit_x
        assert leader_top < summit_y
    tourmalet_x = summits[-1][0]
    assert tourmalet_x == max(x for x, _ in summits)
    assert min(y for _, y in outline(svg)) == summits[-1][1]  # the HC summit is the roof


def test_profile_labels_do_not_overlap_when_climbs_crowd_together():
    crowded = []
    for index in range(6):
        crowded += [
            {"terrain": "col2", "km": 2, "name": f"Mur numéro {index}"},
            {"terrain": "plain", "km": 3, "name": ""},
        ]
    labels = profile_labels(stage_profile_svg(crowded))
    boxes = []
    for label in labels:
        x, y = float(label.get("x")), float(label.get("y"))
        width = text_width(visible_text(label), 9)
        left = {"start": x, "end": x - width}.get(label.get("text-anchor"), x - width / 2)
        boxes.append((left, left + width, y))
    assert len(boxes) == 6
    for index, (left, right, y) in enumerate(boxes):
        for other_left, other_right, other_y in boxes[index + 1 :]:
            assert abs(y - other_y) >= 9 or right <= other_left or other_right <= left


def test_profile_shortens_long_names_but_keeps_the_category():
    long_name = "Col de la Croix de Fer par la route des lacs et des glaciers " * 3
    segments = [
        {"terrain": "plain", "km": 100, "name": ""},
        {"terrain": "colhc", "km": 20, "name": long_name},
    ]
    (label,) = profile_labels(stage_profile_svg(segments, height=160))
    shown = visible_text(label)
    assert shown.endswith("… (HC)")
    assert label.find("title").text == f"{long_name.strip()} (HC)"


def test_profile_climb_without_a_name_shows_its_category():
    segments = [{"terrain": "plain", "km": 50, "name": ""}, {"terrain": "col1", "km": 8}]
    (label,) = profile_labels(stage_profile_svg(segments))
    assert visible_text(label) == "cat. 1"


def test_profile_escapes_names():
    segments = [
        {"terrain": "plain", "km": 60, "name": "Start"},
        {"terrain": "col2", "km": 8, "name": '<script>alert(1)</script> & "Côte" d\'Or'},
    ]
    svg = stage_profile_svg(segments, title="Stage <b>1</b> & co")
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    assert "&amp;" in svg
    (label,) = profile_labels(svg)  # parses
    assert label.get("data-label") == '<script>alert(1)</script> & "Côte" d\'Or (cat. 2)'
    assert "Stage <b>1</b> & co" in parse(svg).get("aria-label")


def test_profile_drops_characters_xml_forbids():
    segments = [{"terrain": "col3", "km": 4, "name": "Bad\x00\x07\x1b name\ufffe"}]
    (label,) = profile_labels(stage_profile_svg(segments))
    assert label.get("data-label") == "Bad name (cat. 3)"


def test_profile_x_axis_spans_the_stage_distance():
    svg = stage_profile_svg(MOUNTAIN_STAGE, width=720)
    line = outline(svg)
    total = sum(segment["km"] for segment in MOUNTAIN_STAGE)
    assert total == 185
    (start_x, _), (end_x, _) = line[0], line[-1]
    assert [x for x, _ in line] == sorted(x for x, _ in line)
    assert 0 < start_x < 30
    assert 690 < end_x < 720
    axis = next(g for g in parse(svg).iter("g") if g.get("class") == "profile-axis")
    labels = [visible_text(el) for el in axis.iter("text")]
    assert labels == ["0", "25", "50", "75", "100", "125", "150", "175", "185 km"]
    # 50 km to 100 km spans 50/185 of the axis
    ticks = {visible_text(el): float(el.get("x")) for el in axis.iter("text")}
    assert ticks["100"] - ticks["50"] == pytest.approx((end_x - start_x) * 50 / 185, abs=0.2)


def test_the_phone_profile_shows_the_whole_stage_and_its_whole_legend():
    # Issue 29: on a phone the profile showed km 0-75 of the stage, scrolled in its figure.
    desktop, phone = (
        parse(svg + "</svg>") for svg in stage_profile_pair(MOUNTAIN_STAGE).split("</svg>")[:2]
    )
    assert desktop.get("class") == "chart chart-profile"
    assert phone.get("class") == "chart chart-profile chart-narrow"
    width = float(phone.get("viewBox").split()[2])
    assert width < 420  # about a phone's width: its labels show near their design size
    axis = next(g for g in phone.iter("g") if g.get("class") == "profile-axis")
    labels = [visible_text(el) for el in axis.iter("text")]
    assert labels[0] == "0"
    assert labels[-1] == "185 km"
    assert len(labels) <= 7  # fewer ticks than on a desktop, so that they never touch
    finish = next(el for el in axis.iter("text") if el.get("class") == "profile-finish-km")
    assert float(finish.get("x")) + text_width("185 km", 10) / 2 <= width
    # The seven terrains' legend wraps onto a second row inside the drawing.
    legend = next(g for g in phone.iter("g") if g.get("class") == "profile-legend")
    items = [
        (float(el.get("x")), float(el.get("y")), visible_text(el)) for el in legend.iter("text")
    ]
    assert len(items) == 7
    assert len({y for _, y, _ in items}) == 2
    assert all(x + text_width(text, 10) <= width for x, _, text in items)
    assert all(0 < y <= float(phone.get("viewBox").split()[3]) for _, y, _ in items)


@pytest.mark.parametrize(
    ("distance", "ticks"),
    [
        (120, ["0", "25", "50", "75", "100"]),
        (220, ["0", "50", "100", "150", "200"]),
        (22.4, ["0", "5", "10", "15", "20"]),
    ],
)
def test_profile_ticks_suit_the_stage_length(distance, ticks):
    svg = stage_profile_svg([{"terrain": "plain", "km": distance, "name": ""}])
    axis = next(g for g in parse(svg).iter("g") if g.get("class") == "profile-axis")
    labels = [visible_text(el) for el in axis.iter("text")]
    assert labels[:-1] == ticks
    assert labels[-1] == f"{distance:g} km"


def test_profile_elevation_follows_the_terrain_and_never_goes_below_sea_level():
    segments = [
        {"terrain": "plain", "km": 10, "name": ""},
        {"terrain": "col1", "km": 10, "name": "Up"},  # +700 m
        {"terrain": "descent", "km": 30, "name": "Down"},  # -2100 m, stops at 0
        {"terrain": "plain", "km": 10, "name": ""},
    ]
    line = outline(stage_profile_svg(segments))
    sea_level = line[0][1]
    assert line[1][1] == sea_level  # plain: flat
    summit = line[2][1]
    assert summit < sea_level
    assert max(y for _, y in line) == sea_level
    assert line[-1][1] == sea_level
    # the descent reaches sea level after 10 km of its 30 (700 m at 70 m/km)
    bottom_of_descent = line[3]
    assert bottom_of_descent[1] == sea_level
    km_width = (line[-1][0] - line[0][0]) / 60
    assert bottom_of_descent[0] - line[2][0] == pytest.approx(10 * km_width, abs=0.2)


def test_profile_steeper_categories_climb_faster():
    terrains = ("hill", "col3", "col2", "col1", "colhc")
    segments = []
    for terrain in terrains:
        segments += [
            {"terrain": terrain, "km": 5, "name": ""},
            {"terrain": "descent", "km": 10, "name": ""},
        ]
    line = outline(stage_profile_svg(segments))
    # each climb starts from sea level (the descents bottom out): line[0], then per pair of
    # segments a summit, the point the descent reaches 0 and the end of the descent
    sea_level = line[0][1]
    summits = line[1::3]
    heights = dict(zip(terrains, (sea_level - y for _, y in summits), strict=True))
    # hill 60 m/km = col2 60 m/km; col3 50 < col2 60 < col1 70 < HC 80
    assert heights["col3"] < heights["col2"] < heights["col1"] < heights["colhc"]
    assert heights["hill"] == heights["col2"]


def test_profile_colours_each_terrain_and_has_a_legend():
    root = parse(stage_profile_svg(MOUNTAIN_STAGE))
    fills = {
        polygon.get("data-terrain"): polygon.get("fill")
        for polygon in root.iter("polygon")
        if polygon.get("data-terrain")
    }
    assert fills == TERRAIN_COLOURS
    (legend,) = [g for g in root.iter("g") if g.get("class") == "profile-legend"]
    assert [visible_text(el) for el in legend.iter("text")] == [
        "Plain",
        "Cat. 4",
        "Cat. 3",
        "Cat. 2",
        "Cat. 1",
        "HC",
        "Descent",
    ]


def _luminance(colour: str) -> float:
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_the_climbs_darken_with_their_category_from_cat_4_to_hc():
    climbs = ("hill", "col3", "col2", "col1", "colhc")
    shades = [_luminance(TERRAIN_COLOURS[terrain]) for terrain in climbs]
    assert shades == sorted(shades, reverse=True)


def test_profile_describes_the_stage_for_screen_readers():
    label = parse(stage_profile_svg(MOUNTAIN_STAGE, title="Stage 6")).get("aria-label")
    assert label.startswith("Stage profile: Stage 6, 185 km, 5 categorised climbs:")
    assert "Col du Tourmalet (HC) at km 167" in label


@pytest.mark.parametrize(
    "segments",
    [[], [{"terrain": "plain", "km": 0, "name": "x"}], [{"terrain": "plain", "km": "?"}], None],
)
def test_empty_course_says_no_course(segments):
    svg = stage_profile_svg(segments)
    root = parse(svg)
    assert "No course" in [visible_text(el) for el in root.iter("text")]
    assert root.get("aria-label") == "No course"
    assert root.get("viewBox") == "0 0 720 48"


def test_profile_of_an_unknown_terrain_is_drawn_flat_and_grey():
    svg = stage_profile_svg([{"terrain": "cobbles", "km": 20, "name": "Arenberg"}])
    (polygon,) = [p for p in parse(svg).iter("polygon") if p.get("data-terrain")]
    assert polygon.get("fill") == "#c4c9ce"


# ---------------------------------------------------------------------------------------------
# GC gaps
# ---------------------------------------------------------------------------------------------


def riders(svg: str) -> dict[str, ET.Element]:
    return {g.get("data-rider"): g for g in parse(svg).iter("g") if g.get("class") == "gc-rider"}


def markers(group: ET.Element) -> dict[int, tuple[float, float]]:
    return {
        int(c.get("data-stage")): (float(c.get("cx")), float(c.get("cy")))
        for c in group.iter("circle")
    }


def test_gc_chart_puts_the_leader_at_the_top():
    svg = gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3])
    groups = riders(svg)
    leader = markers(groups["Leader"])
    second = markers(groups["Second"])
    all_y = [y for group in groups.values() for _, y in markers(group).values()]
    assert {y for _, y in leader.values()} == {min(all_y)}
    assert second[1][1] < second[2][1] < second[3][1]  # the gap grows downwards
    # 75 s is 15 times 5 s below the leader line
    top = leader[3][1]
    assert (second[3][1] - top) == pytest.approx(15 * (second[1][1] - top), abs=0.2)


def test_gc_chart_stages_run_left_to_right():
    leader = markers(riders(gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3]))["Leader"])
    assert leader[1][0] < leader[2][0] < leader[3][0]


def test_gc_chart_skips_missing_stages():
    third = riders(gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3]))["Third"]
    assert set(markers(third)) == {1, 3}
    assert list(third.iter("polyline")) == []  # no line drawn across the missing stage
    second = riders(gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3]))["Second"]
    (line,) = second.iter("polyline")
    assert len(points(line)) == 3


def test_gc_chart_ignores_gaps_beyond_the_stages_and_treats_short_series_as_missing():
    groups = riders(gc_gaps_svg([("A", [0, 10, 20, 30]), ("B", [0])], stage_numbers=[1, 2, 3]))
    assert set(markers(groups["A"])) == {1, 2, 3}
    assert set(markers(groups["B"])) == {1}


def test_gc_axis_labels_are_minutes_and_seconds():
    root = parse(gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3]))
    (axis,) = [g for g in root.iter("g") if g.get("class") == "gc-axis"]
    labels = [visible_text(el) for el in axis.iter("text")]
    assert labels[:7] == ["0:00", "1:00", "2:00", "3:00", "4:00", "5:00", "1"]
    assert labels[-3:] == ["3", "Stage", "Gap to leader"]


def test_gc_axis_switches_to_hours_for_big_gaps():
    root = parse(gc_gaps_svg([("A", [0, 0]), ("B", [600, 5000])], stage_numbers=[1, 2]))
    (axis,) = [g for g in root.iter("g") if g.get("class") == "gc-axis"]
    labels = [visible_text(el) for el in axis.iter("text")]
    assert labels[:7] == [
        "0:00:00",
        "0:15:00",
        "0:30:00",
        "0:45:00",
        "1:00:00",
        "1:15:00",
        "1:30:00",
    ]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0:00"), (7, "0:07"), (90, "1:30"), (3599, "59:59"), (3600, "1:00:00"), (3725, "1:02:05")],
)
def test_format_gap(seconds, text):
    assert format_gap(seconds) == text


def test_gc_chart_gives_ten_riders_distinct_colours_and_a_legend():
    series = [(f"Rider {index}", [index * 10, index * 20]) for index in range(10)]
    svg = gc_gaps_svg(series, stage_numbers=[1, 2])
    colours = [group.get("stroke") for group in riders(svg).values()]
    assert sorted(colours) == sorted(PALETTE)
    (legend,) = [g for g in parse(svg).iter("g") if g.get("class") == "gc-legend"]
    assert [visible_text(el) for el in legend.iter("text")] == [name for name, _ in series]


def _line_styles(svg: str) -> dict[str, tuple[str | None, str | None]]:
    """Each rider's dash pattern and end marker's shape: what tells the lines apart in grey."""
    styles = {}
    for name, group in riders(svg).items():
        (line, *_rest) = group.iter("polyline")
        (end,) = [el for el in group if el.get("class") == "gc-end"]
        styles[name] = (line.get("stroke-dasharray"), end.get("data-shape"))
    return styles


def test_gc_chart_lines_are_told_apart_without_colour():
    series = [(f"Rider {index}", [index * 10, index * 20]) for index in range(10)]
    svg = gc_gaps_svg(series, stage_numbers=[1, 2])
    styles = _line_styles(svg)
    assert len(set(styles.values())) == 10  # dash and shape differ for every pair of lines
    root = parse(svg)
    # Each line ends with its number, numbers one to ten in the legend's order, never on top of
    # each other even where lines end together.
    (ends,) = [g for g in root.iter("g") if g.get("class") == "gc-end-numbers"]
    numbers = {el.get("data-line"): float(el.get("y")) for el in ends.iter("text")}
    assert sorted(numbers, key=int) == [str(n) for n in range(1, 11)]
    (keys,) = [g for g in root.iter("g") if g.get("class") == "gc-legend-numbers"]
    assert [visible_text(el) for el in keys.iter("text")] == [str(n) for n in range(1, 11)]
    together = gc_gaps_svg([(f"R{i}", [0, 0]) for i in range(5)], stage_numbers=[1, 2])
    (ends,) = [g for g in parse(together).iter("g") if g.get("class") == "gc-end-numbers"]
    ys = sorted(float(el.get("y")) for el in ends.iter("text"))
    assert all(b - a >= 10 for a, b in itertools.pairwise(ys))


def test_gc_chart_for_a_phone_puts_the_legend_under_the_plot():
    series = [(f"Rider {index}", [index * 10, index * 20]) for index in range(10)]
    svg = gc_gaps_svg(series, stage_numbers=[1, 2], width=340, height=260, legend_below=True)
    root = parse(svg)
    assert root.get("viewBox") == f"0 0 340 {260 + 18 * 10 + 8}"
    (legend,) = [g for g in root.iter("g") if g.get("class") == "gc-legend"]
    texts = list(legend.iter("text"))
    assert [visible_text(el) for el in texts] == [name for name, _ in series]  # none cut off
    assert all(float(el.get("y")) > 260 for el in texts)  # below the plot, one per row
    assert len({float(el.get("x")) for el in texts}) == 1


def test_gc_chart_for_a_phone_breaks_its_title_rather_than_cutting_it():
    title = "Écarts des dix premiers du classement général après chaque étape"
    narrow = parse(
        gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3], width=340, legend_below=True, title=title)
    )
    lines = [visible_text(el) for el in narrow.iter("text") if el.get("font-weight") == "600"]
    assert len(lines) == 2
    assert " ".join(lines) == title
    wide = parse(gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3], width=340, title=title))
    (line,) = [visible_text(el) for el in wide.iter("text") if el.get("font-weight") == "600"]
    assert line.endswith("…")


@pytest.mark.parametrize("narrow", [False, True])
def test_a_one_stage_gc_chart_keeps_its_numbers_below_the_title(narrow):
    # A one-stage race: the winner alone, the others together at the foot of the scale.
    series = [("Winner", [0])] + [(f"Rider {i}", [10]) for i in range(9)]
    layout = {"width": 340, "height": 260, "legend_below": True} if narrow else {}
    title = "GC gaps of the top 10 after each stage"
    root = parse(gc_gaps_svg(series, stage_numbers=[1], title=title, **layout))
    title_y = max(float(el.get("y")) for el in root.iter("text") if el.get("font-weight") == "600")
    (ends,) = [g for g in root.iter("g") if g.get("class") == "gc-end-numbers"]
    numbers = {el.get("data-line"): float(el.get("y")) for el in ends.iter("text")}
    assert len(numbers) == 10
    # 10 px numbers: wholly under the title's baseline, and apart from each other.
    assert all(y - 10 > title_y for y in numbers.values()), numbers
    ys = sorted(numbers.values())
    assert all(b - a >= 10 for a, b in itertools.pairwise(ys))
    (axis,) = [g for g in root.iter("g") if g.get("class") == "gc-axis"]
    stage_label_y = max(float(el.get("y")) for el in axis.iter("text") if visible_text(el) == "1")
    assert max(ys) < stage_label_y


def test_gc_chart_escapes_rider_names():
    svg = gc_gaps_svg([("<img src=x onerror=alert(1)> & Co", [0, 12])], stage_numbers=[1, 2])
    assert "<img" not in svg
    assert list(riders(svg)) == ["<img src=x onerror=alert(1)> & Co"]


def test_gc_chart_with_a_single_stage_draws_dots():
    svg = gc_gaps_svg(SERIES, stage_numbers=[1])
    groups = riders(svg)
    xs = {x for group in groups.values() for x, _ in markers(group).values()}
    assert len(xs) == 1
    assert not any(group.find("polyline") is not None for group in groups.values())


@pytest.mark.parametrize(
    ("series", "stages"),
    [([], [1, 2]), ([("A", [None, None])], [1, 2]), ([("A", [0])], []), ([("A", [])], [1])],
)
def test_gc_chart_without_standings_says_so(series, stages):
    root = parse(gc_gaps_svg(series, stage_numbers=stages, title="GC"))
    assert [visible_text(el) for el in root.iter("text")] == ["No standings yet"]
    assert root.get("aria-label") == "GC: No standings yet"


def test_gc_chart_describes_the_standings_for_screen_readers():
    label = parse(gc_gaps_svg(SERIES, stage_numbers=[1, 2, 3])).get("aria-label")
    assert label == (
        "GC gaps, stages 1 to 3: Leader 0:00 after stage 3; Second 1:15 after stage 3; "
        "Third 5:00 after stage 3"
    )


# ---------------------------------------------------------------------------------------------
# Radar
# ---------------------------------------------------------------------------------------------


def radar_labels(svg: str) -> list[ET.Element]:
    return [el for el in parse(svg).iter("text") if el.get("data-axis")]


def radar_vertices(svg: str) -> list[tuple[float, float]]:
    (shape,) = [p for p in parse(svg).iter("polygon") if p.get("class") == "radar-shape"]
    return points(shape)


def centre(svg: str) -> tuple[float, float]:
    (grid,) = [g for g in parse(svg).iter("g") if g.get("class") == "radar-grid"]
    spoke = grid.find("line")
    return float(spoke.get("x1")), float(spoke.get("y1"))


def test_radar_has_eight_axes_and_shows_h():
    svg = radar_svg(RATINGS)
    labels = radar_labels(svg)
    assert [label.get("data-axis") for label in labels] == list(RADAR_AXES)
    assert [visible_text(label) for label in labels] == [
        "Rouleur2",
        "SprinterH",
        "Baroudeur1",
        "Finisseur2",
        "Descender3",
        "Time trial4",
        "Puncheur0",
        "Climber4",
    ]
    ratings = [label.find("tspan[@class='radar-rating']").text for label in labels]
    assert ratings == ["2", "H", "1", "2", "3", "4", "0", "4"]
    (grid,) = [g for g in parse(svg).iter("g") if g.get("class") == "radar-grid"]
    assert len(grid.findall("line")) == 8
    assert len(radar_vertices(svg)) == 8


def test_radar_starts_at_the_top_and_goes_clockwise():
    svg = radar_svg(dict.fromkeys(RADAR_AXES, 4))
    cx, cy = centre(svg)
    vertices = radar_vertices(svg)
    rouleur, sprinter, baroudeur = vertices[0], vertices[1], vertices[2]
    assert rouleur[0] == pytest.approx(cx)
    assert rouleur[1] < cy
    assert sprinter[0] > cx
    assert sprinter[1] < cy
    assert baroudeur[0] > cx
    assert baroudeur[1] == pytest.approx(cy)


def test_radar_puts_h_on_a_small_ring_inside_zero():
    def radius(rating: int) -> float:
        svg = radar_svg(dict.fromkeys(RADAR_AXES, rating))
        cx, cy = centre(svg)
        x, y = radar_vertices(svg)[0]
        return ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5

    radii = [radius(rating) for rating in (-1, 0, 1, 2, 3, 4)]
    assert 0 < radii[0] < radii[-1] * 0.2
    assert radii == sorted(radii)
    steps = [b - a for a, b in itertools.pairwise(radii)]
    assert max(steps) - min(steps) < 0.3  # evenly spaced rings


def test_radar_has_grid_rings_for_every_rating():
    (grid,) = [g for g in parse(radar_svg(RATINGS)).iter("g") if g.get("class") == "radar-grid"]
    assert [ring.get("data-rating") for ring in grid.findall("polygon")] == [
        "H",
        "0",
        "1",
        "2",
        "3",
        "4",
    ]


def test_radar_shape_is_semi_transparent():
    (shape,) = [p for p in parse(radar_svg(RATINGS)).iter("polygon") if p.get("class")]
    assert 0 < float(shape.get("fill-opacity")) < 1


def test_radar_labels_can_be_translated_and_are_escaped():
    svg = radar_svg(RATINGS, labels={"sprinter": "Sprinteur", "climber": "Grimpeur <&>"})
    texts = {label.get("data-axis"): visible_text(label) for label in radar_labels(svg)}
    assert texts["sprinter"] == "SprinteurH"
    assert texts["climber"] == "Grimpeur <&>4"
    assert texts["rouleur"] == "Rouleur2"  # untranslated axes keep their English label
    assert "Grimpeur &lt;&amp;&gt;" in svg


def test_radar_keeps_long_labels_inside_the_square():
    svg = radar_svg(RATINGS, labels={"baroudeur": "Ausreißer-Spezialist der Extraklasse"})
    (label,) = [el for el in radar_labels(svg) if el.get("data-axis") == "baroudeur"]
    shown = visible_text(label)[:-1]
    assert shown.endswith("…")
    assert float(label.get("x")) + text_width(shown, 10) <= 280
    assert label.find("title").text == "Ausreißer-Spezialist der Extraklasse"


def test_radar_clamps_odd_ratings():
    svg = radar_svg({"rouleur": 9, "sprinter": -5, "climber": "H"})
    ratings = [label.find("tspan[@class='radar-rating']").text for label in radar_labels(svg)]
    assert ratings == ["4", "H", "0", "0", "0", "0", "0", "H"]
