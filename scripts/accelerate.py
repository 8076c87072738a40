"""The optional accelerated engine: the typed rules engines compiled with mypyc, in place.

    .venv/bin/python scripts/accelerate.py            # build (make accelerate)
    .venv/bin/python scripts/accelerate.py --clean    # back to pure Python (make accelerate-clean)
    .venv/bin/python scripts/accelerate.py --target DIR   # build in a copy of the engine at DIR

The build writes one C extension (``*.so``) beside each compiled ``.py`` of ``engine/`` and
one shared runtime library at the root (``grandtour_engine__mypyc*.so``); Python then imports
the extension instead of the source. Same outcomes on both paths (the golden files pass on
both: ``tests/engine/test_compiled.py``). It needs mypy (a dev dependency, which brings
mypyc) and a C compiler; without them nothing changes: the pure-Python engine is the default.
A source edited after the build makes its module stale: ``engine.accelerated.describe()``
says so, and the build must be run again (or cleaned). Build files go to a temporary
directory; nothing but the ``.so`` files is left in the tree. See docs/engine.md, "Compiled
build".
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

GROUP = "grandtour_engine"
#: The packages compiled, whole: the engines' hot code and what it calls per move.
PACKAGES = (
    "engine/motor",
    "engine/rulesets/grandprix",
    "engine/rulesets/ludicitude",
    "engine/rulesets/moreno",
    "engine/rulesets/cyclosim",
    "engine/cycling",
)
#: Single modules of the engine core that the simulations call per turn or per event.
MODULES: tuple[str, ...] = ()
#: Left interpreted: the playtests (run once, printing), and what mypyc cannot compile:
#: ``engine/dice.py``'s exceptions subclass AssertionError (a builtin type); a compiled generic
#: class (``Generic[...]``: ``StageInputs``, ``RiderCodec``, ``CyclingHooks``, ``Rows``) fails
#: when its module is imported ("attribute '__dict__' of 'type' objects is not writable"), and
#: so does a ``Sequence`` subclass with ``__slots__`` (``DiceLog`` in ``engine/outcome.py``,
#: ``EventLog`` in Ludicitude's outcome: "mypyc classes can't have __slots__"). A module that
#: stops compiling is left interpreted too (:func:`build`), and said.
SKIP = frozenset(
    {
        "engine/rulesets/grandprix/playtest.py",
        "engine/rulesets/ludicitude/playtest.py",
        "engine/cycling/inputs.py",
        "engine/cycling/codec.py",
        "engine/cycling/hooks.py",
        "engine/rows.py",
        "engine/outcome.py",
        "engine/rulesets/ludicitude/outcome.py",
    }
)
#: mypy's options for the build: the project's strict ones on the engine, without the Django
#: plugin of pyproject.toml (the engine imports no Django).
MYPY_CONFIG = """\
[mypy]
python_version = 3.11
strict = True
ignore_missing_imports = True
"""


def _build_state() -> Any:
    """``engine.accelerated.build_state``, loaded from its file: importing the package would
    import the (perhaps broken) compiled modules this script is to replace or remove."""
    spec = importlib.util.spec_from_file_location(
        "_accelerated", ROOT / "engine" / "accelerated.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the dataclass looks its module up
    spec.loader.exec_module(module)
    return module.build_state


def sources(root: Path) -> list[str]:
    """The ``.py`` files to compile, relative to ``root``, sorted."""
    found = [m for m in MODULES if (root / m).exists()]
    for package in PACKAGES:
        found += [str(p.relative_to(root)) for p in sorted((root / package).glob("*.py"))]
    return sorted(p for p in set(found) if p not in SKIP)


def built_files(root: Path) -> list[Path]:
    """Every file the build leaves in ``root``: the extensions under ``engine/`` and the
    shared runtime library."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    files = sorted((root / "engine").rglob(f"*{suffix}"))
    files += sorted(root.glob(f"{GROUP}__mypyc*{suffix}"))
    return files


def clean(root: Path) -> int:
    removed = built_files(root)
    for path in removed:
        path.unlink()
    print(f"removed {len(removed)} compiled files from {root}: the engine runs as pure Python")
    return len(removed)


