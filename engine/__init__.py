"""Pure-Python rules engines: no Django, no clock, no global random.

``simulate(ruleset_name, inputs, seed)`` resolves one stage and returns an ``Outcome``; see
docs/engine.md.
"""

from engine.registry import RULESETS, Ruleset, UnknownRuleset, get_ruleset, simulate

__all__ = ["RULESETS", "Ruleset", "UnknownRuleset", "get_ruleset", "simulate"]
