"""Build romecore's sdist and wheel (``python -m build``) and check what they ship.

The wheel must hold every file a user needs and none of the build's leftovers:

- a compiled module for every ``.pyx``, without DWARF debug information (setup.py's -g0);
- every ``.py``, the ``.pyi`` stubs, ``py.typed``, the ``.pxd`` and ``.h`` a plugin build cimports,
  the record schemas, the web app's static files, each game's ``primer.md`` (and ``board.json``
  where it has one) and the shipped weights;
- no ``.c``, ``.pyx``, object files or byte code.

The sdist must carry every ``.pyx`` (the wheel is built from it) and no generated ``.c``.
What is expected is read from the source tree, not from setup.py, so a file that setup.py
forgets to ship is caught.  CI runs ``python scripts/check_wheel.py`` after the tests;
``--wheel dist/x.whl`` checks a wheel built elsewhere instead.
"""

from __future__ import annotations

import argparse
import fnmatch
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PLUGINS = SRC / "plugins"

# Data files the wheel ships beside the Python modules, as patterns on the source path.
SHIPPED = ["*.py", "*.pyi", "py.typed", "*.pxd", "*.h", "schemas/*.json", "games/*/primer.md",
           "games/*/board.json", "web/static/*", "learned/weights/*"]
# Build leftovers no wheel may hold.
LEFTOVERS = ["*.c", "*.cpp", "*.pyx", "*.o", "*.pyc", "*/__pycache__/*", "build/*"]
# Each category must match at least this many source files, so that a moved directory makes
# the check fail rather than pass vacuously.
AT_LEAST = {"py.typed": 2, "*.pyi": 10, "schemas/*.json": 1, "games/*/primer.md": 4,
            "games/*/board.json": 1, "web/static/*": 3, "learned/weights/*": 4}


def wheel_path(source: Path) -> str:
    """Where a file under src/ lands in the wheel: plugins are top-level packages."""
    base = PLUGINS if PLUGINS in source.parents else SRC
    return source.relative_to(base).as_posix()


def source_files() -> list[Path]:
    """The package files of the source tree, without build outputs and caches."""
    return [p for p in sorted(SRC.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".egg-info" not in str(p)
            and p.suffix not in (".c", ".so", ".pyd")]


def expected_contents() -> tuple[set[str], set[str], list[str]]:
    """(data files the wheel must hold, modules that must be compiled, problems of the tree)."""
    files, problems = set(), []
    counts = dict.fromkeys(AT_LEAST, 0)
    for path in source_files():
        rel = path.relative_to(SRC).as_posix()
        for pattern in SHIPPED:
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(rel, "*/" + pattern):
                files.add(wheel_path(path))
                if pattern in counts:
                    counts[pattern] += 1
                break
    for pattern, least in AT_LEAST.items():
        if counts[pattern] < least:
            problems.append(f"source tree: {counts[pattern]} files match {pattern}, expected >= {least}")
    modules = {wheel_path(p)[: -len(".pyx")] for p in source_files() if p.suffix == ".pyx"}
    return files, modules, problems


def elf_section_names(blob: bytes) -> set[str]:
    """The section names of a 64-bit ELF shared object (empty for any other format)."""
    if blob[:4] != b"\x7fELF" or blob[4] != 2:
        return set()
    endian = "<" if blob[5] == 1 else ">"
    (shoff,) = struct.unpack_from(endian + "Q", blob, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(endian + "HHH", blob, 0x3A)

    def name_and_offset(index: int) -> tuple[int, int]:
        name, _type, _flags, _addr, offset = struct.unpack_from(endian + "IIQQQ", blob, shoff + index * shentsize)
        return name, offset

    strings = name_and_offset(shstrndx)[1]
    names = set()
    for index in range(shnum):
        start = strings + name_and_offset(index)[0]
        names.add(blob[start: blob.index(b"\0", start)].decode("ascii", "replace"))
    return names


def compiled_module(name: str) -> str | None:
    """The module a compiled extension file implements (``a/b.cpython-311-x86_64-linux-gnu.so``
    -> ``a/b``), or None for any other file."""
    for suffix in (".so", ".pyd"):
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            head, _, tail = stem.rpartition("/")
            return (head + "/" if head else "") + tail.split(".")[0]
    return None


def check_wheel(wheel: Path) -> list[str]:
    """Every problem of one wheel, as printable lines (empty: the wheel is sound)."""
    files, modules, problems = expected_contents()
    with zipfile.ZipFile(wheel) as archive:
        infos = archive.infolist()
        names = {info.filename for info in infos}
        built = {}
        for info in infos:
            module = compiled_module(info.filename)
            if module is not None:
                built[module] = info.filename
                debug = sorted(s for s in elf_section_names(archive.read(info)) if s.startswith(".debug"))
                if debug:
                    problems.append(f"{info.filename}: debug information left in ({', '.join(debug[:3])}...)")
    problems += [f"missing: {name}" for name in sorted(files - names)]
    problems += [f"missing compiled module: {module}" for module in sorted(modules - set(built))]
    problems += [f"build leftover: {name}" for name in sorted(names)
                 if any(fnmatch.fnmatch(name, pattern) for pattern in LEFTOVERS)]
    so_bytes = sum(info.file_size for info in infos if compiled_module(info.filename))
    print(f"{wheel.name}: {wheel.stat().st_size / 1e6:.1f} MB, {len(infos)} files, "
          f"{sum(i.file_size for i in infos) / 1e6:.1f} MB unpacked, {len(built)} compiled modules "
          f"({so_bytes / 1e6:.1f} MB)")
    return problems


def check_sdist(sdist: Path) -> list[str]:
    """The sdist must carry every .pyx (the wheel is compiled from it) and no generated .c."""
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    pyx = {p.relative_to(ROOT).as_posix() for p in source_files() if p.suffix == ".pyx"}
    print(f"{sdist.name}: {sdist.stat().st_size / 1e6:.1f} MB, {len(names)} files")
    return ([f"sdist missing: {name}" for name in sorted(pyx - names)]
            + [f"sdist build leftover: {name}" for name in sorted(names) if name.endswith((".c", ".so"))])


def build(outdir: Path, isolation: bool) -> tuple[Path, Path]:
    """``python -m build``: the sdist, then the wheel compiled from it."""
    command = [sys.executable, "-m", "build", "--outdir", str(outdir)] + ([] if isolation else ["--no-isolation"])
    print("+ " + " ".join(command), flush=True)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:  # the compiler's warnings fill pages: show them only when the build fails
        sys.exit(f"{done.stdout[-20000:]}\n{done.stderr[-20000:]}\npython -m build failed ({done.returncode})")
    (sdist,), (wheel,) = sorted(outdir.glob("*.tar.gz")), sorted(outdir.glob("*.whl"))
    return sdist, wheel


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="check this wheel instead of building one")
    parser.add_argument("--sdist", type=Path, help="with --wheel: check this sdist too")
    parser.add_argument("--outdir", type=Path, help="keep the built sdist and wheel here (default: a temporary folder)")
    parser.add_argument("--no-isolation", action="store_true",
                        help="build with this environment's setuptools and Cython (no downloads)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        if args.wheel:
            sdist, wheel = args.sdist, args.wheel
        else:
            sdist, wheel = build(args.outdir or Path(scratch), not args.no_isolation)
        problems = check_wheel(wheel) + (check_sdist(sdist) if sdist else [])
    for line in problems:
        print("  " + line)
    print(f"{len(problems)} problems" if problems else "wheel ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
