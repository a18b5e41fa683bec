#!/usr/bin/env python3
"""Build any commit of romecore's history into a virtual environment of its own and seat it
through the engine protocol: the frozen baselines that ``romecore match`` measures against.

    python bench/baseline.py 0.1                 # baseline 0.1 (commit 02dcb83): build once, print its spec
    python bench/baseline.py 02dcb83 --time 0.1  # the spec with a budget of 0.1 s a move
    romecore match ismcts:time=0.1,clock=cpu "$(python bench/baseline.py 0.1 --time 0.1)" \\
        rise_to_power --sprt 0,25

It prints one line, an ``engine:file=...`` agent spec (the engine agent,
:mod:`romecore.engine.agent`), which every command that takes agents accepts.

Where: ``~/.cache/romecore-baselines/<commit, 12 hex digits>/`` (``--cache`` or the
``ROMECORE_BASELINES`` variable), outside the work tree, holding ``src/`` (``git archive``
of the commit), ``venv/`` (its own virtual environment with that commit installed by
``pip install``, which compiles the Cython kernels: minutes of CPU, run under ``nice -n 19``;
pip fetches the build requirements and dependencies from PyPI), a copy of this file, one
``engine-<agent>.json`` per agent spec asked for, and ``BUILT`` once the build succeeded.
A folder without ``BUILT`` is built again; ``--rebuild`` forces it.

How the baseline speaks the protocol.  A commit with ``romecore engine``
(``src/romecore/engine/serve.py``) is run as ``venv/bin/python -I -m romecore engine --agent
SPEC``.  Older commits, baseline 0.1 among them, do not have it: they are run as
``venv/bin/python -I baseline.py serve --agent SPEC`` (the copy of this file in the cache
folder).  That adapter (:func:`serve`) imports nothing but the standard library and the
baseline's own romecore, through the API every version since 0.1 has had:
``load_game``, ``Game.state_from_dict``, ``make_agent``, ``agent.step``,
``romecore.plugins.registry.agent(name).params``.  It answers ``hello``, takes
``new_game``, answers each ``position`` with its agent's move in the ``world`` sent
(the budget's ``time`` becomes the agent's ``time``, its ``iterations`` the agent's
``simulations`` or ``nodes``, where the agent has them), and answers anything it cannot
do with ``error``.  It searches in the foreground: a ``stop`` is read only after the
move, so it stops nothing (the host's move timeout still holds).  A world whose legal moves
differ from the baseline's own rules is refused with an ``error`` (the engine forfeits
that game) rather than played wrongly.  ``-I`` keeps the host's ``PYTHONPATH`` (a
tournament worker's, which names the newer romecore) away from the baseline.

Frozen baselines are named in :data:`BASELINES` and in ``bench/results/elo-history.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import IO, Any

#: Named baselines: a release name and the commit it freezes (a git tag is not shared,
#: so the commit is written here and in bench/results/elo-history.md).
BASELINES = {"0.1": "02dcb83e4a6952b5fefe87b6515ab10cee4e1bc5"}
#: What the baseline plays without --agent: its default search, each game's own parameters,
#: with a time budget counted in CPU seconds of its searching thread (``clock=cpu``), as the
#: agents it meets are timed in SPRT matches: on a loaded machine a wall-clock budget would
#: starve one side only.
DEFAULT_AGENT = "ismcts:clock=cpu"
PROTOCOL_VERSION = 1
REPO = Path(__file__).resolve().parent.parent


# -- building -----------------------------------------------------------------------------------

def cache_root(given: str | None = None) -> Path:
    """Where baselines are built: ``given``, else $ROMECORE_BASELINES, else ~/.cache/romecore-baselines."""
    return Path(given or os.environ.get("ROMECORE_BASELINES") or Path.home() / ".cache" / "romecore-baselines")


def resolve_commit(name: str, repo: Path = REPO) -> str:
    """The full hash of a baseline name (``0.1``) or any commit git can name."""
    ref = BASELINES.get(name, name)
    out = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"baseline.py: {name!r} is not a commit of {repo} (nor a named baseline: "
                         f"{', '.join(BASELINES)})")
    return out.stdout.strip()


def has_engine(commit: str, repo: Path = REPO) -> bool:
    """True when the commit has its own ``romecore engine``."""
    probe = subprocess.run(["git", "-C", str(repo), "cat-file", "-e", f"{commit}:src/romecore/engine/serve.py"],
                           capture_output=True)
    return probe.returncode == 0


def build(commit: str, folder: Path, repo: Path = REPO, log: IO[str] = sys.stderr) -> None:
    """Unpacks ``commit`` into ``folder/src`` and installs it into ``folder/venv`` (niced)."""
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "src").mkdir(parents=True)
    print(f"baseline.py: building {commit[:12]} in {folder} (minutes of CPU, under nice -n 19)", file=log)
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit],
                             capture_output=True, check=True).stdout
    tar_path = folder / "src.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(folder / "src", filter="data")
    tar_path.unlink()
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    nice = ["nice", "-n", "19"] if shutil.which("nice") else []
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    with open(folder / "build.log", "w") as out:
        done = subprocess.run([*nice, python, "-m", "pip", "install", "--no-input", str(folder / "src")],
                              stdout=out, stderr=subprocess.STDOUT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"baseline.py: pip install of {commit[:12]} failed; see {folder / 'build.log'}")
    shutil.copy2(__file__, folder / "baseline.py")
    check = subprocess.run([python, "-I", "-c", "import romecore; print(romecore.__version__)"],
                           capture_output=True, text=True, cwd=folder)
    if check.returncode != 0:
        raise SystemExit(f"baseline.py: the built baseline does not import: {check.stderr.strip()[-500:]}")
    (folder / "BUILT").write_text(f"{commit}\nromecore {check.stdout.strip()}\n")
    print(f"baseline.py: built romecore {check.stdout.strip()} at {commit[:12]}", file=log)


def engine_file(folder: Path, commit: str, agent: str, own_engine: bool) -> Path:
    """Writes (once per agent spec) the engine agent's JSON file for this baseline."""
    slug = re.sub(r"[^A-Za-z0-9.]+", "_", agent).strip("_") or "default"
    path = folder / f"engine-{slug}.json"
    python = str(folder / "venv" / "bin" / "python")
    if own_engine:
        command = [python, "-I", "-m", "romecore", "engine", "--agent", agent]
    else:
        command = [python, "-I", str(folder / "baseline.py"), "serve", "--agent", agent, "--name",
                   f"romecore baseline {commit[:7]}"]
    data = {"command": command, "cwd": ".", "baseline": commit, "agent": agent}
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def spec_for(path: Path, time: float | None, simulations: int | None, timeout: float | None = None,
             start_timeout: float | None = None) -> str:
    """The ``engine:`` agent spec seating the engine file at ``path``."""
    spec = f"engine:file={path}"
    if time:
        spec += f",time={time:g}"
    if simulations:
        spec += f",simulations={simulations}"
    if timeout:
        spec += f",timeout={timeout:g}"
    if start_timeout:
        spec += f",start_timeout={start_timeout:g}"
    return spec


