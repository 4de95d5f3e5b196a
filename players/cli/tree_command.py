"""The tree command: a search drawn as Graphviz DOT, or rendered to a picture."""

from __future__ import annotations

from games import StochasticGame
from players.grading.treedraw import render, root_name, search_tree, start_position, to_dot

from .inputs import UsageError, make_game, usage_errors


def draw(variant: str, position: str | None, algorithm: str, depth: int | None,
         out: str | None) -> int:
    """The tree command: draw the search of algorithm below position (the start if
    None) in variant, to depth plies (None: to the end), as Graphviz DOT on standard
    output or rendered to the file out; return the exit status. A mistake in what
    was asked is a UsageError."""
    game = make_game(variant)
    if isinstance(game, StochasticGame):
        raise UsageError(f'{game} is a game of chance: tree drawings are for games without '
                         'chance nodes')
    with usage_errors():
        state = start_position(game, position)
        root = search_tree(game, state, algorithm, depth)
    reach = f'{depth} plies' if depth else 'to the end'
    title = f'{game} from {root_name(game, state, position)}'
    dot = to_dot(game, root, f'{title}: {algorithm} {reach}')
    if out is None:
        print(dot, end='')
        return 0
    with usage_errors(ValueError, RuntimeError, OSError):
        render(dot, out)
    print(f'wrote {out}')
    return 0