def missing_tools() -> str | None:
    """Why a build cannot run here (None: it can)."""
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is missing (it comes with mypy: pip install -e '.[dev]')"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if not shutil.which(compiler):
        return f"no C compiler ({compiler}) on PATH"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return "Python's C headers (Python.h) are missing"
    return None


def _compile(root: Path, paths: list[str], jobs: int, quiet: bool) -> list[str]:
    """One mypyc build of ``paths`` in place; returns the files mypyc refused (type-level
    errors, before any C is compiled), in which case nothing was built."""
    from mypyc.build import mypycify
    from setuptools import setup

    with tempfile.TemporaryDirectory(prefix="grandtour-mypyc-") as tmp:
        config = Path(tmp, "mypy.ini")
        config.write_text(MYPY_CONFIG, encoding="utf-8")
        here = Path.cwd()
        os.chdir(root)  # build_ext --inplace puts each extension beside its source from here
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                extensions = mypycify(
                    ["--config-file", str(config), *paths],
                    opt_level="3",
                    target_dir=str(Path(tmp, "c")),
                    group_name=GROUP,
                    multi_file=True,  # one C file per module: compiled in parallel
                )
        except SystemExit:
            refused = sorted({m.group(1) for m in _ERROR.finditer(out.getvalue())})
            print(out.getvalue(), file=sys.stderr)
            return refused or paths
        finally:
            os.chdir(here)
        os.chdir(root)
        try:
            args = ["build_ext", "--inplace", "--build-temp", str(Path(tmp, "obj"))]
            args += ["--parallel", str(jobs)]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # setuptools' notes on pyproject.toml
                setup(
                    name=GROUP,
                    ext_modules=extensions,
                    script_args=(["--quiet", *args] if quiet else args),
                )
        finally:
            os.chdir(here)
    return []


_ERROR = re.compile(r"^(engine/[\w/]+\.py):\d+: error:", re.MULTILINE)
_FRAME = re.compile(r'File "(?:[^"]*/)?(engine/[\w/]+\.py)", line')


def import_failure(root: Path, modules: tuple[str, ...]) -> str | None:
    """Imports every compiled module in a fresh interpreter with ``root`` first on the path;
    the source file of the innermost frame of the first failure (None: all import)."""
    code = f"import importlib\nfor m in {list(modules)!r}:\n    importlib.import_module(m)\n"
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode == 0:
        return None
    frames = _FRAME.findall(run.stderr)
    print(run.stderr.strip().splitlines()[-1], file=sys.stderr)
    return frames[-1] if frames else "?"


def build(root: Path, jobs: int, quiet: bool = False) -> list[str]:
    """Compile :func:`sources` of ``root`` in place and check that every module imports; a
    module mypyc refuses, or whose compiled form fails to import, is left interpreted and the
    build made again without it (at most a few times). Returns the modules compiled; on a
    failure nothing compiled is left (the pure engine as before)."""
    for path in built_files(root):  # a stale extension would shadow its edited source
        path.unlink()
    paths = sources(root)
    for _ in range(4):
        refused = _compile(root, paths, jobs, quiet)
        if not refused:
            failed = import_failure(root, _build_state()(root / "engine").compiled)
            if failed is None:
                return paths
            refused = [failed]
            for path in built_files(root):
                path.unlink()
        if not set(refused) & set(paths):
            break
        print(f"accelerate: left interpreted: {', '.join(refused)}", file=sys.stderr)
        paths = [p for p in paths if p not in refused]
    for path in built_files(root):
        path.unlink()
    raise SystemExit("accelerate: the build failed; the engine stays pure Python")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled files")
    parser.add_argument("--target", type=Path, default=ROOT, help="tree to build in (its engine/)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    parser.add_argument("--list", action="store_true", help="print the modules compiled")
    args = parser.parse_args(argv)
    root = args.target.resolve()
    if args.clean:
        clean(root)
        return 0
    if args.list:
        print("\n".join(sources(root)))
        return 0
    why = missing_tools()
    if why:
        print(
            f"accelerate: cannot build here: {why}; the engine stays pure Python", file=sys.stderr
        )
        return 1
    start = time.monotonic()
    count = len(build(root, args.jobs, args.quiet))
    print(
        f"compiled {count} engine modules with mypyc in {time.monotonic() - start:.0f} s "
        f"({len(built_files(root))} files in {root}); undo with scripts/accelerate.py --clean"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
