"""``romecore play``: a human plays in the terminal against agents.

The game runs in the shared loop (:func:`romecore.match.play_game`), which holds the true
state: the human's seat is an agent like the others, handed only a world resampled from
what that seat knows, and every screen is that seat's drawing (``render(seat)``) and
observation.  Opponents' moves are shown as the seat perceives them, and scores only
once the game is over.  Quitting resigns: a loss, recorded as the termination ``resigned``
(:meth:`romecore.records.GameRecord.resign`).  ``hint`` asks
the strongest agent (on the seat's view only); ``undo`` goes back to the seat's previous
decision by replaying the game's actions from its seed, so no card is dealt anew.
"""

from __future__ import annotations

import random
from typing import Any

import click

import romecore
from romecore.cli.common import (
    OPTION_WAS_O,
    STDOUT,
    Command,
    agents_option,
    game_argument,
    game_option,
    load_game_or_exit,
    make_agents_or_exit,
    players_option,
)
from romecore.core.state import HIDDEN

__all__ = ["command", "parse_move", "Human", "Resigned", "Undo", "PROMPT"]

PROMPT = ("your move (N or #N: menu item N; id:N: action id N; or a name; "
          "? lists; hint; undo; q resigns)")

#: The opponents a human meets when no ``--agent`` is given: the strongest agent, with the
#: game's own defaults (``GameSpec.agent_defaults_for``), at a pace a person can wait for.
DEFAULT_OPPONENT = "ismcts:time=0.5"


#: What ``hint`` asks when no ``--hint`` is given (with the game's own agent defaults).
DEFAULT_HINT = "ismcts:time=0.5"


class Resigned(Exception):
    """The human quit: the game loop stops there (as for a forfeit) and :func:`command`
    records it as the seat's resignation."""


class Undo(BaseException):
    """The human asked to take back their previous decision.  A BaseException, so that
    the game loop's forfeit handling (``except Exception``) lets it through to
    :func:`command`, which replays the game up to that decision."""


def parse_move(state: romecore.State, legal: list[int], text: str) -> int | None:
    """The action that ``text`` names: ``N`` or ``#N`` a menu item, ``id:N`` an action id,
    anything else an action's name (or unique prefix).  None asks for the menu; raises
    :class:`romecore.IllegalActionError` saying what is wrong."""
    text = text.strip()
    if text in ("", "?", "help"):
        return None
    item = text[1:].strip() if text.startswith("#") else text
    if item.isdigit():
        if int(item) < len(legal):
            return legal[int(item)]
        raise romecore.IllegalActionError(f"no menu item {item}: choose 0..{len(legal) - 1}"
                                          f" (id:{item} for action id {item})")
    if text.lower().startswith("id:"):
        number = text[3:].strip()
        if not number.lstrip("-").isdigit():
            raise romecore.IllegalActionError(f"{text!r}: id: takes an action id, e.g. id:12")
        return state.string_to_action(number)  # checks that it is legal, says why not
    return state.string_to_action(text)


def _menu(state: romecore.State, legal: list[int]) -> None:
    for i, a in enumerate(legal):
        click.echo(f"  #{i:<3} {state.action_to_string(a)}  [id:{a}]")


class Human:
    """The seat at the keyboard.  ``log`` is the game's (player, action) list so far, which
    tells whether there is a decision of this seat to undo."""

    spec = "human"

    def __init__(self, seat: int, hint: str = DEFAULT_HINT, log: list | None = None) -> None:
        self.seat = seat
        self.hint_spec = hint
        self.log = log if log is not None else []
        self._hinter: Any = None
        self.resigned = False  # set as it raises Resigned: the game ends as its resignation

    def hint(self, view: romecore.State, legal: list[int]) -> str:
        """What the hint agent would play here, judged from the view alone."""
        if self._hinter is None:
            self._hinter = romecore.make_agent(self.hint_spec, game=view.game, seed=self.seat + 1)
        action = self._hinter.step(view.clone())
        return f"hint ({self.hint_spec}): #{legal.index(action)} {view.action_to_string(action)}"

    def step(self, view: romecore.State) -> int:
        """``view`` holds only what this seat knows; it is all the screen shows."""
        click.echo("")
        click.echo(view.render(self.seat))
        obs = view.observation(self.seat)
        if "hand" in obs:
            click.echo(f"your hand: {obs['hand']}")
        legal = view.legal_actions()
        _menu(view, legal)
        while True:
            try:
                text = click.prompt(PROMPT, default="", show_default=False)
            except (click.Abort, EOFError):
                self.resigned = True
                raise Resigned("quit at the prompt") from None
            word = text.strip().lower()
            if word in ("q", "quit", "exit", "resign"):
                self.resigned = True
                raise Resigned("quit at the prompt")
            if word == "hint":
                try:
                    click.echo(f"  {self.hint(view, legal)}")
                except romecore.RomecoreError as e:
                    click.echo(f"  no hint: {e}")
                continue
            if word == "undo":
                if any(p == self.seat for p, _ in self.log):
                    raise Undo()
                click.echo("  nothing to undo: this is your first decision")
                continue
            try:
                action = parse_move(view, legal, text)
            except romecore.IllegalActionError as e:
                click.echo(f"  {e}")
                continue
            if action is None:
                _menu(view, legal)
                continue
            click.echo(f"you: {view.action_to_string(action)}")
            return action


