"""``romecore serve``: the web app (:mod:`romecore.web`) on uvicorn."""

from __future__ import annotations

import threading
import webbrowser

import click

from romecore.errors import RomecoreError
from romecore.web.limits import DEFAULT_MAX_THINK
from romecore.web.sessions import DEFAULT_DELAY, DEFAULT_HINT, DEFAULT_PICTURE_WORKERS

__all__ = ["command"]

WEB_HINT = "the web app needs its extra: pip install 'romecore[web]' (starlette, uvicorn with websockets)"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="port")
@click.option("--open", "open_browser", is_flag=True, help="open the page in a browser")
@click.option("--records", "records_dir", default="romecore-games", show_default=True, metavar="DIR",
              help="folder where finished games are saved as records (romecore replay reads them)")
@click.option("--hint", "hint", default=DEFAULT_HINT, show_default=True, metavar="SPEC",
              help="the agent that answers the hint button")
@click.option("--delay", default=DEFAULT_DELAY, show_default=True, type=click.FloatRange(0, 10),
              help="seconds an agent's move stays on screen at the least")
@click.option("--max-games", default=200, show_default=True, type=click.IntRange(1, 100000),
              help="games held at once")
@click.option("--max-think", default=DEFAULT_MAX_THINK, show_default=True, type=click.FloatRange(0.01, 3600),
              metavar="SECONDS", help="the most an AI or the hint may think about one move, whatever a page asks")
@click.option("--levels-only", is_flag=True, help="pages pick opponents by level only (no raw agent specs)")
@click.option("--db", "db", default=None, metavar="FILE",
              help="keep tables in this SQLite file, so games survive a restart (default: in memory)")
@click.option("--expire-days", default=7.0, show_default=True, type=click.FloatRange(0.01, 3650),
              help="an unfinished table nobody has touched for this long is deleted (finished ones stay)")
@click.option("--engine", "engines", multiple=True, metavar="SPEC",
              help="an engine agent (engine:cmd=...) pages may seat, repeatable; no other engine runs")
@click.option("--rate", default=20.0, show_default=True, type=click.FloatRange(0.1, 10000),
              help="messages a second one page may send, on average")
@click.option("--picture-workers", default=DEFAULT_PICTURE_WORKERS, show_default=True, type=click.IntRange(0, 64),
              help="processes that draw the pages' pictures, so a busy server uses more cores (0: the server "
                   "draws them; the default is 1 from 2 cores on)")
def command(host: str, port: int, open_browser: bool, records_dir: str, hint: str, delay: float,
            max_games: int, max_think: float, levels_only: bool, db: str | None, expire_days: float,
            engines: tuple[str, ...], rate: float, picture_workers: int) -> None:
    """Play in a browser: a small game site where you start a table, invite friends to its
    open seats, fill the others with AI levels, and play (tables kept in --db survive a
    restart; finished games are saved as records)."""
    try:
        import uvicorn

        from romecore.web.app import create_app
        from romecore.web.limits import Limits
        from romecore.web.storage import SQLiteStorage
    except ImportError:
        raise click.ClickException(WEB_HINT) from None
    limits = Limits(max_think=max_think, allow_specs=not levels_only, max_games=max_games, rate=rate,
                    burst=max(1, int(3 * rate)), engines=tuple(e.strip() for e in engines))
    try:
        storage = SQLiteStorage(db) if db is not None else None
        if storage is not None:
            gone = storage.expire(expire_days * 86400.0)
            if gone:
                click.echo(f"romecore serve: {len(gone)} idle unfinished table(s) expired")
        app = create_app(records_dir=records_dir, hint=hint, delay=delay, limits=limits, storage=storage,
                         expire_seconds=expire_days * 86400.0, picture_workers=picture_workers)
    except RomecoreError as e:  # a bad --hint spec, an unusable --db file
        raise click.ClickException(str(e)) from None
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    kept = f"tables kept in {db}" if db else "tables in memory only (--db FILE keeps them)"
    click.echo(f"romecore serve: {url} ({kept}; records in {records_dir}/; Ctrl-C stops)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"romecore serve: listening on {host}: anyone who can reach it may start tables, join "
                   f"with an invitation or watch (each AI move thinks at most {max_think:g} s; at most "
                   f"{max_games} tables in memory, {limits.tables_per_address} new an hour and "
                   f"{limits.connections_per_address} sockets per address, {rate:g} messages a second a page)",
                   err=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 16)
