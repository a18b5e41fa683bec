"""A small budget of the soak and fuzz scripts in the unit suite, for every game, player
count and option set: random games whose every step and resampled world must load back,
and corrupt snapshots and dicts that must be refused with SerializationError or else keep
every promise of an accepted state (``scripts/fuzz.py`` says which).  CI also runs the
fuzzer under AddressSanitizer (``scripts/sanitize.sh``); the long campaigns are the
scripts themselves."""

from __future__ import annotations

from collections import Counter

import pytest

from scripts_loader import load_script

soak = load_script("soak")
fuzz = load_script("fuzz")
CONFIGS = fuzz.configs()
CASES = 300


def _cfg_id(cfg: dict) -> str:
    return "-".join(f"{v}" for v in cfg.values())


@pytest.mark.parametrize("cfg", CONFIGS, ids=[_cfg_id(c) for c in CONFIGS])
def test_short_soak(cfg):
    game = fuzz.load(cfg)
    steps = soak.random_games([game], count=2, seed=5, resample_rate=0.1)
    assert steps > 10


@pytest.mark.parametrize("cfg", CONFIGS, ids=[_cfg_id(c) for c in CONFIGS])
def test_fuzz_cases_are_refused_or_sound(cfg):
    game = fuzz.load(cfg)
    bases = fuzz.base_states(game, 1)
    others = [fuzz.base_states(fuzz.load(c), 1, 1)[-1].serialize()
              for c in CONFIGS if c["game"] == cfg["game"] and c != cfg][:3]
    verdicts: Counter[str] = Counter()
    faults = []
    for case in range(CASES):
        verdict, detail = fuzz.run_case(game, bases, others, 1, case)
        verdicts[verdict] += 1
        if verdict not in ("refused", "accepted"):
            faults.append(f"case {case}: {verdict}: {detail}")
    assert not faults, "\n".join(faults[:10])
    assert verdicts["refused"] and verdicts["accepted"], verdicts  # both paths exercised
