"""The referee's additions for tournaments: time limits, node counts, movers, safe moves."""

import time

from games import Nim, TicTacToe, referee


def first(game, state):
    return game.actions(state)[0]


def test_a_time_limited_call_forfeits_a_slow_player_on_time():
    def slow(game, state):
        time.sleep(5)
    told = []
    record = referee.play(Nim(piles=(2,)), [first, slow],
                          call=referee.time_limited(0.2, before=told.append))
    assert record.termination == referee.TIMEOUT and record.offender == 1
    assert record.detail == 'no move within 0.2 s' and len(told) == 2


class EqualsEverything:
    """A move object that claims to equal any move."""

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


def test_the_referee_plays_its_own_copy_of_a_legal_move():
    record = referee.play(TicTacToe(), [lambda game, state: EqualsEverything(), first])
    assert all(type(move) is tuple for move in record.moves)
    assert record.termination == referee.NORMAL


def test_a_move_that_breaks_comparison_is_illegal():
    class Broken:
        def __eq__(self, other):
            raise RuntimeError('no comparing me')
        __hash__ = object.__hash__
    record = referee.play(TicTacToe(), [lambda game, state: Broken(), first])
    assert record.termination == referee.ILLEGAL and 'no comparing me' in record.detail


def test_none_is_an_illegal_move_that_says_so():
    record = referee.play(Nim(piles=(2,)), [first, lambda game, state: None])
    assert record.termination == referee.ILLEGAL and 'None' in record.detail


def test_movers_and_reported_nodes_are_recorded():
    def searcher(game, state):
        searcher.stats = {'nodes': 5}
        return game.actions(state)[0]
    record = referee.play(Nim(piles=(3,)), [searcher, first])
    assert record.movers == [0, 1, 0] and record.nodes == [10, None]


def test_a_huge_fault_message_or_move_is_cut_short_in_the_record():
    def shouts(game, state):
        raise ValueError('x' * 10**6)

    def floods(game, state):
        return list(range(10**5))
    for bad, termination in ((shouts, referee.ERROR), (floods, referee.ILLEGAL)):
        record = referee.play(Nim(piles=(2,)), [bad, first])
        assert record.termination == termination and record.offender == 0
        assert len(record.detail) == referee.DETAIL_LIMIT and record.detail.endswith('…')


def test_a_time_limit_past_the_timers_range_still_works():
    def slow(game, state):
        time.sleep(5)
    record = referee.play(Nim(piles=(2,)), [first, first], call=referee.time_limited(1e308))
    assert record.termination == referee.NORMAL
    record = referee.play(Nim(piles=(2,)), [slow, first], call=referee.time_limited(1e-12))
    assert record.termination == referee.TIMEOUT and record.offender == 0
