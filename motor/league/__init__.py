"""The championship's parts of a league season's public pages (MotorAdapter.league_*)."""
