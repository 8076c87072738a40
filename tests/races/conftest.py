"""The hypothesis profile of the mutation runs (bench/mutation.py, ``[tool.mutmut]``).

mutmut runs the property tests once per mutant on a loaded machine: a slow example must not
count as a kill (no deadline), and two runs must draw the same examples (derandomize), so
that the mutation score is the same figure every time. Normal test runs do not load it.
"""

from hypothesis import settings

settings.register_profile("mutation", deadline=None, derandomize=True)
