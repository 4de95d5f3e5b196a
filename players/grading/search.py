"""Judging a student's search CS188-style, in the grader's own process: the move it
chose and the states it generated (its calls of result, as the jail reports them,
followed with the grader's own game: see session.follow) must be the textbook's.
What the algorithm fixes is judged: which states are generated and how often, not
the order (minimax may make a node's children before searching
them; so may alpha-beta at its root, where nothing is pruned). If not, the message
names the mistake, or says how the search differs and where."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Callable

from players.remote.plain_json import to_plain
from games.stochastic import from_json
from players import textbook

from .cases import Case
from .jailed.counting import counting
from .jailed.plain import position_text, state_key, text
from .models import (ALPHA_BETA_MISTAKES, CUTOFF_MISTAKES, EAGER, MINIMAX_MISTAKES, AlphaBeta,
                     Mistake)
from .session import Searched

SEARCHES = {
    'minmax_decision': (textbook.minmax_decision, MINIMAX_MISTAKES),
    'alpha_beta_search': (textbook.alpha_beta_search, ALPHA_BETA_MISTAKES),
    'alpha_beta_cutoff_search': (textbook.alpha_beta_cutoff_search, CUTOFF_MISTAKES),
}
"""For each search a student may write: the textbook's version and the mistakes to
look for (see models)."""

SHOWN = 4
"""How many differing states a message names."""
STATE_FACTOR = 10
"""A search is stopped once it has generated this many times the textbook's states (and
STATE_MARGIN more)."""
STATE_MARGIN = 100


@dataclass
class Trace:
    """What a search did: the move it chose (as JSON text) and the keys of the states
    it generated, in order."""

    move: str
    keys: list

    @cached_property
    def counts(self) -> Counter:
        """How many times each state was generated."""
        return Counter(self.keys)


@dataclass
class Tree:
    """Every state of a case's full game tree: for each state's key, its position
    text and its parent's key."""

    names: dict = field(default_factory=dict)
    parents: dict = field(default_factory=dict)


def state_limit(case: Case) -> int:
    """The most states a student's search may generate on a case before it is stopped."""
    return STATE_FACTOR * len(expected(case).keys) + STATE_MARGIN


def trace(search: Callable, case: Case, **options) -> Trace:
    """Run a trusted search on a counting copy of the case's game and return its trace."""
    keys: list[str] = []
    game = counting(case.game, lambda state, move, new_state: keys.append(state_key(new_state)))
    move = search(case.state, game, **{**case.position.options, **options})
    return Trace(text(to_plain(move)), keys)


def expected(case: Case) -> Trace:
    """The textbook's trace on a case (worked out once per case)."""
    return _expected(case.function, text(case.spec), case)


@lru_cache(maxsize=None)
def _expected(function: str, spec: str, case: Case) -> Trace:
    return trace(SEARCHES[function][0], case)


def judge_search(case: Case, searched: Searched) -> tuple[bool, str]:
    """Judge the jail's answer to a search check (see jailed.inmate), followed in the
    grader's game: return whether it passes and the message for the student."""
    function, done = case.function, searched.done
    if searched.forged is not None:
        return False, f"its record of the states it generated is not its game's: {searched.forged}"
    if done.not_implemented:
        return False, f'not implemented ({function} raises NotImplementedError)'
    if done.stopped:
        wanted = len(expected(case).keys)
        return False, (f'stopped after {state_limit(case)} states, where the textbook generates '
                       f'{wanted}: does it search on below finished games, or search states '
                       f'again? ({case.note})')
    if done.error is not None:
        return False, done.error
    got = Trace(text(done.move), list(searched.keys))
    want = expected(case)
    if got.move == want.move and got.counts == want.counts:
        return True, f'chose {_move(got.move)} and generated the {len(want.keys)} states of the textbook'
    if not got.keys:
        return False, _nothing_generated(got, want, case)
    made = [mistake for mistake in SEARCHES[function][1] if _makes(mistake, case, got)]
    if made:
        names = ' or '.join(mistake.name for mistake in made)
        detail = '; '.join(_explanation(mistake, case, got, want) for mistake in made)
        return False, f'{names}: {detail} ({case.note})'
    return False, f'{_difference(case, want, got)} ({case.note})'


def _nothing_generated(got: Trace, want: Trace, case: Case) -> str:
    """The message for a search none of whose calls to result reached the game."""
    move = '' if got.move == want.move else f'wrong move: chose {_move(got.move)}, the textbook ' \
        f'chooses {_move(want.move)}; '
    return (f'{move}generated no states: no call of result reached the game it was given (nor '
            f'a copy of it), where the textbook makes {len(want.keys)}; make each child with '
            f'game.result(state, move) of the game passed to the search ({case.note})')


def _makes(mistake: Mistake, case: Case, got: Trace) -> bool:
    """Does the model making this mistake choose the same move and generate the same states?"""
    if not mistake.model.shows_in(case.position.options):
        return False
    try:
        model = trace(mistake.model.search, case)
    except (KeyError, ValueError, TypeError):  # the mistake cannot be made here, such as
        return False                           # scoring by utility where inner nodes have none
    return model.move == got.move and model.counts == got.counts


