"""The read API under /api/ (docs/api.md): seasons, their calendars, rounds' results and
standings, the season's tables, the competitors with their ratings, and the events and dice of
the rounds whose results are visible. Django REST framework and drf-spectacular (the OpenAPI 3
schema at /api/schema/, Swagger UI at /api/docs/).

Everything here reads through the season's selectors and the game's adapter
(plugins.adapter_for), as the pages do, and shows what the public sees of a season
(season.permissions, the public view): a member's token opens his private seasons, never an
unpublished result."""
