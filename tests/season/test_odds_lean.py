"""The cycling odds' runs take the engine's lean path (no dice log, no events but the lines'):
each run's lines are those the full path gives, intermediate sprint bonuses and all."""

import pytest

from plugins import adapter_for
from plugins.odds import RunLine
from season.models import Round
from season.services import odds

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def full_path_lines(adapter, round, inputs_data, seed):
    """A run's lines built as odds_runner builds them, from the full path's outcome."""
    inputs = adapter.inputs_from_data(inputs_data)
    before = {e.rider_id: e.gc_time_before for e in inputs.entrants}
    outcome = adapter.simulate(inputs, seed=seed)
    assert len(outcome.dice) > 0
    lines = []
    for line in adapter.stage_times(stage=round.stage, outcome=outcome, rules=round.season.rules):
        finished = line.status == "finished"
        lines.append(
            RunLine(
                line.rider_id,
                line.rank if finished else None,
                out=not finished,
                gap=float(line.gap_seconds),
                standing=float(before[line.rider_id] + line.time_seconds - line.bonus_seconds)
                if finished
                else None,
            )
        )
    return lines


@pytest.mark.parametrize("ruleset", ["moreno", "cyclosim"])
def test_the_odds_runs_are_the_full_paths_lines(demo, ruleset):
    demo.ruleset = ruleset
    demo.save(update_fields=["ruleset"])
    round = Round.objects.select_related("stage", "season").get(season=demo, number=1)
    plan = odds.odds_plan(round=round, runs=10)
    adapter = adapter_for(ruleset)
    run = adapter.odds_runner(plan.inputs, rules=round.season.rules, round=round)
    for seed in (11, 12, 13):
        lines = run(seed)
        assert len(lines) == 176
        assert lines == full_path_lines(adapter, round, plan.inputs, seed)
