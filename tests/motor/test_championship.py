"""Championship standings as pure functions, on hand-computed examples (grandprix.md §6)."""

from decimal import Decimal

from motor.championship import RaceLine, Scoring, car_points, constructors_table, drivers_table

MODERN = Scoring(table=tuple(Decimal(p) for p in (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)))
F1_1981 = Scoring(
    table=tuple(Decimal(p) for p in (9, 6, 4, 3, 2, 1)),
    best_results=2,
    latest_result_tiebreak=False,
)


def line(rnd, driver, team, position, **extra):
    return RaceLine(rnd, (driver,), (team, "e"), position, **extra)


def test_season_example_of_the_spec():
    # §6 "Season example": R1, B2, G1, R2, then B1 and G2 retired.
    results = [
        line(1, "R1", "red", 1),
        line(1, "B2", "blue", 2),
        line(1, "G1", "green", 3),
        line(1, "R2", "red", 4),
        line(1, "B1", "blue", None),
        line(1, "G2", "green", None),
    ]
    drivers = drivers_table(results, MODERN)
    assert [(d.key, d.points) for d in drivers[:4]] == [
        ("R1", 25),
        ("B2", 18),
        ("G1", 15),
        ("R2", 12),
    ]
    teams = constructors_table(results, MODERN)
    assert [(t.key[0], t.points) for t in teams] == [("red", 37), ("blue", 18), ("green", 15)]


def test_countback_then_latest_result():
    # A wins R1 and retires in R2 (25); D is 3rd and 5th (15 + 10 = 25): A's win decides.
    results = [
        line(1, "A", "t1", 1),
        line(1, "D", "t2", 3),
        line(2, "D", "t2", 5),
        line(2, "A", "t1", None),
    ]
    table = drivers_table(results, MODERN)
    assert [(d.key, d.points, d.position) for d in table] == [("A", 25, 1), ("D", 25, 2)]
    # Same points and countback (each one 2nd and one 3rd): the better latest result wins.
    results = [
        line(1, "E", "t1", 2),
        line(1, "F", "t2", 3),
        line(2, "F", "t2", 2),
        line(2, "E", "t1", 3),
    ]
    table = drivers_table(results, MODERN)
    assert [d.key for d in table] == ["F", "E"]
    assert [d.position for d in table] == [1, 2]


def test_best_results_and_shared_positions_of_the_real_tables():
    # Best 2 of 3: X scores 9, 6, 4 -> 15 counted; Y 9 + 6 = 15; countback on the scoring
    # places: X one win, one 2nd, one 3rd; Y one win and one 2nd: X ahead.
    results = [
        line(1, "X", "a", 1),
        line(1, "Y", "b", 2),
        line(2, "Y", "b", 1),
        line(2, "X", "a", 2),
        line(3, "X", "a", 3),
        line(3, "Z", "c", 6),
        line(3, "W", "d", 6 + 1),
        line(4, "W", "d", 6),
        line(4, "Z", "c", 8),
    ]
    table = drivers_table(results, F1_1981)
    assert [(d.key, d.points, d.position) for d in table[:2]] == [("X", 15, 1), ("Y", 15, 2)]
    # Z and W: one 6th each (1 point); their 7th and 8th places do not count back: shared 3rd.
    assert [(d.key, d.points, d.position) for d in table[2:]] == [("W", 1, 3), ("Z", 1, 3)]
    # Constructors count every result (no best-N here): a = 9 + 6 + 4.
    assert constructors_table(results, F1_1981)[0].points == 19


def test_constructors_count_per_engine():
    results = [
        RaceLine(1, ("A",), ("lotus", "ford"), 1),
        RaceLine(2, ("A",), ("lotus", "matra"), 2),
        RaceLine(2, ("B",), ("lotus", "ford"), 3),
    ]
    table = constructors_table(results, MODERN)
    assert [(t.key, t.points) for t in table] == [(("lotus", "ford"), 40), (("lotus", "matra"), 18)]


def test_pole_fastest_lap_and_shared_drives():
    fastest = Scoring(table=(Decimal(25),), fastest_lap=Decimal(1), fastest_lap_top=10)
    assert car_points(RaceLine(1, ("A",), ("t", ""), 1, fastest_lap=True), fastest) == 26
    assert car_points(RaceLine(1, ("A",), ("t", ""), 11, fastest_lap=True), fastest) == 0
    fifties = Scoring(table=(Decimal(8),), fastest_lap=Decimal(1), split_shared_drives=True)
    shared = [RaceLine(1, ("A", "B"), ("t", ""), 1, fastest_lap=True)]
    assert [(d.key, d.points) for d in drivers_table(shared, fifties)] == [
        ("A", Decimal("4.5")),
        ("B", Decimal("4.5")),
    ]
    pole = Scoring(table=(Decimal(1),), pole=Decimal(2))
    assert car_points(RaceLine(1, ("A",), ("t", ""), None, pole=True), pole) == 2
