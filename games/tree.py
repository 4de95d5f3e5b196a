"""Small game trees given as tables, such as AIMA's Figure 5.2, for teaching and tests."""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, Mapping

from . import pictures, textbook
from .base import IllegalMoveError



class TreeState(namedtuple('TreeState', 'to_move, board')):
    """A node of a game tree: the player to move ('MAX' or 'MIN') and the node's name."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy
        to_move: str
        board: Node

    def _repr_svg_(self) -> str:
        """The node as a picture, for Jupyter notebooks."""
        return pictures.tree_node(self.board, self.to_move, f'{self.to_move} to move')


Node = str | int
"""A node of a game tree: its name, or its number."""


class TreeGame(textbook.TreeNumbers):
    """A game given by its tree: succs maps each inner node to {move: child},
    utils maps each leaf to its value for MAX. MAX moves at the root and the
    players alternate level by level. A state may also be given as a node name.
    With utils=None the leaves get their utilities later (game.utils = {...}), as
    AIMA's notebooks do."""

    name = 'tree'
    players = ('MAX', 'MIN')

    # Node keys would refuse a table of names only (dict's keys are invariant): Any keys
    def __init__(self, succs: Mapping[Any, Mapping[str, Node]],
                 utils: Mapping[Any, float] | None, initial: Node = 'A') -> None:
        self.succs: Mapping[Any, Mapping[str, Node]] = succs
        self.utils: Mapping[Any, float] = {} if utils is None else utils
        self.depth = {initial: 0}
        frontier = [initial]
        while frontier:
            node = frontier.pop()
            for child in succs.get(node, {}).values():
                self.depth[child] = self.depth[node] + 1
                frontier.append(child)
        if utils is not None:
            self.check_leaves()
        self.initial = self.state(initial)

    def state(self, node: Node) -> TreeState:
        """Return the state of the named node."""
        return TreeState(to_move='MIN' if self.depth[node] % 2 else 'MAX', board=node)

    @staticmethod
    def node(state: TreeState | Node) -> Node:
        """Return the name of the node of a state (or of a bare name or number)."""
        return state if isinstance(state, (str, int)) else state.board

    def node_of(self, state: TreeState | Node) -> Node:
        """Return the node of a state (see node)."""
        return self.node(state)

    def actions(self, state: TreeState | Node) -> list[str]:
        """The moves out of this node, in the table's order."""
        return list(self.succs.get(self.node(state), {}))

    def result(self, state: TreeState | Node, move: str) -> TreeState:
        """Return the child that move leads to."""
        children = self.succs.get(self.node(state), {})
        if move not in children:
            raise IllegalMoveError(f'illegal move {move!r} at node {self.node(state)}: '
                                   f'the moves are {list(children)}')
        return self.state(children[move])

    def utility(self, state: TreeState | Node, player: str) -> float:
        """The leaf's value for MAX, negated for MIN."""
        value = self.utils[self.node(state)]
        return value if player == 'MAX' else -value

    def terminal_test(self, state: TreeState | Node) -> bool:
        """Leaves are the nodes with no moves."""
        return self.node(state) not in self.succs

    def to_move(self, state: TreeState | Node) -> str:
        """MAX at even depths, MIN at odd ones."""
        return self.state(self.node(state)).to_move

    def describe_state(self, state: TreeState | Node) -> str:
        """Return the node's name (a number's as text)."""
        return str(self.node(state))

    def display(self, state: TreeState | Node) -> None:
        """Print the node's name, as AIMA prints its states, such as 'B1'."""
        print(self.node(state))

    def board_text(self, state: TreeState | Node, last_move: str | None = None) -> str:
        """Return the node, and the move that led to it if given."""
        node = self.node(state)
        return f'node {node}' + ('' if last_move is None else f' (after {last_move})')

    def state_json(self, state: TreeState | Node) -> dict[str, Any]:
        """Return the player to move and the node: {"to_move": "MAX", "node": "A"}."""
        return {'to_move': self.to_move(state), 'node': self.node(state)}

    def parse_move(self, text: str, state: TreeState | Node) -> str:
        """A move is typed as its name, such as 'a1'."""
        return text.strip()

    def check_leaves(self) -> None:
        """Raise ValueError unless every leaf has a utility."""
        missing = [node for node in self.depth if node not in self.succs and node not in self.utils]
        if missing:
            raise ValueError(f'leaves without a utility: {missing}')


class Fig52Game(TreeGame):
    """The game represented in [Figure 5.2], for the registry (fig52): its states
    are TreeStates. AIMA's own, whose states are the nodes' names, is games.textbook's."""

    name = 'fig52'

    def __init__(self) -> None:
        super().__init__(textbook.Fig52Game.succs, textbook.Fig52Game.utils, 'A')
