"""The positions the grader searches, as plain data: AIMA's Figure 5.2, small
trees made up to catch each classic mistake, real positions of the games it is
given, and an instructor's own cases from a JSON file (--cases) in the same form.

A case file is {"cases": [CASE, ...]}, each CASE an object with:

- "name": what messages call it;
- either "tree" (each inner node's children, the root being "A"; a move is the
  child's name in lower case) and "utilities" (each leaf's value for MAX), or
  "variant" (a variant name or spec) and "position" (as `tree --position` takes
  it; default: the start);
- optionally "functions" (the searches it checks; default minmax_decision and
  alpha_beta_search, or alpha_beta_cutoff_search when "d" is given), "note"
  (what it is built to catch), "points" (per check, default 1) and "visibility"
  (Gradescope's: visible, hidden, after_due_date or after_published);
- for alpha_beta_cutoff_search: "d" (a depth limit, or a list of them), "eval"
  ("table" with "evals", each inner node's value for MAX; "evaluate", the game's;
  or "default", no eval_fn at all) and "cutoff" (tree nodes at which a given
  cutoff_test cuts off)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Sequence

from games import Game, StochasticGame, TreeGame

from .jailed.plain import Position, build, position_text, tree_game
from .real_positions import TREE_LIMIT, real_position, tree_size

SEARCH_FUNCTIONS = ('minmax_decision', 'alpha_beta_search', 'alpha_beta_cutoff_search')
VISIBILITIES = ('visible', 'hidden', 'after_due_date', 'after_published')
"""Gradescope's visibilities of a test."""
KEYS = {'name', 'note', 'functions', 'points', 'visibility', 'tree', 'utilities', 'variant',
        'position', 'd', 'eval', 'evals', 'cutoff'}


class CaseError(ValueError):
    """A case file that cannot be used, with the reason."""


@dataclass(frozen=True)
class Case:
    """A position to search with one function, with what it is built to catch."""

    name: str
    """The name used in messages, such as 'fig52' or 'depth-trap (d=1)'."""
    function: str
    """The search it checks."""
    spec: dict = field(hash=False)
    """The position as plain data (see jailed.plain.build), sent to the jail."""
    note: str = ''
    """What the case is built to catch."""
    points: int = 1
    visibility: str = 'visible'

    @cached_property
    def position(self) -> Position:
        """The position, made in the grader's own process."""
        import variants
        return build(self.spec, variants.make)

    @property
    def game(self) -> Game:
        """The game of the position."""
        return self.position.game

    @property
    def state(self) -> Any:
        """The state the search starts from."""
        return self.position.state


def tree(succs: dict, utils: dict) -> TreeGame:
    """A TreeGame from a compact table (see jailed.plain.tree_game)."""
    return tree_game(succs, utils)


TIE_SUCCS = {'A': ['B', 'C', 'D'], 'B': ['B1', 'B2'], 'C': ['C1', 'C2'], 'D': ['D1', 'D2']}
TIE_UTILS = dict(B1=3, B2=5, C1=3, C2=9, D1=2, D2=8)
TIE = tree(TIE_SUCCS, TIE_UTILS)
"""b and c are both worth 3 to MAX: the first, b, is the textbook's move, and alpha-beta
prunes C2 because C1 = 3 <= alpha = 3 (equal values prune)."""

TRAP_SUCCS = {'A': ['B', 'C'], 'B': ['B1', 'B2'], 'C': ['C1', 'C2'],
              'B1': ['B11', 'B12'], 'B2': ['B21', 'B22'],
              'C1': ['C11', 'C12'], 'C2': ['C21', 'C22']}
TRAP_LEAVES = dict(B11=7, B12=1, B21=9, B22=2, C11=1, C12=2, C21=5, C22=0)
DEPTH_TRAP_EVALS = dict(B=5, C=1, B1=6, B2=0, C1=3, C2=4)
TRAP_UTILS = {**TRAP_LEAVES, **{node: 0 for node in DEPTH_TRAP_EVALS}}
DEPTH_TRAP = tree(TRAP_SUCCS, TRAP_UTILS)
"""The best move changes with the depth: b looking 1 ply ahead, c at 2 plies, b at 3
(with DEPTH_TRAP_EVALS as eval_fn; an inner node's utility is 0, as for a game going on)."""
SCORED_LEAVES = {**TRAP_LEAVES, **DEPTH_TRAP_EVALS}
"""The depth trap whose inner nodes have DEPTH_TRAP_EVALS as their utilities and no
evaluation (evaluate is 0): AIMA's default scoring by utility chooses c at d=1, and
scoring by evaluate chooses b."""