# -- the adapter: the protocol spoken by a baseline without romecore engine -----------------------

def serve(agent: str, name: str, lines: Any = None, out: IO[str] | None = None) -> int:
    """Speaks the engine protocol on stdin/stdout for the installed romecore's ``agent``,
    using only the API every version has had (see the module text)."""
    import romecore
    from romecore.plugins import registry
    from romecore.spec import parse_agent_spec

    lines = sys.stdin if lines is None else lines
    out = out or sys.stdout
    sys.stdout = sys.stderr  # anything the agents print stays off the protocol's stream

    def reply(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, separators=(",", ":")) + "\n")
        out.flush()

    game: Any = None
    seat, seed = -1, 0
    agents: dict[str, Any] = {}

    def budgeted(budget: dict[str, Any]) -> str:
        base, params = parse_agent_spec(agent)
        table = registry.agent(base).params
        t, n = budget.get("time"), budget.get("iterations")
        if isinstance(t, (int, float)) and not isinstance(t, bool) and t > 0 and "time" in table:
            params["time"] = f"{t:g}"
        if isinstance(n, int) and not isinstance(n, bool) and n > 0:
            key = next((k for k in ("simulations", "nodes") if k in table), None)
            if key is not None:
                params[key] = str(n)
        return base + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")

    for line in lines:
        if not line.strip():
            continue
        request = None
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("a message is a JSON object")
            kind = msg.get("type")
            if kind == "quit":
                break
            if kind == "hello":
                if msg.get("protocol") != PROTOCOL_VERSION:
                    reply({"type": "error", "message": f"protocol {msg.get('protocol')!r} is not spoken here; "
                                                       f"this engine speaks {PROTOCOL_VERSION}"})
                reply({"type": "hello", "protocol": PROTOCOL_VERSION, "name": f"{name} {agent}",
                       "version": romecore.__version__, "games": romecore.list_games()})
            elif kind == "new_game":
                options = dict(msg["options"])
                options.setdefault("players", msg["players"])
                game = romecore.load_game(msg["game"], **options)
                seat, seed, agents = int(msg["seat"]), int(msg.get("seed") or 0), {}
                romecore.make_agent(agent, game, seed=0)  # a spec this game cannot use is refused now
            elif kind == "position":
                request = msg["id"]
                if game is None:
                    raise ValueError("no game: send new_game first")
                if msg.get("world") is None:
                    raise ValueError("this engine searches a world: send 'world' (a state's to_dict)")
                state = game.state_from_dict(msg["world"])
                legal = sorted(int(item["id"]) for item in msg["legal"])
                if state.current_player() != msg["seat"]:
                    raise ValueError(f"the world has player {state.current_player()} to move, not {msg['seat']}")
                if legal != sorted(state.legal_actions()):
                    raise ValueError("the legal moves sent differ from this baseline's rules in the world sent")
                spec = budgeted(dict(msg.get("budget") or {}))
                if spec not in agents:
                    agents[spec] = romecore.make_agent(spec, game, seed=seed + 1000 * seat)
                action = int(agents[spec].step(state))
                if action not in legal:
                    raise ValueError(f"the agent chose {action}, which is not legal")
                reply({"type": "move", "id": request, "move": action})
            elif kind == "stop":
                pass  # the search runs in the foreground: there is none under way when this is read
            else:
                raise ValueError(f"message type {kind!r} is not one of hello, new_game, position, stop, quit")
        except Exception as e:  # every failure is an answer, never the engine's end
            error: dict[str, Any] = {"type": "error", "message": f"{type(e).__name__}: {e}"[:2000]}
            if isinstance(request, int):
                error["id"] = request
            reply(error)
    return 0


