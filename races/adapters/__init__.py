"""One adapter per cycling ruleset (``moreno``, ``cyclosim``): the league's door to the engine.

Each module builds its ruleset's inputs from rows, writes the outcome as rows, and gives the
orders and settings form fields generated from the engine's specs. They are registered in the
adapter registry (``plugins``) by :class:`races.apps.RacesConfig`; the season layer finds them
with ``plugins.adapter_for(season.ruleset)``.
"""