DEEP_SUCCS = {'A': ['B', 'C'], 'B': ['B1', 'B2', 'B3'], 'C': ['C1', 'C2'],
              'B1': ['B11', 'B12'], 'B2': ['B21', 'B22', 'B23'], 'B3': ['B31', 'B32', 'B33'],
              'C1': ['C11', 'C12'], 'C2': ['C21', 'C22']}
DEEP_UTILS = dict(B11=7, B12=0, B21=9, B22=9, B23=1, B31=7, B32=4, B33=9, C11=5, C12=2, C21=1,
                  C22=1)
DEEP = tree(DEEP_SUCCS, DEEP_UTILS)
"""Three plies: B2 and B3 are cut off inside B by beta = 7 (B3 on equality), C2 by alpha = 7.
Never pruning, pruning only on strict inequality and never updating alpha/beta each
generate a different set of states."""

EARLY_END_SUCCS = {'A': ['B', 'C', 'D'], 'C': ['C1', 'C2'], 'D': ['D1', 'D2'],
                   'C2': ['C21', 'C22'], 'D2': ['D21', 'D22']}
EARLY_END_UTILS = dict(B=1, C1=5, C21=9, C22=4, D1=-4, D21=6, D22=8, C=0, D=0, C2=0, D2=0)
EARLY_END_EVALS = dict(C=2, D=6, C2=7, D2=3)
"""Games that end within the cut-off depth: B is a finished game worth 1 right after
the first move and C1, D1 finished ones a ply later. Cut off at d=1, C = min(5, 7) = 5
and D = min(-4, ...) prunes D2: the textbook chooses c. A search that goes on below
finished games finds no moves there and scores B as +infinity (it chooses b)."""

POINT_OF_VIEW_SUCCS = {'A': ['B', 'C', 'D'], 'B': ['B1', 'B2'], 'D': ['D1', 'D2', 'D3']}
POINT_OF_VIEW_UTILS = dict(B1=4, B2=2, C=-3, D1=4, D2=3, D3=5, B=0, D=0)
"""Games over at both parities: c ends the game at once, a loss of 3 for MAX; B and D
are games going on (utility 0), over a ply later. With no eval_fn, at d=0: B = 0,
C = -3, D = 0, so b; at d=1: B = min(4, 2) = 2, C = -3, and D1 = 4, D2 = 3 > alpha = 2,
so D = min(4, 3, 5) = 3: d. Scored for the player to move in it, C (MIN to move) is
worth +3: c at d=0, and at d=1 alpha = 3 stops D at D2 = 3, so D3 is never made; a
search that goes on below C finds no moves (+infinity) and stops D at D1 already."""

FIVE_PLY_SUCCS = {'A': ['B', 'C'], 'B': ['B1', 'B2'], 'C': ['C1', 'C2'],
                  'B1': ['B11', 'B12'], 'B2': ['B21', 'B22'], 'C1': ['C11', 'C12'],
                  'C2': ['C21', 'C22'], 'B11': ['B111', 'B112'], 'B12': ['B121', 'B122'],
                  'B21': ['B211', 'B212'], 'B22': ['B221', 'B222'], 'C11': ['C111', 'C112'],
                  'C12': ['C121', 'C122'], 'C21': ['C211', 'C212'], 'C22': ['C221', 'C222']}
FIVE_PLY_UTILS = dict(B111=0, B112=7, B121=0, B122=4, B211=9, B212=9, B221=9, B222=6,
                      C111=2, C112=2, C121=8, C122=3, C211=0, C212=3, C221=8, C222=8)
"""Four plies, deep enough that alpha and beta are passed down two levels: never
updating alpha, never updating beta, both, no alpha at the root, swapped tests,
never pruning and strict pruning each generate a different set of states here."""

