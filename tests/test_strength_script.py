"""``scripts/strength.py``: a tiny match end to end, its saved line and table, and the
per-game time limit that keeps long games in a strength match (the tournament's 600 s
default dropped three 10,000-simulation Glory to Rome games)."""

from __future__ import annotations

import json

from scripts_loader import load_script

strength = load_script("strength")


def test_match_saves_a_line_and_the_table_replays_it(tmp_path):
    out = tmp_path / "rows.jsonl"
    rc = strength.main(["match", "--game", "rise_to_power", "--players", "2", "--agent", "random",
                        "--opponent", "random", "--games", "3", "--jobs", "1", "--seed", "4",
                        "--out", str(out)])
    assert rc == 0
    row = json.loads(out.read_text())
    assert row["games"] == 4 and row["asked"] == 3      # rounded up to whole rotations
    assert 0.0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1.0
    text = strength.table(str(out))
    assert "| rise_to_power | 2 | `random` | `random` | 4 |" in text
    assert "--games 3 --seed 4" in text


def test_a_row_with_dropped_games_says_so(tmp_path):
    out = tmp_path / "rows.jsonl"
    line = {"game": "glory_to_rome", "players": 2, "agent": "a", "opponent": "b", "games": 17,
            "wins": 17.0, "win_rate": 1.0, "ci_low": 0.8, "ci_high": 1.0, "par": 0.5,
            "agent_seconds_per_move": 0.5, "forfeits": 0, "seed": 0, "asked": 20}
    out.write_text(json.dumps(line) + "\n")
    text = strength.table(str(out))
    assert "| 17 of 20 |" in text and "--games 20 --seed 0" in text


def test_the_game_time_limit_reaches_the_tournament(monkeypatch):
    seen = {}
    real = strength.tournament.run

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(strength.tournament, "run", spy)
    strength.main(["match", "--game", "rise_to_power", "--agent", "random", "--opponent", "random",
                   "--games", "2", "--jobs", "1", "--game-time-limit", "1234"])
    assert seen["time_limit"] == 1234.0
    strength.main(["match", "--game", "rise_to_power", "--agent", "random", "--opponent", "random",
                   "--games", "2", "--jobs", "1"])
    assert seen["time_limit"] == strength.GAME_TIME_LIMIT > 600.0
