"""What every cycling ruleset shares: courses and their boards, rider profiles, a stage's
inputs and outcome, the kinds of events a stage tells and their data, and their JSON forms.

The rulesets (``engine.rulesets.moreno``, ``engine.rulesets.cyclosim``) add their own settings
and their own per-rider orders and carried state (see docs/engine.md, "A stage's inputs").
"""
