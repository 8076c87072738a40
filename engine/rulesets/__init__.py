"""Rulesets: one module (or package) per game, each with ``simulate(inputs, dice, seed)``."""