# -- the command --------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["serve"]:
        p = argparse.ArgumentParser(prog="baseline.py serve", description="speak the engine protocol")
        p.add_argument("--agent", default=DEFAULT_AGENT)
        p.add_argument("--name", default="romecore baseline")
        a = p.parse_args(args[1:])
        return serve(a.agent, a.name)
    p = argparse.ArgumentParser(prog="baseline.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("commit", help=f"a commit of this repository, or a named baseline ({', '.join(BASELINES)})")
    p.add_argument("--agent", default=DEFAULT_AGENT,
                   help="the baseline's agent spec (default: %(default)s with each game's parameters)")
    p.add_argument("--time", type=float, default=None, help="seconds per move, sent as the engine's budget")
    p.add_argument("--simulations", type=int, default=None, help="iterations per move, sent as the budget")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="wall seconds a move may take before the engine forfeits (default: %(default)s, romecore "
                        "match's --move-time-limit; a CPU-clock budget of 0.1 s took over 20 s of wall time on a "
                        "starved machine; 0: the engine agent's own 2 x time + 1)")
    p.add_argument("--start-timeout", type=float, default=120.0,
                   help="wall seconds the baseline may take to start and answer hello before its game is "
                        "forfeited (default: %(default)s; importing romecore on a starved machine took over 30)")
    p.add_argument("--cache", default=None, help="where baselines are built (default: ~/.cache/romecore-baselines)")
    p.add_argument("--rebuild", action="store_true", help="build again even if built")
    a = p.parse_args(args)
    commit = resolve_commit(a.commit)
    folder = cache_root(a.cache) / commit[:12]
    if a.rebuild or not (folder / "BUILT").exists():
        build(commit, folder)
    else:
        shutil.copy2(__file__, folder / "baseline.py")  # the adapter as this checkout has it
    path = engine_file(folder, commit, a.agent, has_engine(commit))
    print(spec_for(path, a.time, a.simulations, a.timeout, a.start_timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
