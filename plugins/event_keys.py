"""How the create form names a game's event: "race-12", "championship-3" (a kind and a
primary key). Every adapter's ``league_events`` writes its keys with :func:`event_key` and its
``league_event_get`` reads them back with :func:`event_pk`, so that a key of one game is never
read as another's and a forged key ("race-1e9", "race-١٢") names nothing."""

from __future__ import annotations

#: A primary key has at most this many digits (the database's bigint has 19).
MAX_DIGITS = 18


def event_key(kind: str, pk: int) -> str:
    return f"{kind}-{pk}"


def event_pk(key: str, *, kind: str) -> int | None:
    """The primary key a key of ``kind`` names; None for a key of another kind or no key."""
    found, _sep, pk = key.partition("-")
    if found != kind or not pk.isascii() or not pk.isdigit() or len(pk) > MAX_DIGITS:
        return None
    return int(pk)