BUILTIN: list[dict] = [
    {'name': 'fig52', 'variant': 'fig52',
     'note': 'AIMA Figure 5.2, its moves named as in the book (a1, a2, a3 at the root); '
             'alpha-beta prunes C2 and C3'},
    {'name': 'tie', 'tree': TIE_SUCCS, 'utilities': TIE_UTILS,
     'note': 'a tie at the root, and pruning on equal values'},
    {'name': 'deep-pruning', 'tree': DEEP_SUCCS, 'utilities': DEEP_UTILS,
     'note': 'cut-offs at two depths'},
    {'name': 'four-ply', 'tree': FIVE_PLY_SUCCS, 'utilities': FIVE_PLY_UTILS,
     'note': 'alpha and beta passed down two levels'},
    {'name': 'depth-trap', 'tree': TRAP_SUCCS, 'utilities': TRAP_UTILS, 'd': [0, 1, 2],
     'eval': 'table', 'evals': DEPTH_TRAP_EVALS,
     'note': 'a depth trap: the best move changes with the depth'},
    {'name': 'fig52', 'variant': 'fig52', 'd': 1,
     'note': 'AIMA Figure 5.2 searched to its leaves'},
    {'name': 'deep-pruning', 'tree': DEEP_SUCCS, 'utilities': DEEP_UTILS, 'd': 1,
     'note': 'pruning above the cut-off'},
    {'name': 'four-ply', 'tree': FIVE_PLY_SUCCS, 'utilities': FIVE_PLY_UTILS, 'd': 3,
     'eval': 'table', 'note': 'alpha and beta passed down two levels'},
    {'name': 'early-end', 'tree': EARLY_END_SUCCS, 'utilities': EARLY_END_UTILS, 'd': [1, 2],
     'eval': 'table', 'evals': EARLY_END_EVALS,
     'note': 'games that end within the cut-off depth'},
    {'name': 'default evaluation', 'tree': TRAP_SUCCS, 'utilities': SCORED_LEAVES, 'd': 1,
     'eval': 'default',
     'note': "no eval_fn: AIMA's default scores a cut-off state with its utility"},
    {'name': 'point of view', 'tree': POINT_OF_VIEW_SUCCS, 'utilities': POINT_OF_VIEW_UTILS,
     'd': [0, 1], 'eval': 'default',
     'note': "no eval_fn, and games over right after the root's move and a ply later"},
    {'name': 'given cutoff_test', 'tree': TRAP_SUCCS, 'utilities': TRAP_UTILS, 'd': 4,
     'eval': 'table', 'evals': DEPTH_TRAP_EVALS, 'cutoff': ['B', 'C1', 'C2'],
     'note': 'a cutoff_test that cuts off at B, C1 and C2, whatever the depth'},
]
"""AIMA's Figure 5.2 (the fig52 variant, its moves named as in the book) and the
made-up trees, in the form of a case file's cases."""


def expand(entry: dict, origin: str = 'the built-in cases') -> list[Case]:
    """Return the cases of one entry of a case file, one per function and depth;
    raise CaseError naming what is wrong."""
    name = entry.get('name') if isinstance(entry, dict) else None
    where = f'{origin}: case {name!r}' if isinstance(name, str) else f'{origin}: a case'
    if not isinstance(entry, dict):
        raise CaseError(f'{where} is not an object')
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise CaseError(f'{where}: unknown key {unknown[0]!r}; the keys are {", ".join(sorted(KEYS))}')
    if not isinstance(name, str) or not name.strip():
        raise CaseError(f'{where} has no "name"')
    depths = entry.get('d')
    depths = depths if isinstance(depths, list) else [depths]
    if any(d is not None and (not isinstance(d, int) or isinstance(d, bool) or d < 0)
           for d in depths) or not depths:
        raise CaseError(f'{where}: "d" must be a whole number >= 0 or a list of them')
    cutoff = depths != [None]
    functions = entry.get('functions', ['alpha_beta_cutoff_search'] if cutoff
                          else ['minmax_decision', 'alpha_beta_search'])
    if (not isinstance(functions, list) or not functions
            or any(function not in SEARCH_FUNCTIONS for function in functions)):
        raise CaseError(f'{where}: "functions" must list some of {", ".join(SEARCH_FUNCTIONS)}')
    if cutoff != (functions == ['alpha_beta_cutoff_search']):
        raise CaseError(f'{where}: "d" is for alpha_beta_cutoff_search, and it needs one')
    visibility = entry.get('visibility', 'visible')
    if visibility not in VISIBILITIES:
        raise CaseError(f'{where}: "visibility" must be one of {", ".join(VISIBILITIES)}')
    points = entry.get('points', 1)
    if not isinstance(points, int) or isinstance(points, bool) or points < 1:
        raise CaseError(f'{where}: "points" must be a whole number >= 1')
    base = _position_spec(entry, where)
    cases = []
    for function in functions:
        for d in depths:
            spec = dict(base) if d is None else {**base, 'd': d, **_cutoff_options(entry, where)}
            label = entry['name'] if d is None or entry.get('cutoff') else f'{entry["name"]} (d={d})'
            cases.append(Case(label, function, spec, entry.get('note', ''), points, visibility))
    for case in cases[:1]:
        _check_builds(case, where)
    return cases


def _position_spec(entry: dict, where: str) -> dict:
    """The plain spec of an entry's position, checked for its types."""
    if 'tree' in entry:
        succs, utils = entry['tree'], entry.get('utilities')
        if not (isinstance(succs, dict) and all(isinstance(children, list) and children and all(
                isinstance(child, str) for child in children) for children in succs.values())):
            raise CaseError(f'{where}: "tree" must map each inner node to a list of its children')
        if 'A' not in succs:
            raise CaseError(f'{where}: the root of a "tree" is "A"')
        if not isinstance(utils, dict) or not all(_number(value) for value in utils.values()):
            raise CaseError(f'{where}: "utilities" must give each leaf a number')
        return {'tree': succs, 'utilities': utils}
    if isinstance(entry.get('variant'), str):
        position = entry.get('position')
        if position is not None and not isinstance(position, str):
            raise CaseError(f'{where}: "position" must be a text such as "2 2; 1 1"')
        return {'variant': entry['variant'], 'position': position}
    raise CaseError(f'{where} needs "tree" and "utilities", or "variant"')


