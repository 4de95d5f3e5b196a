"""Every game's states show as SVG pictures of their boards in a notebook."""

import xml.etree.ElementTree as ElementTree

import variants
from games.backgammon import Backgammon
from games.grid import TicTacToe
from games.tree import Fig52Game

SVG = '{http://www.w3.org/2000/svg}'


def parse(state):
    """The state's picture, parsed (which fails on malformed SVG)."""
    return ElementTree.fromstring(state._repr_svg_())


def test_every_variant_draws_its_start():
    for name in variants.VARIANTS:
        game = variants.make(name)
        assert parse(game.initial).tag == f'{SVG}svg', name


def test_tic_tac_toe_draws_its_pieces():
    game = TicTacToe()
    state = game.result(game.result(game.result(game.initial, (2, 2)), (1, 3)), (3, 1))
    picture = parse(state)
    assert len(picture.findall(f'{SVG}path')) == 2  # two crosses
    assert len(picture.findall(f'{SVG}circle')) == 1  # one ring
    assert 'O to move' in ''.join(picture.itertext())


def test_backgammon_draws_thirty_checkers_and_the_roll():
    game = Backgammon()
    picture = parse(game.outcome(game.initial, (3, 5)))
    assert len(picture.findall(f'{SVG}circle')) == 30
    assert len(picture.findall(f'{SVG}polygon')) == 24
    assert 'rolled (3, 5)' in ''.join(picture.itertext())


def test_nim_and_trees():
    nim = variants.make('nim')
    assert len(parse(nim.initial).findall(f'{SVG}circle')) == 12
    assert 'A' in ''.join(parse(Fig52Game().initial).itertext())
