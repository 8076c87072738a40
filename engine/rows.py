"""A lazy immutable sequence, for the parts of an outcome (events, logs, traces) that a race
keeps compact and builds only for whoever reads them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar, overload

T = TypeVar("T")


class Rows(Sequence[T], Generic[T]):
    """An immutable sequence built when first read: the race keeps compact rows and an
    outcome's events, log and trace become objects only for whoever reads them (a benchmark
    or a league that stores results only pays for what it uses). Compares as the tuple of its
    rows."""

    __slots__ = ("_build", "_rows")

    def __init__(self, build: Callable[[], tuple[T, ...]] | Sequence[T] = ()) -> None:
        if callable(build):
            self._build: Callable[[], tuple[T, ...]] | None = build
            self._rows: tuple[T, ...] = ()
        else:
            self._build = None
            self._rows = tuple(build)

    def _all(self) -> tuple[T, ...]:
        if self._build is not None:
            self._rows = self._build()
            self._build = None
        return self._rows

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self._all()[index]

    def __iter__(self) -> Iterator[T]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rows):
            return self._all() == other._all()
        if isinstance(other, tuple | list):
            return list(self._all()) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<{len(self)} rows>)"
