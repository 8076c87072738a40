"""How times and gaps read on the season's pages (the stage race's texts, races.formatting)."""

from races.formatting import clock as clock
from races.formatting import gap as gap
