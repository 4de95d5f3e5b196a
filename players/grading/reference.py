"""The reference a student's Game class is graded against, surveyed in the grader's
own process: the positions to compare at, each reached by moves from the start,
with what the reference's methods say there, and its perft (how many move
sequences of each length there are from the start).

Where the positions reachable from the start are few (POSITION_LIMIT), every one
is surveyed and the verdict is exact; beyond that, the first POSITION_LIMIT a
breadth-first search finds, those of PLAYOUTS random games and the instructor's."""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import variants
from games import Game, StochasticGame
from games.stochastic import from_json
from players.remote.plain_json import canonical, key, to_plain

from .jailed.perft import count_sequences
from .jailed.plain import state_key
from .jailed.rules import value_data

POSITION_LIMIT = 6000
"""The most positions surveyed by breadth-first search: a game with no more is surveyed whole."""
PLAYOUTS = 100
"""The random games surveyed where there are more positions (while the positions
surveyed are fewer than twice POSITION_LIMIT)."""
PLY_LIMIT = 1000
"""The longest random game surveyed."""
PERFT_DEPTH = 3
"""The deepest perft."""
PERFT_LIMIT = 20000
"""The most move sequences a perft counts: it stops at the depth before."""


class PositionError(ValueError):
    """A position given that is not one of the reference's."""


@dataclass(frozen=True)
class Probe:
    """A position of the reference, reached by moves from the start, and what the
    reference's methods say there."""

    moves: tuple
    """The moves from the start, as plain data."""
    parent: int | None
    """The index of the position before it among the reference's (None for the start)."""
    to_move: str
    """The player to move, as jailed.plain.state_key's text."""
    terminal: bool
    actions: frozenset
    """The canonical texts of the moves (none where the game is over)."""
    utilities: tuple = ()
    """Where the game is over: ((player, value), ...), each player of the reference."""


@dataclass(frozen=True, eq=False)
class Reference:
    """What the student's class is compared with."""

    game: str
    """The student's class, called as in the student's file: 'GameOfNim(board=[3, 1])'."""
    probes: tuple
    """The positions compared at, fewest moves first."""
    exact: bool
    """Were all the positions reachable from the start surveyed?"""
    perft: tuple
    """How many move sequences of each length from 1 there are from the start."""
    given: int = 0
    """How many positions the instructor gave."""

    @property
    def coverage(self) -> str:
        """How the positions were chosen, for messages."""
        if self.exact:
            return f'all {len(self.probes)} positions reachable from the start'
        given = f' and {self.given} given' if self.given else ''
        return (f'{len(self.probes)} positions (more than {POSITION_LIMIT} are reachable: the '
                f'first {POSITION_LIMIT} found, those of {PLAYOUTS} random games{given})')


def reference_spec(reference: str, game: str) -> str:
    """The spec the reference is made from: a reference given without arguments
    takes those of the student's class (so 'solution.py:GameOfNim' and
    'GameOfNim(board=[3, 1])' make 'solution.py:GameOfNim(board=[3, 1])'), but a
    variant's name that is not a game's stays as it is."""
    reference, game = reference.strip(), game.strip()
    if reference.endswith(')') or '(' not in game or (
            reference in variants.VARIANTS and reference.lower() not in variants.GAMES):
        return reference
    return reference + game[game.index('('):]


def make_reference(reference: str, game: str) -> Game:
    """Make the reference game for the student's class game; raise ValueError saying why not."""
    made = variants.make(reference_spec(reference, game))
    if isinstance(made, StochasticGame):
        raise ValueError(f'{reference} is a game of chance: the grader compares games without '
                         'chance')
    return made


def where(moves) -> str:
    """A position named by the moves that reach it: 'at the start', or 'after (0, 1); (1, 1)'."""
    return 'at the start' if not moves else 'after ' + '; '.join(repr(from_json(move))
                                                                 for move in moves)


def parse_moves(game: Game, text: str) -> tuple:
    """The moves of a position given as Python literals separated by ';', such as
    '(0, 1); (1, 1)', checked against the reference; raise PositionError if they
    are not its moves."""
    state = game.initial
    moves: tuple = ()
    for part in filter(str.strip, text.split(';')):
        try:
            move = key(ast.literal_eval(part.strip()))
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            raise PositionError(f'in {text!r}: {part.strip()!r} is not a move written as a '
                                'Python literal, such as (0, 1)') from None
        legal = {} if game.terminal_test(state) else {
            key(action): action for action in game.actions(state)}
        if move not in legal:
            raise PositionError(f'in {text!r}: {part.strip()} is not a move of the '
                                f'reference {where(moves)}')
        state, moves = game.result(state, legal[move]), moves + (to_plain(legal[move]),)
    return moves


