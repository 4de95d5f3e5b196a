"""Checking a student's search CS188-style: the move it chooses and every state
it generates must be those of the textbook algorithm; if not, name the mistake."""

from __future__ import annotations

from typing import Callable

from players import textbook

from .cases import Case
from .counting import counting, describe
from .models import (ALPHA_BETA_MISTAKES, CUTOFF_MISTAKES, MINIMAX_MISTAKES, Mistake,
                     model_search)

SEARCHES = {
    'minmax_decision': (textbook.minmax_decision, {'prune': False}, MINIMAX_MISTAKES),
    'alpha_beta_search': (textbook.alpha_beta_search, {}, ALPHA_BETA_MISTAKES),
    'alpha_beta_cutoff_search': (textbook.alpha_beta_cutoff_search, {}, CUTOFF_MISTAKES),
}
"""For each search a student may write: the textbook's version, model_search's options
that do the same, and the mistakes to look for."""

SHOWN = 4
"""How many differing states a message names."""


def trace(search: Callable, case: Case, **options) -> tuple:
    """Run search(state, game, **options) on a counting copy of the case's game;
    return the move and the list of states generated."""
    game = counting(case.game)
    move = search(case.state, game, **options)
    return move, game.generated


def _limit(case: Case) -> dict:
    """The depth limit and evaluation a cut-off search is called with, if any."""
    return {} if case.d is None else {'d': case.d, 'eval_fn': case.eval_fn()}


def student_trace(student: Callable, function: str, case: Case) -> tuple | None:
    """Run a student's search on a case (in the student's process): return the
    move and the states generated, or None if it raises NotImplementedError."""
    try:
        return trace(student, case, **_limit(case))
    except NotImplementedError:
        return None


def judge_search(function: str, case: Case, got: tuple | None) -> tuple[bool, str]:
    """Compare a student's trace with the textbook's (in the grader's own process,
    which never runs student code): return whether it passes and a message
    naming any mistake."""
    if got is None:
        return False, f'not implemented ({function} raises NotImplementedError)'
    reference, base, mistakes = SEARCHES[function]
    limit = _limit(case)
    expected = trace(reference, case, **limit)
    move, states = got = tuple(got)
    if got == expected:
        return True, f'chose {move!r} and generated the {len(states)} states of the textbook'
    made = [mistake for mistake in mistakes if _makes(mistake, case, base, limit, got)]
    if made:
        names = ' or '.join(mistake.name for mistake in made)
        return False, f'{names}: {"; ".join(m.explanation for m in made)} ({case.note})'
    return False, f'{_difference(case, expected, got)} ({case.note})'


def _makes(mistake: Mistake, case: Case, base: dict, limit: dict, got: tuple) -> bool:
    """Does the model making this mistake choose the same move and generate the same states?"""
    if mistake.depth_change:
        if case.d is None or case.d + mistake.depth_change < 0:
            return False
        limit = dict(limit, d=case.d + mistake.depth_change)
    return trace(model_search, case, **{**base, **limit, **mistake.options}) == got


def _difference(case: Case, expected: tuple, got: tuple) -> str:
    """Say how a search that makes no known mistake differs from the textbook's."""
    (best, wanted), (move, states) = expected, got
    parts = [] if move == best else [f'wrong move: chose {move!r}, the textbook chooses {best!r}']
    if states != wanted:
        wanted_set, states_set = set(wanted), set(states)
        extra = _unique(state for state in states if state not in wanted_set)
        missing = _unique(state for state in wanted if state not in states_set)
        if not states:
            parts.append(f'generated no states: it never calls game.result, where the '
                         f'textbook makes {len(wanted)} calls')
        elif not extra and not missing:
            parts.append(f'generated the right states but not in the textbook\'s order, or some '
                         f'more than once ({len(states)} calls to result, the textbook makes '
                         f'{len(wanted)}); search children in actions order, each once')
        elif not extra:
            parts.append(f'prunes too much: it skipped {len(missing)} states the textbook '
                         f'generates, such as {_names(case, missing)}')
        elif not missing:
            parts.append(f'prunes too little: it generated {len(extra)} states the textbook '
                         f'prunes, such as {_names(case, extra)}')
        else:
            parts.append(f'prunes wrongly: it generated {len(extra)} states the textbook does '
                         f'not, such as {_names(case, extra)}, and missed {len(missing)}, such '
                         f'as {_names(case, missing)}')
    return '; '.join(parts)


def _unique(states) -> list:
    """The states in order, each once."""
    seen, unique = set(), []
    for state in states:
        if state not in seen:
            seen.add(state)
            unique.append(state)
    return unique


def _names(case: Case, states: list) -> str:
    """Up to SHOWN states, described."""
    shown = ', '.join(describe(case.game, state) for state in states[:SHOWN])
    return shown + (', ...' if len(states) > SHOWN else '')
