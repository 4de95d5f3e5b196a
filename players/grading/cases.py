"""The positions the grader searches: AIMA's Figure 5.2, small trees made up to
catch each classic mistake, and real positions of the games it is given."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from games import Fig52Game, Game, TreeGame

from .counting import describe

TREE_LIMIT = 3000
"""The most states a real position's full minimax tree may have."""


@dataclass
class Case:
    """A position to search, with what it is built to catch."""

    name: str
    """The name used in messages, such as 'fig52' or 'depth-trap (d=1)'."""
    game: Game
    """The game."""
    state: Any
    """The root of the search."""
    note: str = ''
    """What the case is built to catch."""
    d: int | None = None
    """For alpha_beta_cutoff_search: the depth limit d."""
    evals: dict = field(default_factory=dict)
    """A tree's evaluations of inner nodes for MAX, for the cut-off search."""
    default_eval: bool = False
    """For alpha_beta_cutoff_search: search with no eval_fn, so AIMA's default
    (the state's utility) scores the cut-off states."""

    def eval_fn(self) -> Callable[[Any], float] | None:
        """The evaluation passed to cut-off searches: None for the default, a tree's
        table of values for inner nodes, else the game's utility or evaluate, for the
        player to move at the root."""
        if self.default_eval:
            return None
        game, player = self.game, self.game.to_move(self.state)
        if isinstance(game, TreeGame):
            return lambda state: (game.utility(state, player) if game.terminal_test(state)
                                  else self.evals.get(game.node(state), 0))
        return lambda state: (game.utility(state, player) if game.terminal_test(state)
                              else game.evaluate(state, player))


def tree(succs: dict, utils: dict) -> TreeGame:
    """A TreeGame from a compact table: each inner node maps to its children, and a
    move is the child's name in lower case (node 'B1' is reached by move 'b1')."""
    return TreeGame({node: {child.lower(): child for child in children}
                     for node, children in succs.items()}, utils)


TIE = tree({'A': ['B', 'C', 'D'], 'B': ['B1', 'B2'], 'C': ['C1', 'C2'], 'D': ['D1', 'D2']},
           dict(B1=3, B2=5, C1=3, C2=9, D1=2, D2=8))
"""b and c are both worth 3 to MAX: the first, b, is the textbook's move, and alpha-beta
prunes C2 because C1 = 3 <= alpha = 3 (equal values prune)."""

TRAP_SUCCS = {'A': ['B', 'C'], 'B': ['B1', 'B2'], 'C': ['C1', 'C2'],
              'B1': ['B11', 'B12'], 'B2': ['B21', 'B22'],
              'C1': ['C11', 'C12'], 'C2': ['C21', 'C22']}
TRAP_LEAVES = dict(B11=7, B12=1, B21=9, B22=2, C11=1, C12=2, C21=5, C22=0)
DEPTH_TRAP_EVALS = dict(B=5, C=1, B1=6, B2=0, C1=3, C2=4)
DEPTH_TRAP = tree(TRAP_SUCCS, {**TRAP_LEAVES, **{node: 0 for node in DEPTH_TRAP_EVALS}})
"""The best move changes with the depth: b looking 1 ply ahead, c at 2 plies, b at 3
(with DEPTH_TRAP_EVALS as eval_fn; an inner node's utility is 0, as for a game going on)."""
SCORED_TRAP = tree(TRAP_SUCCS, {**TRAP_LEAVES, **DEPTH_TRAP_EVALS})
"""The depth trap whose inner nodes have DEPTH_TRAP_EVALS as their utilities and no
evaluation (evaluate is 0): AIMA's default scoring by utility chooses c at d=1, and
scoring by evaluate chooses b."""

DEEP = tree({'A': ['B', 'C'], 'B': ['B1', 'B2', 'B3'], 'C': ['C1', 'C2'],
             'B1': ['B11', 'B12'], 'B2': ['B21', 'B22', 'B23'], 'B3': ['B31', 'B32', 'B33'],
             'C1': ['C11', 'C12'], 'C2': ['C21', 'C22']},
            dict(B11=7, B12=0, B21=9, B22=9, B23=1, B31=7, B32=4, B33=9,
                 C11=5, C12=2, C21=1, C22=1))
"""Three plies: B2 and B3 are cut off inside B by beta = 7 (B3 on equality), C2 by alpha = 7.
Never pruning, pruning only on strict inequality and never updating alpha/beta each
generate a different set of states."""


def tree_cases(function: str) -> list[Case]:
    """The made-up trees for a search function."""
    fig52, tie, deep, trap = Fig52Game(), TIE, DEEP, DEPTH_TRAP
    if function != 'alpha_beta_cutoff_search':
        return [Case('fig52', fig52, fig52.initial, 'AIMA Figure 5.2; alpha-beta prunes C2 and C3'),
                Case('tie', tie, tie.initial, 'a tie at the root, and pruning on equal values'),
                Case('deep-pruning', deep, deep.initial, 'cut-offs at two depths')]
    trap_note = 'a depth trap: the best move changes with the depth'
    return [Case(f'depth-trap (d={d})', trap, trap.initial, trap_note, d, DEPTH_TRAP_EVALS)
            for d in (0, 1, 2)] + [
        Case('fig52 (d=1)', fig52, fig52.initial, 'AIMA Figure 5.2 searched to its leaves', 1),
        Case('deep-pruning (d=1)', deep, deep.initial, 'pruning above the cut-off', 1),
        Case('default evaluation (d=1)', SCORED_TRAP, SCORED_TRAP.initial,
             "no eval_fn: AIMA's default scores a cut-off state with its utility", 1,
             default_eval=True)]


def position_cases(games: dict[str, Game], d: int | None = None) -> list[Case]:
    """A real position of each game, reached by random moves (the same each run)
    until its full minimax tree has at most TREE_LIMIT states."""
    cases = []
    for name, game in games.items():
        state = small_position(game, random.Random(name))
        if state is not None:
            label = f'{name} {describe(game, state)}' + ('' if d is None else f' (d={d})')
            cases.append(Case(label, game, state, f'a position of {name}', d))
    return cases


def small_position(game: Game, rng: random.Random):
    """Play random moves from the start until the game tree is small (None if the game
    ends first)."""
    state = game.initial
    while not game.terminal_test(state):
        if len(game.actions(state)) > 1 and tree_size(game, state, TREE_LIMIT) <= TREE_LIMIT:
            return state
        state = game.result(state, rng.choice(list(game.actions(state))))
    return None


def tree_size(game: Game, state, limit: int) -> int:
    """The number of states below state, counting up to just past limit."""
    count = 0
    stack = [state]
    while stack and count <= limit:
        node = stack.pop()
        if not game.terminal_test(node):
            for move in game.actions(node):
                stack.append(game.result(node, move))
                count += 1
    return count
