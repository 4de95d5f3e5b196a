"""Variants by name and game specs: parsing, checking and the canonical spec."""

import pytest

import variants
from games import GrundysGame, Nim
from games.grid import ConnectFour, TicTacToe


def test_every_variant_makes_its_game():
    for name, variant in variants.VARIANTS.items():
        assert repr(variants.make(name)) == variants.make(variant.spec).__repr__()
    assert set(variants.DEFAULT_VARIANTS) >= {'simple-nim', 'nim', 'misere-nim', 'nim-limit',
                                              'split-nim', 'tictactoe'}
    assert 'connect4' not in variants.DEFAULT_VARIANTS


def test_named_variants_are_the_promised_games():
    simple = variants.make('simple-nim')
    assert isinstance(simple, Nim) and (simple.piles, simple.misere, simple.max_take) == ((12,), True, 3)
    assert variants.make('misere-nim').misere and variants.make('nim-limit').max_take == 3
    assert isinstance(variants.make('split-nim'), GrundysGame)
    assert isinstance(variants.make('connect4'), ConnectFour)
    assert isinstance(variants.make('tictactoe'), TicTacToe)


def test_spec_round_trips():
    game = variants.make('nim(piles=(1, 3, 5, 7), misere=True)')
    assert game.piles == (1, 3, 5, 7) and game.misere
    assert variants.make(repr(game)).__repr__() == repr(game)
    assert variants.make('nim(piles=7)').piles == (7,)
    assert variants.make('tictactoe(h=4, v=4, k=3)').k == 3
    assert variants.make('grundy').pile == 7


@pytest.mark.parametrize('spec, message', [
    ('nim(piles=(-1, 2))', 'pile'),
    ('nim(pile=3)', "no parameter 'pile'; its parameters: piles, misere, max_take"),
    ('nim(piles=(1, 2), misere=1)', 'misere must be True or False'),
    ('nim(max_take=0)', 'max_take'),
    ('nim(max_take="3")', 'max_take must be a whole number'),
    ('tictactoe(h=0)', 'h must be'),
    ('tictactoe(k=4)', 'cannot fit'),
    ('chess', "unknown variant 'chess'"),
    ('chess(size=8)', "unknown game 'chess'"),
    ('nim(piles=(1, 2)', 'malformed'),
    ('nim(3)', 'key=value'),
    ('nim(piles=__import__("os").getpid())', 'literal'),
    ('nim(piles=(1,), piles=(2,))', 'twice'),
])
def test_bad_specs_are_value_errors_naming_the_problem(spec, message):
    with pytest.raises(ValueError, match=message.replace('(', r'\(').replace(')', r'\)')):
        variants.make(spec)
