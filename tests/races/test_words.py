"""Every abandon reason a cycling engine writes has words on the pages, for translation: a new
reason in an engine fails here until it is labelled."""

import ast
from pathlib import Path

from engine.rulesets.cyclosim import finish as cyclosim_finish
from engine.rulesets.moreno.finish import ABANDON_REASONS as MORENO_REASONS
from races.words import ABANDON_REASONS, abandon_reason_label


def _cyclosim_reasons() -> set[str]:
    """The string literals the Cyclo Sim finish assigns to ``reason``."""
    tree = ast.parse(Path(cyclosim_finish.__file__).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "reason" for t in node.targets
        ):
            for value in ast.walk(node.value):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.add(value.value)
    return found


def test_every_engine_abandon_reason_has_words():
    engine_reasons = set(MORENO_REASONS.values()) | _cyclosim_reasons()
    assert {"crash", "stage not finished"} <= engine_reasons
    assert engine_reasons <= set(ABANDON_REASONS), engine_reasons - set(ABANDON_REASONS)


def test_a_reason_reads_as_words_and_an_unknown_one_stays():
    assert abandon_reason_label("last arrived") == "the abandon roll: the last rider to finish"
    assert abandon_reason_label("kept by the jury") == "kept by the jury"
