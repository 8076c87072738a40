"""Whether this engine runs compiled (mypyc, ``scripts/accelerate.py``) or as pure Python.

Reads the files beside the sources only (imports nothing): a module is compiled when a C
extension sits beside its ``.py`` (Python imports the extension first), and stale when the
source was changed after the extension was built (the build must be run again).
"""

from __future__ import annotations

import sysconfig
from dataclasses import dataclass
from pathlib import Path

ENGINE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class BuildState:
    """The compiled modules (dotted names) and, among them, the stale ones."""

    compiled: tuple[str, ...]
    stale: tuple[str, ...]

    @property
    def is_compiled(self) -> bool:
        return bool(self.compiled)


def build_state(engine_dir: Path = ENGINE) -> BuildState:
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    compiled, stale = [], []
    for ext in sorted(engine_dir.rglob(f"*{suffix}")):
        source = ext.with_name(ext.name[: -len(suffix)] + ".py")
        parts = source.relative_to(engine_dir.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        compiled.append(name)
        if source.exists() and source.stat().st_mtime > ext.stat().st_mtime:
            stale.append(name)
    return BuildState(tuple(compiled), tuple(stale))


def describe(state: BuildState | None = None) -> str:
    """One line: ``yes (mypyc, N modules)``, ``no (pure Python)``, or the stale modules."""
    state = state or build_state()
    if not state.is_compiled:
        return "no (pure Python)"
    text = f"yes (mypyc, {len(state.compiled)} modules)"
    if state.stale:
        names = ", ".join(state.stale[:3]) + (" ..." if len(state.stale) > 3 else "")
        text += f"; STALE, changed after the build: {names} (run make accelerate again)"
    return text