@lru_cache(maxsize=8)
def survey(reference: str, game: str, positions: tuple = ()) -> Reference:
    """Survey the reference for the student's class game (see the module's docstring),
    with the instructor's positions (see parse_moves). Raise ValueError for a
    reference that cannot be made or surveyed, PositionError for a position that is
    not its."""
    made = make_reference(reference, game)
    given = [parse_moves(made, text) for text in positions]
    try:
        found, exact = _breadth_first(made)
        if not exact:
            _playouts(made, found)
        for moves in given:
            _add_path(made, found, moves)
        entries = sorted(found.values(), key=lambda entry: len(entry[0]))
        labels: dict[str, Any] = {}
        for _, state, _ in entries:
            labels.setdefault(state_key(made.to_move(state)), made.to_move(state))
        order = {id(entry): index for index, entry in enumerate(entries)}
        probes = tuple(_probe(made, moves, state, labels, order.get(id(before)))
                       for moves, state, before in entries)
        return Reference(game, probes, exact, _perft(made), len(given))
    except Exception as error:  # the reference's own mistake
        raise ValueError(f'the reference {reference} raised {type(error).__name__}: {error}') \
            from None


def _breadth_first(game: Game) -> tuple[dict, bool]:
    """The positions reachable from the start, by state_key, each an entry (the first
    moves found to reach it, its state, the entry of the position before it), up to
    POSITION_LIMIT; and whether that was all of them."""
    root: tuple[tuple, Any, Any] = ((), game.initial, None)
    found = {state_key(game.initial): root}
    queue = [root]
    for entry in queue:  # the queue grows as it is read
        if game.terminal_test(entry[1]):
            continue
        for move in game.actions(entry[1]):
            child = game.result(entry[1], move)
            seen = state_key(child)
            if seen not in found:
                if len(found) == POSITION_LIMIT:
                    return found, False
                found[seen] = (entry[0] + (to_plain(move),), child, entry)
                queue.append(found[seen])
    return found, True


def _playouts(game: Game, found: dict) -> None:
    """Add the positions of PLAYOUTS random games (the same every run) to found."""
    chooser = random.Random(0)
    for _ in range(PLAYOUTS):
        entry, state, plies = found[state_key(game.initial)], game.initial, 0
        while not game.terminal_test(state) and plies < PLY_LIMIT \
                and len(found) < 2 * POSITION_LIMIT:
            move = chooser.choice(list(game.actions(state)))
            state, plies = game.result(state, move), plies + 1
            entry = _walk(found, entry, move, state)


def _add_path(game: Game, found: dict, moves: tuple) -> None:
    """Add the positions along moves (legal moves from the start) to found."""
    entry = found[state_key(game.initial)]
    for move in moves:
        entry = _walk(found, entry, move, game.result(entry[1], _action(game, entry[1], move)))


def _walk(found: dict, entry: tuple, move: Any, state: Any) -> tuple:
    """The entry of state, reached by move from entry's position: found's, or a new
    one added to found."""
    return found.setdefault(state_key(state), (entry[0] + (to_plain(move),), state, entry))


def _action(game: Game, state, move) -> Any:
    """The reference's own action at state that is move as plain data."""
    return next(action for action in game.actions(state)
                if key(action) == canonical(move))


def _probe(game: Game, moves: tuple, state, labels: dict, parent: int | None) -> Probe:
    """What the reference says at the position state, reached by moves."""
    terminal = bool(game.terminal_test(state))
    actions = frozenset() if terminal else frozenset(key(move) for move in game.actions(state))
    utilities = tuple((text, value_data(game.utility(state, label)))
                      for text, label in labels.items()) if terminal else ()
    return Probe(moves, parent, state_key(game.to_move(state)), terminal, actions, utilities)


def _perft(game: Game) -> tuple:
    """The number of move sequences of each length up to PERFT_DEPTH from the start,
    stopping before a length with more than PERFT_LIMIT."""
    return tuple(count_sequences(game.initial, game.actions, game.result, game.terminal_test,
                                 PERFT_DEPTH, PERFT_LIMIT))
