"""The stage race's parts of a league season's public pages (CyclingAdapter.league_*)."""
