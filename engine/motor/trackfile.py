"""Reading a track file (YAML, or JSON of the same structure) with the line of every value."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.motor.faults import Fault, TrackError

PathKey = str | int


def content_hash(data: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``data`` (sorted keys, compact, UTF-8)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class DataDocument:
    """A parsed file: its plain data and the 1-based line of each value by key/index path."""

    name: str
    data: Any
    lines: dict[tuple[PathKey, ...], int] = field(repr=False, compare=False)

    def line(self, *path: PathKey) -> int | None:
        """Line of the value at ``path``, else of its nearest ancestor that exists, else None."""
        lines = self.lines
        for end in range(len(path), -1, -1):
            found = lines.get(path[:end])
            if found is not None:
                return found
        return None

    @property
    def content_hash(self) -> str:
        """:func:`content_hash` of the data."""
        return content_hash(self.data)


def _walk(node: yaml.Node, path: tuple[PathKey, ...]) -> Iterator[tuple[tuple[PathKey, ...], int]]:
    yield path, node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            yield from _walk(value_node, (*path, key))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _walk(item, (*path, i))


def _duplicate_key(node: yaml.Node) -> tuple[str, int] | None:
    """The first mapping key that appears twice in one mapping (PyYAML keeps the last)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                return key, key_node.start_mark.line + 1
            seen.add(key)
            found = _duplicate_key(value_node)
            if found:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found = _duplicate_key(item)
            if found:
                return found
    return None


def _file_fault(name: str, message: str, line: int | None) -> TrackError:
    return TrackError(name, (Fault("FILE", "", "", message, line),))


#: Bounds of a track file before anything is built from it: the shipped tracks are under 20 kB
#: and 6 levels deep, and need no alias, tag or key that is not a name.
MAX_BYTES = 512 * 1024
MAX_DEPTH = 12
#: The longest number a track file writes (Python refuses to read ints of 4,300 digits and
#: more; the shipped tracks' longest is 4).
MAX_NUMBER_CHARS = 20
_STR_TAG = "tag:yaml.org,2002:str"
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_RESOLVER = yaml.resolver.Resolver()


def _shape_fault(text: str, name: str) -> TrackError | None:
    """The first thing a track file may not hold, read from the parser's events (which build
    nothing, so a small file cannot make them slow or deep): an alias (a 558-byte file of
    aliases expands to billions of values), nesting deeper than MAX_DEPTH, an explicit tag
    (``!!set``, ``!!python/...``), a mapping key that is not a plain name."""
    depth = 0
    # In each open collection: whether its next node is a key (None in a sequence).
    expect_key: list[bool | None] = []
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        line = event.start_mark.line + 1 if event.start_mark is not None else None
        is_node = isinstance(event, (yaml.NodeEvent, yaml.CollectionStartEvent))
        if isinstance(event, yaml.AliasEvent):
            return _file_fault(name, "aliases (*name) are not allowed in a track file", line)
        parent = expect_key[-1] if expect_key else None
        as_key = is_node and parent is True
        if is_node and parent is not None:
            expect_key[-1] = not parent
        tag = getattr(event, "tag", None)
        if is_node and tag is not None and tag != "!":
            return _file_fault(name, f"tags ({tag}) are not allowed in a track file", line)
        if as_key and not (isinstance(event, yaml.ScalarEvent) and _resolves_to_str(event)):
            return _file_fault(name, "every key of a mapping must be a name (text)", line)
        if isinstance(event, yaml.ScalarEvent) and _long_number(event):
            return _file_fault(name, f"a number of more than {MAX_NUMBER_CHARS} characters", line)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return _file_fault(name, f"nested more than {MAX_DEPTH} levels deep", line)
            expect_key.append(True if isinstance(event, yaml.MappingStartEvent) else None)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            expect_key.pop()
    return None


def _long_number(event: yaml.ScalarEvent) -> bool:
    if len(event.value) <= MAX_NUMBER_CHARS or event.style is not None:
        return False
    resolved = _RESOLVER.resolve(yaml.ScalarNode, event.value, (True, False))  # type: ignore[no-untyped-call]
    return resolved in _NUMBER_TAGS


def _resolves_to_str(event: yaml.ScalarEvent) -> bool:
    if event.style is not None and event.style in "'\"":
        return True  # a quoted key is text
    resolved = _RESOLVER.resolve(yaml.ScalarNode, event.value, (True, False))  # type: ignore[no-untyped-call]
    return bool(resolved == _STR_TAG)


def parse_document(
    text: str, name: str = "track.yaml", *, json_format: bool = False
) -> DataDocument:
    """Parse ``text`` as YAML (``safe_load``), or as JSON when ``json_format``; lines from
    ``yaml.compose`` (JSON is read by :mod:`json`, its lines by the YAML composer, which reads
    JSON's flow style). :class:`TrackError` with a ``FILE`` fault on a syntax error, and on a
    file beyond the bounds of a track file (size, aliases, depth, tags, keys)."""
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise _file_fault(name, f"{size} bytes: a track file has at most {MAX_BYTES}", None)
    try:
        fault = _shape_fault(text, name)
    except yaml.MarkedYAMLError as exc:
        fault = None if json_format else _syntax_fault(name, exc)
    except yaml.YAMLError as exc:
        fault = None if json_format else _file_fault(name, f"invalid YAML ({exc})", None)
    if fault is not None:
        raise fault
    if json_format:
        try:
            data = json.loads(text)
        except RecursionError:
            raise _file_fault(name, f"nested more than {MAX_DEPTH} levels deep", None) from None
        except json.JSONDecodeError as exc:
            raise _file_fault(
                name, f"invalid JSON ({exc.msg}, column {exc.colno})", exc.lineno
            ) from None
        except ValueError:  # an int of 4,300 digits and more
            raise _file_fault(
                name, f"a number of more than {MAX_NUMBER_CHARS} characters", None
            ) from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        if not json_format:
            data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        if json_format:
            # Valid JSON that the YAML composer refuses (rare, e.g. tabs): no lines, same data.
            return DataDocument(name, data, {})
        raise _syntax_fault(name, exc) from None
    except yaml.YAMLError as exc:
        raise _file_fault(name, f"invalid YAML ({exc})", None) from None
    lines: dict[tuple[PathKey, ...], int] = {}
    if node is not None:
        duplicate = _duplicate_key(node)
        if duplicate is not None:
            key, line = duplicate
            raise _file_fault(name, f"key {key!r} appears twice in one mapping", line)
        lines = dict(_walk(node, ()))
    return DataDocument(name, data, lines)


def _syntax_fault(name: str, exc: yaml.MarkedYAMLError) -> TrackError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    return _file_fault(name, f"invalid YAML ({exc.problem or exc.context})", line)


def load_document(path: str | Path) -> DataDocument:
    """Read and parse a YAML or JSON (``.json``) file; :class:`TrackError` if it cannot be."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _file_fault(name, "no such file", None) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _file_fault(name, f"cannot be read ({exc})", None) from None
    return parse_document(text, name, json_format=name.lower().endswith(".json"))
