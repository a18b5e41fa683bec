"""Self-play data for the learned evaluators: games between built-in agents, written as
numpy ``.npz`` shards.

A run writes into one directory: ``manifest.json`` (game, options, agents, seed, sampling,
tensor size and layout fingerprint) and ``shard-00000.npz``, ... each holding the games
``[i * shard_games, (i + 1) * shard_games)``.  Every array has one row per example, an
example being one seat's view of one sampled position:

===================  ==========================  ========================================
``x``                float32 (rows, tensor)      ``state.observation_tensor(viewer)``
``returns``          float32 (rows, players)     the game's final returns, absolute seats
``viewer``, ``mover``  int8 (rows,)              whose tensor; who was to move
``game``, ``move``   int32 (rows,)               game index in the run, move number
``policy_offsets``   int64 (rows + 1,)           the mover's row: its search's root visits
``policy_actions``   int32, ``policy_visits``    float32 (CSR: row r owns [off[r], off[r+1]))
``base``             float32 (rows, players)     the ``base`` evaluator's values of the
                                                 position (absolute seats; a residual net
                                                 learns a correction to them)
``search_value``     float32 (rows,)             the mover's search's estimate of its own
                                                 return: the mean reward of its root's most
                                                 visited move (NaN for an agent without a tree)
``metadata``         JSON string                 the manifest plus the shard's game range
===================  ==========================  ========================================

The ``base`` evaluator (the manifest names it; the game's default when not chosen) judges
the true position, as a search's evaluator judges one of its determinized worlds.  Shards
written before they existed have no ``base`` or ``search_value`` array; they still load,
but cannot train a residual net or on search values.

Positions are decisions drawn with probability ``sample`` from each game's own seeded
stream; every seat's view of a drawn position is kept, so a net learns to judge from any
seat.  Game g is played from ``derive_seed(seed, g)`` with agents seeded from it and
seats rotated by g, so a run is a function of its manifest (use iteration budgets, not
``time=``, for agents whose search must repeat).  A shard is written whole (temporary file,
then rename), so an interrupted run resumes by playing only the shards that are missing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from romecore.errors import EvaluatorError, InvalidArgumentError, SerializationError, UsageError

__all__ = ["FORMAT", "selfplay", "load_shards", "read_manifest"]

FORMAT = 1
_ARRAYS = ("x", "returns", "viewer", "mover", "game", "move", "policy_offsets", "policy_actions",
           "policy_visits")
_OPTIONAL = ("base", "search_value")  # absent from shards of older runs


def _manifest(game: Any, agents: Sequence[str], seed: int, sample: float, shard_games: int,
              base: str) -> dict[str, Any]:
    from romecore.learned.weights import layout_fingerprint

    return {"format": FORMAT, "game": game.game_id, "options": dict(game.options), "agents": list(agents),
            "seed": int(seed), "sample": float(sample), "shard_games": int(shard_games),
            "tensor_size": game.observation_tensor_size(), "layout": layout_fingerprint(game), "base": base}


def read_manifest(out_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a self-play directory (SerializationError if unreadable)."""
    path = Path(out_dir) / "manifest.json"
    try:
        meta = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SerializationError(f"self-play manifest {path}: cannot be read ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise SerializationError(f"self-play manifest {path}: not a format {FORMAT} manifest")
    return meta


def _play_shard(task: dict[str, Any]) -> dict[str, np.ndarray]:
    """Plays one shard's games (in a worker process) and returns its arrays."""
    import romecore
    from romecore.learned import ensure_registered
    from romecore.match import play_game
    from romecore.tournament import derive_seed

    ensure_registered()
    game = romecore.load_game(task["game"], **task["options"])
    n = game.num_players()
    specs = task["agents"]
    base = romecore.make_evaluator(game, task["base"])
    cols: dict[str, list[Any]] = {k: [] for k in ("x", "returns", "viewer", "mover", "game", "move", *_OPTIONAL)}
    offsets: list[int] = [0]
    p_actions: list[int] = []
    p_visits: list[float] = []
    for g in range(task["first"], task["last"]):
        gseed = derive_seed(task["seed"], g) & 0x7FFFFFFFFFFFFFFF
        seated = [specs[(s + g) % len(specs)] for s in range(n)]
        bots = [romecore.make_agent(sp, game=game, seed=(gseed + s) & 0x7FFFFFFF) for s, sp in enumerate(seated)]
        pick = np.random.default_rng(gseed ^ 0x5E1F)
        start = len(cols["x"])

        def on_step(state: Any, player: int, action: int, g: int = g, pick: Any = pick,
                    bots: list[Any] = bots) -> None:
            if player < 0 or pick.random() >= task["sample"]:
                return
            root = (getattr(bots[player], "stats", None) or {}).get("root") or []
            judged = list(base(state))
            top = max(root, key=lambda r: r[1], default=None) if root and len(root[0]) >= 3 else None
            q = float(top[2]) / top[1] if top is not None and top[1] > 0 else float("nan")
            for v in range(n):
                cols["base"].append(judged)
                cols["search_value"].append(q)
                cols["x"].append(state.observation_tensor(v))
                cols["viewer"].append(v)
                cols["mover"].append(player)
                cols["game"].append(g)
                cols["move"].append(state.move_number())
                if v == player:
                    p_actions.extend(int(r[0]) for r in root)
                    p_visits.extend(float(r[1]) for r in root)
                offsets.append(len(p_actions))

        record = play_game(game, bots, gseed, on_step=on_step)
        cols["returns"].extend([list(record.returns)] * (len(cols["x"]) - start))
    size = game.observation_tensor_size()
    return {
        "x": np.array(cols["x"], dtype=np.float32).reshape(-1, size),
        "returns": np.array(cols["returns"], dtype=np.float32).reshape(-1, n),
        "base": np.array(cols["base"], dtype=np.float32).reshape(-1, n),
        "search_value": np.array(cols["search_value"], dtype=np.float32),
        "viewer": np.array(cols["viewer"], dtype=np.int8), "mover": np.array(cols["mover"], dtype=np.int8),
        "game": np.array(cols["game"], dtype=np.int32), "move": np.array(cols["move"], dtype=np.int32),
        "policy_offsets": np.array(offsets, dtype=np.int64),
        "policy_actions": np.array(p_actions, dtype=np.int32),
        "policy_visits": np.array(p_visits, dtype=np.float32),
    }


def _shard_path(out_dir: Path, i: int) -> Path:
    return out_dir / f"shard-{i:05d}.npz"


def _write_shard(path: Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, metadata=np.array(json.dumps(meta, sort_keys=True)), **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)


def _shard_ok(path: Path) -> bool:
    try:
        with np.load(path, allow_pickle=False) as z:
            return set(_ARRAYS) <= set(z.files)
    except Exception:  # a damaged shard is played again
        return False


def selfplay(game: Any, out_dir: str | os.PathLike[str], *, agents: Sequence[str] = ("ismcts",),
             games: int = 100, seed: int = 0, sample: float = 0.25, shard_games: int = 10,
             workers: int = 1, backend: str = "local", ray_address: str | None = None,
             base: str | None = None, progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Plays ``games`` games of ``game`` (a Game) between ``agents`` (cycled over the seats,
    rotated by game) and writes the shards into ``out_dir``; shards already there are kept
    (resume).  ``base`` names the native evaluator whose values each position records (the
    game's default when None).  ``backend``: ``local`` (``workers`` processes; 1 plays in this process) or
    ``ray``.  ``progress(done_games, games)`` is called as shards finish.  Returns the paths."""
    if games < 1 or shard_games < 1 or workers < 1 or not 0.0 < sample <= 1.0:
        raise InvalidArgumentError("games, shard_games and workers must be >= 1 and sample in (0, 1]")
    if backend not in ("local", "ray"):
        raise InvalidArgumentError(f"backend must be local or ray, got {backend!r}")
    if not agents:
        raise InvalidArgumentError("self-play needs at least one agent spec")
    import romecore

    for spec in agents:  # a bad spec fails here, not in a worker
        romecore.make_agent(spec, game=game, seed=0)
    from romecore.learned import residual_base

    try:
        base_ev = residual_base(game, base)
    except EvaluatorError as e:
        raise InvalidArgumentError(str(e)) from None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    meta = _manifest(game, agents, seed, sample, shard_games, base_ev.name)
    mpath = out / "manifest.json"
    if mpath.exists():
        old = read_manifest(out)
        if old != meta:
            diff = sorted(k for k in set(old) | set(meta) if old.get(k) != meta.get(k))
            raise UsageError(f"{out} holds self-play of another run (differs in {', '.join(diff)}); "
                             "use a new directory")
    else:
        mpath.write_text(json.dumps(meta, indent=1, sort_keys=True))
    nshards = -(-games // shard_games)
    paths = [_shard_path(out, i) for i in range(nshards)]
    todo = []
    done_games = 0
    for i, path in enumerate(paths):
        first, last = i * shard_games, min(games, (i + 1) * shard_games)
        if _shard_ok(path):
            done_games += last - first
        else:
            todo.append({**meta, "first": first, "last": last, "index": i})
    if progress:
        progress(done_games, games)

    def finish(task: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        nonlocal done_games
        _write_shard(paths[task["index"]], arrays, {**meta, "first": task["first"], "last": task["last"]})
        done_games += task["last"] - task["first"]
        if progress:
            progress(done_games, games)

    if backend == "ray":
        _run_ray(todo, finish, ray_address, workers)
    elif workers == 1 or len(todo) <= 1:
        for task in todo:
            finish(task, _play_shard(task))
    else:
        import multiprocessing

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {pool.submit(_play_shard, t): t for t in todo}
            for fut in as_completed(futures):
                finish(futures[fut], fut.result())
    return paths


def _run_ray(todo: list[dict[str, Any]], finish: Callable[..., None], address: str | None, workers: int) -> None:
    """The shards as Ray tasks (a cluster at ``address``, else a local Ray)."""
    try:
        import ray
    except ImportError:
        raise UsageError("the ray backend needs ray (pip install 'romecore[ray]')") from None
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else workers, ignore_reinit_error=True,
                 log_to_driver=False)
    remote = ray.remote(_play_shard)
    pending = {remote.remote(t): t for t in todo}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            finish(pending.pop(ref), ray.get(ref))


def load_shards(data: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]
                ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The manifest and the concatenated arrays of a self-play directory (or of several
    directories of the same game and layout; the manifest is the first one's, with the
    agents of all of them, so a net's training record names every agent it learned from)."""
    dirs = [Path(data)] if isinstance(data, (str, os.PathLike)) else [Path(d) for d in data]
    if not dirs:
        raise InvalidArgumentError("no self-play directory given")
    parts: dict[str, list[np.ndarray]] = {k: [] for k in _ARRAYS + _OPTIONAL}
    meta0: dict[str, Any] | None = None
    agents: list[str] = []
    bases: set[str | None] = set()
    for d in dirs:
        meta = read_manifest(d)
        agents += [a for a in meta.get("agents") or () if a not in agents]
        bases.add(meta.get("base"))
        key = {k: meta.get(k) for k in ("game", "options", "tensor_size", "layout")}
        if meta0 is None:
            meta0 = meta
        elif key != {k: meta0.get(k) for k in key}:
            raise SerializationError(f"{d} holds self-play of another game or layout than {dirs[0]}")
        for path in sorted(d.glob("shard-*.npz")):
            try:
                with np.load(path, allow_pickle=False) as z:
                    arrays = {k: z[k] for k in _ARRAYS + _OPTIONAL if k in z.files or k in _ARRAYS}
            except Exception as e:
                raise SerializationError(f"self-play shard {path}: cannot be read ({type(e).__name__}: {e})") from None
            base = sum(len(a) for a in parts["policy_actions"])
            offs = arrays["policy_offsets"]
            parts["policy_offsets"].append((offs[1:] if parts["policy_offsets"] else offs) + base)
            for k in arrays:
                if k != "policy_offsets":
                    parts[k].append(arrays[k])
    assert meta0 is not None
    if not parts["x"]:
        raise SerializationError(f"no shards in {', '.join(map(str, dirs))}")
    # an optional array is kept only when every shard has it (base values: of one evaluator)
    keep = [k for k in parts if k in _ARRAYS
            or (len(parts[k]) == len(parts["x"]) and (k != "base" or len(bases) == 1))]
    return dict(meta0, agents=agents), {k: np.concatenate(parts[k]) for k in keep}
