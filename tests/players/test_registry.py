"""The PLAYER registry, the alpha-beta factory and loading players from specs."""

import pytest

from games import Nim, TicTacToe, TreeGame
from players import (PLAYER, PlayerLoadError, alpha_beta_cutoff_search, load_player,
                     make_alpha_beta_player, register)
from theory import chain


def test_registry_has_the_standard_players():
    for name in ['random', 'human', 'minimax', 'mcts'] + [f'ab{n}' for n in range(1, 21)]:
        assert callable(PLAYER[name]), name


@pytest.mark.parametrize('depth', [1, 2, 3, 5])
def test_each_ab_player_keeps_its_own_depth(depth):
    """abN sees a win exactly N plies deep and no deeper (no late-binding lambda)."""
    player = PLAYER[f'ab{depth}']
    assert player(chain(depth), chain(depth).initial) == 'a'
    deeper = chain(depth + 1)
    assert player(deeper, deeper.initial) == 'a'  # a tie at 0: the first move
    lost = TreeGame({'A': {'a': 'N1', 'b': 'Z'}, 'N1': {'m': 'N2'}, **{
        f'N{d}': {'m': f'N{d + 1}'} for d in range(2, depth + 2)}}, {f'N{depth + 2}': -1, 'Z': 0})
    assert player(lost, lost.initial) == 'a'  # the loss lies beyond its horizon
    assert PLAYER[f'ab{depth + 2}'](lost, lost.initial) == 'b'


def test_ab_n_matches_textbook_cutoff_at_d_minus_one():
    game = TicTacToe()
    state = game.result(game.result(game.initial, (1, 1)), (2, 1))
    def score(s):  # abN's scoring; AIMA's default would score a cut-off state by its utility
        return game.utility(s, 'X') if game.terminal_test(s) else game.evaluate(s, 'X')
    for depth in (1, 2, 3):
        assert PLAYER[f'ab{depth}'](game, state) == alpha_beta_cutoff_search(
            state, game, d=depth - 1, eval_fn=score)


def test_factory_takes_an_evaluation():
    def prefer_small_piles(game, state, player):
        return -sum(state.board) / 100
    player = make_alpha_beta_player(1, prefer_small_piles)
    game = Nim(piles=(3, 3))
    assert player(game, game.initial) == (1, 3)
    with pytest.raises(ValueError):
        make_alpha_beta_player(0)


def test_register_decorator():
    @register('test-first-move')
    def first_move(game, state):
        """Play the first legal move."""
        return game.actions(state)[0]
    assert PLAYER['test-first-move'] is first_move
    del PLAYER['test-first-move']


def test_load_player_by_name_module_and_file(tmp_path):
    assert load_player('ab3') is PLAYER['ab3']
    assert load_player('players.textbook:random_player') is PLAYER['random']
    path = tmp_path / 'mine.py'
    path.write_text('def player(game, state):\n    return game.actions(state)[-1]\n'
                    'def other(game, state):\n    return None\n')
    game = Nim(piles=(2,))
    assert load_player(str(path))(game, game.initial) == (1, 2)
    assert load_player(f'{path}:other')(game, game.initial) is None


@pytest.mark.parametrize('spec, named', [
    ('nobody', 'nobody'),
    ('no/such/file.py:player', 'no/such/file.py'),
    ('no_such_module_xyz:player', 'no_such_module_xyz'),
    ('players.textbook:no_such_function', 'no_such_function'),
])
def test_load_player_errors_name_what_is_missing(spec, named):
    with pytest.raises(PlayerLoadError, match=named):
        load_player(spec)


def test_a_broken_player_file_is_an_error(tmp_path):
    path = tmp_path / 'broken.py'
    path.write_text('raise SystemExit(3)\n')
    with pytest.raises(PlayerLoadError, match='broken.py'):
        load_player(f'{path}:player')
