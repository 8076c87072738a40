"""How times and gaps read on the pages: 4:05:10, +1:23, s.t."""

from races.timing import clock as _clock


def clock(seconds: int | None) -> str:
    return "" if seconds is None else _clock(int(seconds))


def gap(seconds: int | None) -> str:
    return f"+{_clock(int(seconds))}" if seconds else ""
