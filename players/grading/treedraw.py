"""Game-tree drawings: the minimax or alpha-beta tree below a position, as Graphviz DOT.

MAX nodes are triangles pointing up, MIN nodes point down and terminal states
are boxes; each node shows its state and its value for the player at the root
(a bound such as '≤ 2' where alpha-beta stopped early). The chosen move is
drawn thick and red; the moves alpha-beta never searched lead to grey
'pruned' stubs. The search is the textbook's (players/textbook.py): children in
actions order, pruning as in AIMA's Figure 5.7, ties to the first best move."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any

from games import Game
from players.human import as_typed
from players.reports.text_report import plural

from .jailed.plain import describe, parse_position, position_text

NODE_LIMIT = 400
"""The most nodes (pruned stubs included) a drawing may have."""
ALGORITHMS = ('minimax', 'alphabeta')
"""The searches a drawing can show."""
RENDERED = ('svg', 'png', 'pdf')
"""The file types Graphviz's dot renders for --out."""


class TreeTooLarge(ValueError):
    """The tree has more nodes than a drawing can show."""


class GraphvizMissing(RuntimeError):
    """Graphviz's dot command is not installed."""


@dataclass
class Node:
    """A searched state: its value for the root's player and what was searched below it."""

    state: Any
    """The game state."""
    move: Any = None
    """The move that led here (None at the root)."""
    maximizing: bool = True
    """Is the root's player to move here?"""
    value: float = 0
    """The value for the root's player, or a bound on it where the search stopped early."""
    bound: str = ''
    """'≥' or '≤' when value is a bound, else ''."""
    kind: str = 'inner'
    """'inner', 'terminal' or 'cut-off' (scored by the evaluation at the depth limit)."""
    children: list = field(default_factory=list)
    """The searched nodes below, in actions order."""
    pruned: list = field(default_factory=list)
    """The moves alpha-beta did not search."""
    chosen: Any = None
    """At the root: the child the search chooses."""


def search_tree(game: Game, state, algorithm: str = 'alphabeta', depth: int | None = None,
                limit: int = NODE_LIMIT) -> Node:
    """Search from state as the textbook does and return the tree it searched.
    depth=None searches to the end; depth=N looks N plies ahead and scores
    the states there with game.evaluate (terminal states with their utility).
    Raises TreeTooLarge past limit nodes (see deepest_tree for one that fits)."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f'unknown algorithm {algorithm!r}; choose one of {", ".join(ALGORITHMS)}')
    try:
        return _search_tree(game, state, algorithm, depth, limit)
    except TreeTooLarge:
        reach = 'to the end' if depth is None else f'{plural(depth, "ply")} deep'
        raise TreeTooLarge(f'the tree {reach} has more than {limit} nodes, too many to '
                           'draw') from None


def _search_tree(game: Game, state, algorithm: str, depth: int | None, limit: int) -> Node:
    """search_tree's search, raising a bare TreeTooLarge past limit nodes."""
    prune = algorithm == 'alphabeta'
    player = game.to_move(state)
    count = 1

    def visit(node: Node, alpha: float, beta: float, ply: int) -> None:
        nonlocal count
        if game.terminal_test(node.state):
            node.kind, node.value = 'terminal', game.utility(node.state, player)
            return
        if depth is not None and ply >= depth:
            node.kind, node.value = 'cut-off', game.evaluate(node.state, player)
            return
        moves = list(game.actions(node.state))
        node.value = -math.inf if node.maximizing else math.inf
        for index, move in enumerate(moves):
            count += 1
            if count > limit:
                raise TreeTooLarge
            child = Node(game.result(node.state, move), move, not node.maximizing)
            node.children.append(child)
            visit(child, alpha, beta, ply + 1)
            if node.maximizing:
                node.value = max(node.value, child.value)
                cut = node.value >= beta
                alpha = max(alpha, node.value)
            else:
                node.value = min(node.value, child.value)
                cut = node.value <= alpha
                beta = min(beta, node.value)
            if prune and cut and index + 1 < len(moves):
                node.pruned, node.bound = moves[index + 1:], '≥' if node.maximizing else '≤'
                count += len(node.pruned)
                if count > limit:
                    raise TreeTooLarge
                return

    root = Node(state, maximizing=True)
    visit(root, -math.inf, math.inf, 0)
    for child in root.children:
        if root.chosen is None or child.value > root.chosen.value:
            root.chosen = child
    return root


def deepest_tree(game: Game, state, algorithm: str = 'alphabeta', most: int | None = None,
                 limit: int = NODE_LIMIT) -> tuple[int, Node] | None:
    """Return the deepest look-ahead (of at most most plies; None: any) whose tree
    has at most limit nodes, with the tree searched to it, or None if even one ply
    has more. The look-ahead grows until its tree has more than limit nodes."""
    found = None
    for plies in range(1, limit if most is None else most + 1):
        try:
            found = plies, _search_tree(game, state, algorithm, plies, limit)
        except TreeTooLarge:
            break
    return found


