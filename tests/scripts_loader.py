"""The repository's ``scripts/`` and ``bench/`` tools are programs, not a package: tests load
one by name."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from types import ModuleType

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load_script(name: str, folder: str = "scripts") -> ModuleType:
    """``<folder>/<name>.py`` as a module, registered in ``sys.modules`` (a dataclass in it
    looks its module up there)."""
    spec = importlib.util.spec_from_file_location(f"romecore_{folder}_{name}", ROOT / folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
