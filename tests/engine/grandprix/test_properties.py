"""Properties of whole Grand Prix events over many seeds and the shipped tracks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rulesets.grandprix import GrandPrixInputs, simulate
from engine.rulesets.grandprix.board import board_for
from engine.rulesets.grandprix.race import RUNNING, GrandPrixRace
from engine.rulesets.grandprix.search import Context, _search, best_move
from engine.rulesets.grandprix.source import RandomSource
from tests.engine.grandprix.kit import FIELD, TRACKS

seeds = st.integers(min_value=0, max_value=2**31)
tracks = st.sampled_from(TRACKS)
PROPERTY = settings(max_examples=15, deadline=None)


@PROPERTY
@given(track=tracks, seed=seeds)
def test_same_seed_same_event_and_every_car_once_in_rank_order(track, seed) -> None:  # type: ignore[no-untyped-def]
    inputs = GrandPrixInputs(track, FIELD)
    first, again = simulate(inputs, seed), simulate(inputs, seed)
    assert first == again
    assert sorted(r.car for r in first.results) == sorted(c.car_id for c in FIELD)
    assert [r.rank for r in first.results] == list(range(1, 13))
    assert sorted(r.grid for r in first.results) == list(range(1, 13))
    finish = [e.car for e in first.events if e.kind == "finish"]
    assert finish == [r.car for r in first.results if r.status == "finished"]


class CheckedRace(GrandPrixRace):
    """Checks after every turn: one car a square, and nobody moved backwards except into a
    run-off (forwards by T-11's virtual D) or the pit lane."""

    def play_turn(self, i: int, gear: int | None = None, play_card: bool | None = None) -> None:
        before = self.d(i)
        super().play_turn(i, gear, play_card)
        on_board = [
            self.loc[j]
            for j in range(self.k)
            if self.status[j] == RUNNING and not self.board.is_runoff[self.loc[j]]
        ]
        assert len(on_board) == len(set(on_board))
        # The D kept by place()/set_crossings() is T-5's D of every car on the board.
        assert all(
            self.distances()[j] == self.d(j) for j in range(self.k) if self.status[j] == RUNNING
        )
        if self.status[i] == RUNNING and not self.board.is_pit[self.loc[i]]:
            assert self.d(i) >= before


@PROPERTY
@given(track=tracks, seed=seeds)
def test_no_two_cars_share_a_square_and_nobody_moves_backwards(track, seed) -> None:  # type: ignore[no-untyped-def]
    from engine.rulesets.grandprix import entry_order
    from engine.rulesets.grandprix.orders import CarOrders
    from engine.rulesets.grandprix.settings import GrandPrixSettings

    cars = entry_order(FIELD)
    race = CheckedRace(
        board_for(track), [CarOrders(c.car_id) for c in cars], RandomSource(seed),
        GrandPrixSettings(),
    )  # fmt: skip
    race.shuffle_piles()
    race.run_qualifying()
    race.start_grid()
    race.run_race()
    assert all(s != RUNNING for s in race.status)


@settings(max_examples=200, deadline=None)
@given(
    track=tracks,
    start=st.integers(min_value=0, max_value=199),
    gear=st.integers(min_value=1, max_value=4),
    ms=st.lists(st.integers(min_value=1, max_value=23), min_size=1, max_size=4, unique=True),
    cars=st.lists(st.integers(min_value=0, max_value=199), max_size=6),
    pit=st.booleans(),
)
def test_the_fast_paths_agree_with_the_full_search(track, start, gear, ms, cars, pit) -> None:  # type: ignore[no-untyped-def]
    board = board_for(track)
    start %= board.lap
    occupied = 0
    for c in cars:
        if c % board.lap != start:
            occupied |= 1 << (c % board.lap)
    ctx = Context(occupied, pit, 2, False, -1, 2)
    key = tuple(sorted(ms))
    assert best_move(board, start, 0, gear, key, ctx) == _search(board, start, 0, gear, key, ctx)
