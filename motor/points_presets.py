"""The points systems shipped as data (issue 15 item 2): the real eras and each game's default.

Plain dicts, read by the data migration that creates them and by the tests; an admin may add
or edit systems in the admin (they are rows, not code). A preset's name is marked for the
catalogue: the pages say it in the reader's language (PointsSystem.title, details).
"""

from django.utils.translation import gettext_noop

PRESETS: tuple[dict[str, object], ...] = (
    {
        "slug": "f1-1950s",
        "name": gettext_noop("Formula 1, 1950s: 8-6-4-3-2 and 1 for the fastest lap"),
        "table": [8, 6, 4, 3, 2],
        "latest_result_tiebreak": False,
        "fastest_lap_points": 1,
        "split_shared_drives": True,
    },
    {
        "slug": "f1-1961-1990",
        "name": gettext_noop("Formula 1, 1961–1990: 9-6-4-3-2-1"),
        "table": [9, 6, 4, 3, 2, 1],
        "latest_result_tiebreak": False,
    },
    {
        # The real 1981 rule: the best 11 of the 15 rounds for drivers, every round for
        # constructors (checked against the official table in tests/motor).
        "slug": "f1-1981",
        "name": gettext_noop("Formula 1, 1981: 9-6-4-3-2-1, drivers' best 11 results"),
        "table": [9, 6, 4, 3, 2, 1],
        "latest_result_tiebreak": False,
        "best_results": 11,
    },
    {
        "slug": "f1-1991-2002",
        "name": gettext_noop("Formula 1, 1991–2002: 10-6-4-3-2-1"),
        "table": [10, 6, 4, 3, 2, 1],
        "latest_result_tiebreak": False,
    },
    {
        "slug": "f1-2003-2009",
        "name": gettext_noop("Formula 1, 2003–2009: 10-8-6-5-4-3-2-1"),
        "table": [10, 8, 6, 5, 4, 3, 2, 1],
        "latest_result_tiebreak": False,
    },
    {
        "slug": "f1-2010",
        "name": gettext_noop("Formula 1, 2010 on: 25-18-15-12-10-8-6-4-2-1"),
        "table": [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
        "latest_result_tiebreak": False,
    },
    {
        "slug": "f1-2019-2024",
        "name": gettext_noop(
            "Formula 1, 2019–2024: 25-18-15-12-10-8-6-4-2-1, fastest lap 1 in the top 10"
        ),
        "table": [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
        "fastest_lap_points": 1,
        "fastest_lap_top": 10,
        "latest_result_tiebreak": False,
    },
    {
        "slug": "grandprix",
        "name": gettext_noop("Grand Prix (the game's default, grandprix.md S-3)"),
        "table": [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
    },
    {
        "slug": "ludicitude",
        "name": gettext_noop("Ludicitude (the game's default, ludicitude.md S-2)"),
        "table": [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
    },
)

#: The system a real championship of a year is scored with when the import names none.
YEAR_SYSTEMS = (
    (1950, 1960, "f1-1950s"),
    (1981, 1981, "f1-1981"),
    (1961, 1990, "f1-1961-1990"),
    (1991, 2002, "f1-1991-2002"),
    (2003, 2009, "f1-2003-2009"),
    (2019, 2024, "f1-2019-2024"),
    (2010, 9999, "f1-2010"),
)


def system_for_year(year: int) -> str:
    """The preset slug of a real season's year (the first matching era above)."""
    for first, last, slug in YEAR_SYSTEMS:
        if first <= year <= last:
            return slug
    return "f1-2010"


def preset_fields(preset: dict[str, object]) -> tuple[str, dict[str, object]]:
    """A preset's slug and the PointsSystem fields it sets (the migration and
    :func:`presets_ensure` store them alike)."""
    fields = dict(preset)
    slug = str(fields.pop("slug"))
    split = fields.pop("split_shared_drives", False)
    fields["shared_drives"] = "split" if split else "none"
    return slug, fields


def presets_ensure() -> None:
    """Create the shipped points systems that are missing (an admin's edits of the others are
    kept): what the demo and the import need is there even where the rows were removed."""
    from motor.models import PointsSystem

    have = set(PointsSystem.objects.values_list("slug", flat=True))
    for preset in PRESETS:
        slug, fields = preset_fields(preset)
        if slug not in have:
            PointsSystem.objects.create(slug=slug, **fields)