def _explanation(mistake: Mistake, case: Case, got: Trace, want: Trace) -> str:
    """A mistake's explanation, with the first state made too early for EAGER."""
    if mistake is not EAGER:
        return mistake.explanation
    tree = _tree(case)
    early = next(key for key in got.keys if got.counts[key] > want.counts[key])
    parent = tree.parents.get(early)
    cut = _cuts(case).get(parent, '')
    where = (f'the textbook stops at {_name(case, parent)} once {cut} and never makes it' if cut
             else 'the textbook never makes it there')
    return (f'it made {_name(case, early)} before searching its first sibling, but {where}; '
            f'make each child just before searching it')


def _difference(case: Case, want: Trace, got: Trace) -> str:
    """Say how a search that makes no known mistake differs from the textbook's."""
    parts = [] if got.move == want.move else [
        f'wrong move: chose {_move(got.move)}, the textbook chooses {_move(want.move)}']
    extra = list((got.counts - want.counts).elements())
    missing = list((want.counts - got.counts).elements())
    new = _unique(key for key in got.keys if key not in want.counts)
    absent = _unique(key for key in want.keys if key not in got.counts)
    pruning = case.function != 'minmax_decision'
    if missing and not absent and not extra:
        key = _unique(missing)[0]
        parts.append(f'generated some states fewer times than the textbook: {_name(case, key)} '
                     f'{_times(got.counts[key])}, the textbook {_times(want.counts[key])} (it '
                     f'is reached by different moves); the textbook searches the tree, so a '
                     f'state reached twice is searched twice: does it keep a table of states '
                     f'already searched?')
    elif extra and not new and not missing:
        key = _unique(extra)[0]
        parts.append(f'generated some states more often than the textbook: {_name(case, key)} '
                     f'{_times(got.counts[key])}, the textbook {_times(want.counts[key])}; make '
                     f'each child once (does it call game.result twice for one child?)')
    elif absent and not new:
        what = 'prunes too much: it skipped' if pruning else 'skipped'
        parts.append(f'{what} {len(absent)} states the textbook generates, such as '
                     f'{_names(case, absent)}' + ('' if pruning else '; minimax generates every '
                                                  'state of the tree'))
    elif new and not absent:
        parts.append(f'prunes too little: it generated {len(new)} states the textbook prunes, '
                     f'such as {_names(case, new)}{_why_pruned(case, new[0])}' if pruning else
                     f'generated {len(new)} states that are not in the tree, such as '
                     f'{_names(case, new)}')
    elif new or absent:
        parts.append(f'prunes wrongly: it generated {len(new)} states the textbook does not, such '
                     f'as {_names(case, new)}{_why_pruned(case, new[0])}, and missed '
                     f'{len(absent)}, such as {_names(case, absent)}' if pruning else
                     f'generated {len(new)} states that are not the tree\'s, such as '
                     f'{_names(case, new)}, and missed {len(absent)}, such as '
                     f'{_names(case, absent)}')
    if not [part for part in parts if not part.startswith('wrong move')]:
        parts.append('it generated the textbook\'s states: see how it chooses among the '
                     'values it finds (for the player to move at the root, first best move)')
    return '; '.join(parts)


def _why_pruned(case: Case, key: str) -> str:
    """Where the textbook stops before making the state of key, if it does."""
    parent = _tree(case).parents.get(key)
    cut = _cuts(case).get(parent)
    if cut is None:
        return ''
    return f' (the textbook stops searching {_name(case, parent)} once {cut})'


@lru_cache(maxsize=256)
def _tree_of(spec: str, case: Case) -> Tree:
    """Every state of the full tree below the case's root, with names and parents."""
    game, root = case.game, case.state
    root_moves = case.spec.get('position') or ''
    tree = Tree()
    tree.names[state_key(root)] = position_text(game, root) or root_moves or 'the start'
    stack: list[tuple[Any, list]] = [(root, [])]
    while stack:
        state, path = stack.pop()
        if game.terminal_test(state):
            continue
        parent = state_key(state)
        for move in game.actions(state):
            child, moves = game.result(state, move), path + [move]
            key = state_key(child)
            if key not in tree.names:
                typed = '; '.join(game.typed_move(step) for step in moves)
                tree.names[key] = (position_text(game, child)
                                   or '; '.join(part for part in (root_moves, typed) if part))
                tree.parents[key] = parent
                stack.append((child, moves))
    return tree


def _tree(case: Case) -> Tree:
    return _tree_of(text(case.spec), case)


def _cuts(case: Case) -> dict:
    """For each state where the textbook stops early, the test that stops it."""
    cuts: dict = {}
    if case.function != 'minmax_decision':
        AlphaBeta.search(case.state, case.game, **case.position.options,
                         on_cut=lambda state, test: cuts.setdefault(state_key(state), test))
    return cuts


def _name(case: Case, key: str | None) -> str:
    """A state named as `tree --position` takes it, or said not to be in the tree."""
    if key is None:
        return 'the root'
    return _tree(case).names.get(key, 'a state not in the game tree')


def _names(case: Case, keys: list) -> str:
    """Up to SHOWN states, named."""
    shown = ', '.join(_name(case, key) for key in keys[:SHOWN])
    return shown + (', ...' if len(keys) > SHOWN else '')


def _unique(keys) -> list:
    """The keys in order, each once."""
    return list(dict.fromkeys(keys))


def _times(count: int) -> str:
    return {0: 'never', 1: 'once', 2: 'twice'}.get(count, f'{count} times')


def _move(move_text: str) -> str:
    """A move as the messages show it, such as 'a1' or (2, 3)."""
    return repr(from_json(json.loads(move_text)))
