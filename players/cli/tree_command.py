"""The tree command: a search drawn as Graphviz DOT, or rendered to a picture."""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass

from games import Game, StochasticGame
from players.grading.jailed.plain import position_text
from players.grading.treedraw import (NODE_LIMIT, Node, TreeTooLarge, deepest_tree,
                                      moves_to_a_smaller_tree, render, root_name, search_tree,
                                      start_position, to_dot)
from players.reports.text_report import plural

from .inputs import UsageError, make_game, usage_errors


def draw(variant: str, position: str | None, algorithm: str, depth: int | None,
         out: str | None) -> int:
    """The tree command: draw the search of algorithm below position (the start if
    None) in variant, to depth plies (None: to the end, or as deep as a drawing
    allows, saying so on stderr), as Graphviz DOT on standard output or rendered to
    the file out; return the exit status. A mistake in what was asked is a
    UsageError; a tree too large to draw is one that gives a command that draws."""
    game = make_game(variant)
    if isinstance(game, StochasticGame):
        raise UsageError(f'{game} is a game of chance: tree drawings are for games without '
                         'chance nodes')
    with usage_errors():
        state = start_position(game, position)
    asked = TreeCommand(variant, position, algorithm, out)
    root, drawn = fitting_tree(game, state, asked, depth)
    reach = plural(drawn, 'ply') if drawn else 'to the end'
    title = f'{game} from {root_name(game, state, position)}'
    dot = to_dot(game, root, f'{title}: {algorithm} {reach}')
    if out is None:
        print(dot, end='')
        return 0
    with usage_errors(ValueError, RuntimeError, OSError):
        render(dot, out)
    print(f'wrote {out}')
    return 0


@dataclass(frozen=True)
class TreeCommand:
    """What a tree command asked for but the depth: the variant as typed, the root
    position, the search and the output file."""

    variant: str
    position: str | None
    algorithm: str
    out: str | None

    def line(self, depth: int | None = None, position: str | None = None) -> str:
        """Return the command line that draws this tree to depth plies (None: the
        default), from position if given."""
        words = ['tree', self.variant]
        root = position or self.position
        words += ['--position', root] if root else []
        words += ['--algorithm', self.algorithm] if self.algorithm != 'alphabeta' else []
        words += ['--depth', str(depth)] if depth else []
        words += ['--out', self.out] if self.out else []
        return ' '.join(['python tournament.py', *map(shlex.quote, words)])


def fitting_tree(game: Game, state, asked: TreeCommand,
                 depth: int | None) -> tuple[Node, int | None]:
    """Return the tree searched from state to depth and the depth drawn; with no
    depth, a whole tree too large to draw is drawn as deep as fits, saying so on
    stderr. A tree that cannot be drawn is a UsageError that gives a command that
    draws one: a smaller depth, or a position nearer the end."""
    try:
        return search_tree(game, state, asked.algorithm, depth), depth
    except TreeTooLarge as error:
        too_large = str(error)
    found = deepest_tree(game, state, asked.algorithm, None if depth is None else depth - 1)
    if found is None:
        raise UsageError(f'the tree has more than {NODE_LIMIT} nodes even one ply deep, too '
                         'many to draw; this draws a position nearer the end: '
                         f'{asked.line(position=nearer_end(game, state, asked))}')
    plies, root = found
    if depth is not None:
        raise UsageError(f'{too_large}; this draws it {plural(plies, "ply")} deep: '
                         f'{asked.line(plies)}')
    print(f'Note: the whole tree has more than {NODE_LIMIT} nodes: drawn '
          f'{plural(plies, "ply")} deep, as deep as fits (--depth D chooses)', file=sys.stderr)
    return root, plies


def nearer_end(game: Game, state, asked: TreeCommand) -> str:
    """Return the position, as --position takes it, that the first legal moves from
    state lead to, where a tree one ply deep can be drawn."""
    reached, moves = moves_to_a_smaller_tree(game, state)
    typed = [asked.position or '', *map(game.typed_move, moves)]
    return position_text(game, reached) or '; '.join(filter(str.strip, typed))