class _Replaying:
    """A seat that first plays the decisions left in ``script`` (shared by every seat, in
    the game's order), then thinks for itself: how an undo replays the game."""

    def __init__(self, agent, script: list[int]) -> None:
        self.agent = agent
        self.script = script
        self.spec = getattr(agent, "spec", type(agent).__name__)

    def restart(self) -> None:
        restart = getattr(self.agent, "restart", None)
        if restart is not None:
            restart()

    def step(self, view: romecore.State) -> int:
        if self.script:
            return self.script.pop(0)
        return self.agent.step(view)


@click.command("play", cls=Command, renamed=[OPTION_WAS_O])
@game_argument()
@players_option()
@click.option("--seat", type=int, default=0, show_default=True, help="your seat")
@click.option("--seed", "-s", type=int, default=None, help="game seed (random if omitted)")
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="save the game as a record (JSON lines, or msgpack for .msgpack) for romecore replay "
                   "('-' for none: standard output is the game)")
@click.option("--hint", "hint", default=DEFAULT_HINT, show_default=True, metavar="SPEC",
              help="the agent that answers 'hint' (with the game's own defaults)")
@agents_option()
@game_option()
def command(game_id: str, players: int | None, seat: int, seed: int | None, out: str | None,
            hint: str, agents: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Play GAME in the terminal against agents (default: the strongest, ismcts at half a
    second a move).

    At your turn: N or #N picks menu item N, id:N the action with id N, or type an
    action's name (a unique prefix will do); ? lists the moves again, hint asks the
    --hint agent, undo takes back your previous decision, q resigns.
    """
    from romecore import records
    from romecore.match import play_game

    game = load_game_or_exit(game_id, players, options)
    n = game.num_players()
    if not 0 <= seat < n:
        raise click.BadParameter(f"seat must be 0..{n - 1}", param_hint="--seat")
    if out == STDOUT:
        out = None
    if out is not None:
        try:
            open(out, "ab").close()  # refuse an unwritable file now, not after the game
        except OSError as e:
            raise click.ClickException(f"cannot write {out}: {e.strerror or e}") from None
    seed = random.randrange(2**32) if seed is None else seed
    seats: list = make_agents_or_exit(agents, game, seed, n, default=DEFAULT_OPPONENT)
    log: list[tuple[int, int]] = []  # (player, action) of this run, chance included
    human = seats[seat] = Human(seat, hint, log)
    script: list[int] = []  # the decisions an undo replays (never a chance outcome: the seed deals those)
    quiet = [0]  # how many decisions of this run are replayed ones, not shown again

    def show(state: romecore.State, player: int, action: int) -> None:
        log.append((player, action))
        if player != records.CHANCE_PLAYER and quiet[0] > 0:
            quiet[0] -= 1
            return  # replayed after an undo: shown the first time
        if player in (records.CHANCE_PLAYER, seat):
            return  # chance, or the human's own move (echoed at the prompt)
        seen = state.observe_action(seat, action)
        name = "a move you cannot see" if seen & HIDDEN else state.action_to_string(action)
        click.echo(f"player {player}: {name}")

    click.echo(f"{game!r}, seed {seed}; you are player {seat}")
    while True:
        log.clear()
        quiet[0] = len(script)
        texts = records.MoveTexts(then=show)  # the record's move texts, taken as the game goes
        try:
            rec = play_game(game, [_Replaying(a, script) for a in seats], seed, on_step=texts, forfeits=True)
            break
        except Undo:
            last = max(i for i, (p, _) in enumerate(log) if p == seat)
            script[:] = [a for p, a in log[:last] if p != records.CHANCE_PLAYER]
            click.echo(f"undo: back to your move before '{texts.texts[last]}'")
    rec.texts = texts.texts
    if human.resigned and rec.forfeit is not None and rec.forfeit["seat"] == seat:
        rec.resign(seat)  # recorded as a resignation, not as a forfeit quoting the exception
    if out is not None:
        try:
            records.write(out, [rec])
        except OSError as e:
            raise click.ClickException(f"cannot write {out}: {e.strerror or e}") from None
    final = records.replay(rec, check=False)
    click.echo("")
    click.echo(final.render(seat))
    if rec.resigned == seat:
        click.echo("you resign")
    elif rec.forfeit is not None:
        click.echo(f"forfeit: {rec.forfeit['reason']}")
    else:
        click.echo(f"final scores {final.scores()}")  # public now that the game is over
    click.echo(f"returns {rec.returns}" + (f"; saved to {out}" if out else ""))
    if rec.resigned == seat:
        click.echo("bye")