def moves_to_a_smaller_tree(game: Game, state, limit: int = NODE_LIMIT) -> tuple[Any, list]:
    """Return the first position after state, reached by the first legal move each
    time, whose tree one ply deep has at most limit nodes (or where the game ends),
    and the moves that lead there. A tree one ply deep holds the state and a node for
    each legal move, searched or pruned, whatever the algorithm."""
    moves: list = []
    while not game.terminal_test(state):
        legal = list(game.actions(state))
        if 1 + len(legal) <= limit:
            break
        moves.append(legal[0])
        state = game.result(state, moves[-1])
    return state, moves


def generated(root: Node) -> list:
    """The states the search generated, in the order it generated them."""
    states = []
    for child in root.children:
        states.append(child.state)
        states.extend(generated(child))
    return states


def to_dot(game: Game, root: Node, title: str = '') -> str:
    """The tree as a Graphviz digraph."""
    lines = ['digraph tree {', f'  graph [label={_quote(title)}, labelloc=t, ordering=out];',
             '  node [fontname="Helvetica", style=filled, fillcolor=white];',
             '  edge [fontname="Helvetica", fontsize=10];']
    ids = iter(range(10 ** 9))

    def draw(node: Node, chosen: bool) -> str:
        name = f'n{next(ids)}'
        shape = ('box' if node.kind == 'terminal' else 'triangle' if node.maximizing
                 else 'invtriangle')
        state = describe(game, node.state).replace('/', '\n')
        value = f'{node.bound} {_number(node.value)}' if node.bound else _number(node.value)
        extra = ', color=red, penwidth=3' if chosen else ''
        extra += ', style="filled,dashed"' if node.kind == 'cut-off' else ''
        label = _quote(f'{state}\n{value}')
        lines.append(f'  {name} [label={label}, shape={shape}{extra}];')
        for child in node.children:
            highlight = child is root.chosen
            child_name = draw(child, highlight)
            style = ', color=red, fontcolor=red, penwidth=3' if highlight else ''
            lines.append(f'  {name} -> {child_name} [label={_quote(as_typed(child.move))}{style}];')
        for move in node.pruned:
            stub = f'n{next(ids)}'
            lines.append(f'  {stub} [label="pruned", shape=box, style=dashed, color=grey, '
                         'fontcolor=grey];')
            lines.append(f'  {name} -> {stub} [label={_quote(as_typed(move))}, color=grey, '
                         'fontcolor=grey, style=dashed];')
        return name

    draw(root, False)
    lines.append('}')
    return '\n'.join(lines) + '\n'


def start_position(game: Game, spec: str | None):
    """The state a --position spec names, as the grader's messages name positions
    (see players.grading.jailed.plain.parse_position). Raises ValueError naming
    what is wrong."""
    return parse_position(game, spec)


def root_name(game: Game, state, spec: str | None) -> str:
    """The root a drawing starts from, for its title: 'the start', or the position."""
    if spec is None:
        return 'the start'
    named = position_text(game, state)
    return named if named else spec.strip()


def render(dot: str, path: str) -> None:
    """Write the drawing to path: DOT text for .dot, else rendered by Graphviz's
    dot for .svg, .png or .pdf. Raises ValueError for another file type and
    GraphvizMissing when dot is not installed; nothing is written then."""
    kind = path.rsplit('.', 1)[-1].lower() if '.' in path else ''
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f'cannot write {path}: no such folder {folder!r}')
    if kind == 'dot':
        with open(path, 'w', encoding='utf-8') as file:
            file.write(dot)
        return
    if kind not in RENDERED:
        raise ValueError(f'--out {path!r}: the file must end in .dot, .{", .".join(RENDERED)}')
    program = shutil.which('dot')
    if program is None:
        raise GraphvizMissing(f'cannot write {path}: Graphviz is not installed (no "dot" '
                              'command); install it (apt-get install graphviz) or use '
                              '--out tree.dot')
    done = subprocess.run([program, f'-T{kind}', '-o', path], input=dot.encode(),
                          capture_output=True, check=False)
    if done.returncode:
        raise RuntimeError(f'dot failed: {done.stderr.decode(errors="replace").strip()}')


def _number(value: float) -> str:
    """A value as short text: 3, -1, 0.45."""
    return f'{value:.2f}'.rstrip('0').rstrip('.') if value != int(value) else str(int(value))


def _quote(text: str) -> str:
    """A DOT string literal."""
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n') + '"'
