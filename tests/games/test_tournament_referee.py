"""The referee's additions for tournaments: node counts, movers, safe moves."""

from games import Nim, TicTacToe, referee


def first(game, state):
    return game.actions(state)[0]


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
