"""The odds' counting: small K, scripted runs (each seed mapped to a known result)."""

import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import simulate
from plugins.odds import (
    OddsCounts,
    RunLine,
    chunks,
    count_runs,
    half_width,
    merge_all,
    odds_rows,
    seed_for,
    settled,
    settled_prefix,
    widest_half_width,
    wilson,
)
from tests.engine.factory import flat_course, peloton, stage


def test_seed_for_is_sha256_of_base_and_run_number():
    digest = hashlib.sha256(b"12345:7").digest()
    assert seed_for(12345, 7) == int.from_bytes(digest[:8], "big") >> 2
    assert seed_for(12345, 7) < 2**62


def test_every_run_of_a_round_has_its_own_seed():
    seeds = {seed_for(99, n) for n in range(2000)}
    assert len(seeds) == 2000
    assert seed_for(99, 0) != seed_for(100, 0)


def test_seed_for_refuses_a_negative_run():
    with pytest.raises(ValueError, match="run number"):
        seed_for(1, -1)


def test_chunks_cover_every_run_once():
    assert chunks(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert chunks(3, 5) == [(0, 3)]
    with pytest.raises(ValueError, match="1 or more"):
        chunks(0, 5)


def _line(entrant, place, *, gap=0.0, standing=None, out=False):
    return RunLine(entrant, None if out else place, out=out, gap=gap, standing=standing)


# Three scripted runs of riders 1, 2, 3 (rider 3 leads the standing before by 60 s).
SCRIPT = {
    "a": [
        _line(1, 1, standing=100),
        _line(2, 2, gap=10, standing=110),
        _line(3, None, out=True),
    ],
    "b": [
        _line(2, 1, standing=100),
        _line(3, 2, gap=30, standing=70),
        _line(1, 3, gap=30, standing=130),
    ],
    "c": [
        _line(1, 1, standing=150),
        _line(3, 2, gap=0, standing=150),  # same GC time as rider 1: the stage place decides
        _line(2, 11, gap=120, standing=300),
    ],
}


def test_counts_of_scripted_runs():
    counts = OddsCounts()
    for name in "abc":
        counts.count(SCRIPT[name])
    assert counts.runs == 3
    one, two, three = (counts.entrants[k] for k in ("1", "2", "3"))
    assert (one.wins, one.podiums, one.top10, one.leads, one.outs) == (2, 3, 3, 2, 0)
    assert (two.wins, two.podiums, two.top10, two.leads, two.outs) == (1, 2, 2, 0, 0)
    assert (three.wins, three.podiums, three.top10, three.leads, three.outs) == (0, 2, 2, 1, 1)
    assert (one.finishes, one.gap_sum) == (3, 30)
    assert (three.finishes, three.gap_sum) == (2, 30)


def test_rows_give_chances_and_the_expected_gap_over_the_finishes():
    counts = OddsCounts()
    for name in "abc":
        counts.count(SCRIPT[name])
    rows = {row.entrant: row for row in odds_rows(counts)}
    assert [row.entrant for row in odds_rows(counts)] == ["1", "2", "3"]
    assert rows["1"].win == pytest.approx(2 / 3)
    assert rows["3"].out == pytest.approx(1 / 3)
    assert rows["3"].lead == pytest.approx(1 / 3)
    assert rows["3"].expected_gap == pytest.approx(15)
    assert rows["2"].expected_gap == pytest.approx(130 / 3)


def test_an_entrant_always_out_has_no_expected_gap():
    counts = OddsCounts()
    counts.count([_line(1, 1), _line(2, None, out=True)])
    assert {r.entrant: r.expected_gap for r in odds_rows(counts)} == {"1": 0.0, "2": None}


def _scripted(seed):
    """A run that depends on its seed only: a shuffled field of six."""
    rng = random.Random(seed)
    order = list(range(1, 7))
    rng.shuffle(order)
    return [
        RunLine(rider, place, out=rng.random() < 0.1, gap=place * 5.0, standing=rng.random())
        for place, rider in enumerate(order, start=1)
    ]


@given(
    runs=st.integers(min_value=1, max_value=40),
    size=st.integers(min_value=1, max_value=15),
    base=st.integers(min_value=0, max_value=2**62),
)
def test_counts_of_the_chunks_merged_equal_the_counts_of_all_runs(runs, size, base):
    whole = count_runs(_scripted, base=base, start=0, stop=runs)
    parts = [count_runs(_scripted, base=base, start=a, stop=b) for a, b in chunks(runs, size)]
    assert merge_all(reversed(parts)).to_data() == whole.to_data()


def test_counts_survive_their_json_form():
    counts = count_runs(_scripted, base=5, start=0, stop=25)
    assert OddsCounts.from_data(counts.to_data()).to_data() == counts.to_data()


def test_merge_changes_neither_part():
    a = count_runs(_scripted, base=5, start=0, stop=3)
    b = count_runs(_scripted, base=5, start=3, stop=6)
    before = (a.to_data(), b.to_data())
    a.merge(b)
    assert (a.to_data(), b.to_data()) == before


def test_a_real_stage_counted_in_two_chunks_equals_one_pass():
    inputs = stage(flat_course(km=60.0, sprint_km=None), peloton(n_teams=3, per_team=4))

    def run(seed):
        outcome = simulate("moreno", inputs, seed)
        return [
            RunLine(r.rider_id, r.rank, out=r.status != "finished", gap=r.gap_seconds)
            for r in outcome.results
        ]

    whole = count_runs(run, base=42, start=0, stop=6)
    merged = count_runs(run, base=42, start=0, stop=4).merge(
        count_runs(run, base=42, start=4, stop=6)
    )
    assert merged.to_data() == whole.to_data()
    assert sum(c.wins for c in whole.entrants.values()) == 6


def test_gaps_in_tenths_of_seconds_merge_to_the_same_sum_in_any_order():
    """A Grand Prix's gaps are tenths of seconds: floats, whose sums depend on their order
    unless rounded (0.1 + 0.2 + 0.3 is not 0.1 + (0.2 + 0.3) in floats)."""
    gaps = [0.1, 0.2, 0.3, 0.7, 1.1, 2.3]
    runs = [[_line(1, 1), _line(2, 2, gap=gap)] for gap in gaps]
    whole = OddsCounts()
    for run in runs:
        whole.count(run)
    parts = []
    for split in ([0, 1], [2, 3, 4, 5]), ([0], [1, 2], [3, 4, 5]):
        pieces = []
        for indexes in split:
            piece = OddsCounts()
            for index in indexes:
                piece.count(runs[index])
            pieces.append(piece)
        parts.append(merge_all(pieces))
    assert all(part.to_data() == whole.to_data() for part in parts)
    assert whole.entrants["2"].gap_sum == 4.7


# --- the 95 % interval and the settle rule ------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "runs", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Statistics in Medicine 17, table I, method 3 (the Wilson score interval).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # Symmetric about one half; all successes mirror none.
        (5, 10, 0.2366, 0.7634),
        (20, 20, 0.8389, 1.0),
    ],
)
def test_wilson_intervals_of_known_values(successes, runs, low, high):
    assert wilson(successes, runs) == (pytest.approx(low, abs=5e-5), pytest.approx(high, abs=5e-5))