def _cutoff_options(entry: dict, where: str) -> dict:
    """The evaluation and cut-off test of a cut-off search's entry."""
    kind = entry.get('eval', 'table' if 'evals' in entry else 'evaluate')
    if kind not in ('table', 'evaluate', 'default'):
        raise CaseError(f'{where}: "eval" must be table, evaluate or default')
    options: dict[str, Any] = {'eval': kind}
    if kind == 'table':
        evals = entry.get('evals', {})
        if not isinstance(evals, dict) or not all(_number(value) for value in evals.values()):
            raise CaseError(f'{where}: "evals" must give inner nodes numbers')
        options['evals'] = evals
    if entry.get('cutoff') is not None:
        if not isinstance(entry['cutoff'], list) or 'tree' not in entry:
            raise CaseError(f'{where}: "cutoff" is a list of the tree\'s nodes')
        options['cutoff'] = entry['cutoff']
    return options


def _check_builds(case: Case, where: str) -> None:
    """Raise CaseError unless the case's position can be made and searched."""
    try:
        game, state = case.game, case.state
    except ValueError as error:  # an unknown variant, a bad position, a leaf without a value
        raise CaseError(f'{where}: {error}') from None
    except (KeyError, TypeError) as error:
        raise CaseError(f'{where}: {type(error).__name__}: {error}') from None
    if isinstance(game, StochasticGame):
        raise CaseError(f'{where}: {game} is a game of chance; the searches have no chance nodes')
    if game.terminal_test(state):
        raise CaseError(f'{where}: the game is over in that position')
    if tree_size(game, state, TREE_LIMIT) > TREE_LIMIT:
        raise CaseError(f'{where}: its tree has more than {TREE_LIMIT} states')


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def builtin_cases(function: str) -> list[Case]:
    """The made-up trees for a search function."""
    return [case for entry in BUILTIN for case in expand(entry) if case.function == function]


def load_cases(path: str) -> list[Case]:
    """Return the cases of an instructor's case file; raise CaseError naming
    what is wrong with it."""
    try:
        with open(path, encoding='utf-8') as file:
            data = json.load(file)
    except OSError as error:
        raise CaseError(f'cannot read the case file {path!r}: {error.strerror}') from None
    except ValueError as error:
        raise CaseError(f'the case file {path!r} is not JSON: {error}') from None
    if not isinstance(data, dict) or not isinstance(data.get('cases'), list):
        raise CaseError(f'the case file {path!r} must be {{"cases": [...]}}')
    return [case for entry in data['cases'] for case in expand(entry, path)]


def position_cases(games: dict[str, Game], d: int | None = None,
                   ending: bool = False) -> list[Case]:
    """A real position of each game, reached by random moves (the same each run)
    until its full minimax tree has at most TREE_LIMIT states; with d, for
    alpha_beta_cutoff_search, scoring cut-off states with the game's evaluate. With
    ending, the random moves go on until the player to move can also end the game at
    once, with a win or a loss, but need not (see ends_at_once), and the position is
    searched with no eval_fn: AIMA's default scores a finished game for the player to
    move at the root, so at d=0 the textbook takes a win at once (or avoids a loss),
    and a search that scores it for the player to move in it, the opponent, does not."""
    cases = []
    for name, game in games.items():
        if isinstance(game, StochasticGame):
            continue
        found = real_position(name, game, ending)
        if found is not None:
            state, moves = found
            where = position_text(game, state, moves)
            note = f'a position of {name}' + (' where the player to move can end the game at '
                                              'once; no eval_fn' if ending else '')
            entry: dict[str, Any] = {'name': f"{name} '{where}'", 'variant': name,
                                     'position': where, 'note': note}
            if d is not None:
                entry.update(d=d, eval='default' if ending else 'evaluate',
                             functions=['alpha_beta_cutoff_search'])
            cases += expand(entry, 'the positions')
    return cases


def search_cases(function: str, games: dict[str, Game], extra: Sequence[Case] = ()) -> list[Case]:
    """Every case of a search function: the made-up trees, a position of each
    game (and for alpha_beta_cutoff_search one where the game can end at once) and
    the instructor's cases."""
    if function == 'alpha_beta_cutoff_search':
        positions = position_cases(games, 1) + position_cases(games, 0, ending=True)
    else:
        positions = position_cases(games)
    return [case for case in builtin_cases(function) + positions + list(extra)
            if case.function == function]

