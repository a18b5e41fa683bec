"""The examples in the docstrings of romecore's pure-Python modules run, as installed.

Doctests are collected from the imported package rather than from ``src/`` so that the
compiled kernels a clean checkout lacks come from the installation, as a user meets them.
Modules needing an optional extra that is not installed are skipped."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import romecore


def _pure_python_modules() -> list[str]:
    names = ["romecore"]
    for info in pkgutil.walk_packages(romecore.__path__, "romecore."):
        spec = importlib.util.find_spec(info.name)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            names.append(info.name)
    return sorted(names)


MODULES = _pure_python_modules()


def test_the_walk_finds_the_package():
    assert {"romecore", "romecore.api", "romecore.spec", "romecore.tournament"} <= set(MODULES)


@pytest.mark.parametrize("name", ["romecore", "romecore.api", "romecore.spec", "romecore.tournament"])
def test_documented_modules_have_examples(name):
    finder = doctest.DocTestFinder()
    assert sum(len(t.examples) for t in finder.find(importlib.import_module(name))) > 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:  # an optional extra (ray, pyspiel, pettingzoo) missing
        pytest.skip(f"{name}: {e}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