def test_wilson_refuses_impossible_counts_and_knows_nothing_of_no_run():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="3 successes in 2 runs"):
        wilson(3, 2)
    with pytest.raises(ValueError, match="-1 successes"):
        wilson(-1, 2)


def test_one_point_at_one_half_takes_about_9600_runs():
    """The widest interval is at a chance of one half: ±1 point needs n ≈ (1.96 / 0.02)²."""
    assert half_width(4750, 9500) > 0.01 > half_width(4800, 9600)


def _counts(runs, **columns):
    """Counts of ``runs`` runs of one entrant with the given wins, podiums, ..."""
    entrant = {"wins": 0, "podiums": 0, "top10": 0, "leads": 0, "outs": 0} | columns
    data = [entrant[name] for name in ("wins", "podiums", "top10", "leads", "outs")]
    return OddsCounts.from_data({"runs": runs, "entrants": {"1": [*data, runs, 0, runs]}})


@pytest.mark.parametrize("column", ["wins", "podiums", "top10", "leads", "outs"])
def test_every_shown_chance_must_be_within_the_bound(column):
    """Each column alone keeps the counts unsettled while its interval is wide."""
    wide = _counts(1000, **{column: 500})
    assert widest_half_width(wide) == pytest.approx(half_width(500, 1000))
    assert not settled(wide, 0.01)
    assert settled(wide, 0.04)
    assert settled(_counts(1000), 0.01)  # every chance none in 1000: within ± 0.2 point


def test_no_run_and_a_bound_of_zero_never_settle():
    assert not settled(OddsCounts(), 0.5)
    assert not settled(_counts(1000), 0.0)


def test_the_shortest_settled_prefix_is_the_table():
    wide, narrow = _counts(10, wins=5), _counts(2000, wins=20)
    parts = [wide, narrow, narrow, None]
    counts, used, is_settled = settled_prefix(parts, 0.01)
    assert (used, is_settled) == (2, True)
    assert counts.to_data() == wide.merge(narrow).to_data()
    # None settles: every part, not settled.
    counts, used, is_settled = settled_prefix([wide, wide], 0.01)
    assert (used, is_settled, counts.runs) == (2, False, 20)
    # A part missing before any settled prefix is an error.
    with pytest.raises(ValueError, match="chunk 1"):
        settled_prefix([wide, None, narrow], 0.01)


def test_counting_stops_when_told_at_each_check():
    asked = []

    def keep_going():
        asked.append(True)
        return len(asked) < 3

    counts = count_runs(_scripted, base=5, start=10, stop=40, keep_going=keep_going, check_every=7)
    assert counts.runs == 14  # checks before runs 10, 17 and 24: stopped at the third
    assert counts.to_data() == count_runs(_scripted, base=5, start=10, stop=24).to_data()


def test_rows_carry_each_chances_interval():
    counts = _counts(20, wins=0, podiums=20)
    (row,) = odds_rows(counts)
    assert row.intervals["win"] == pytest.approx(wilson(0, 20))
    assert row.intervals["podium"] == pytest.approx(wilson(20, 20))
    assert set(row.intervals) == {"win", "podium", "top10", "lead", "out"}
