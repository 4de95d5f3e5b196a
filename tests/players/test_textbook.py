"""AIMA's searches against theory computed here, and aima-python's own tests after the import swap."""

import random

import pytest
from theory import bouton_mover_wins, small_positions

from games import *  # noqa: F401,F403  (as an aima-python exercise would)
from players import *  # noqa: F401,F403
from games import Fig52Game, GameState, Nim, TicTacToe, TreeGame, play_game
from players import (alpha_beta_cutoff_search, alpha_beta_player, alpha_beta_search,
                     alphabeta_full_search, alphabeta_player, mcts_player, minimax_decision,
                     minmax_decision, monte_carlo_tree_search, random_player)

f52 = Fig52Game()
ttt = TicTacToe()


def gen_state(to_move='X', x_positions=(), o_positions=(), h=3, v=3):
    """A tic-tac-toe state with the given pieces, as aima-python's tests make them."""
    moves = list({(x, y) for x in range(1, h + 1) for y in range(1, v + 1)}
                 - set(x_positions) - set(o_positions))
    board = {**{pos: 'X' for pos in x_positions}, **{pos: 'O' for pos in o_positions}}
    return GameState(to_move=to_move, utility=0, board=board, moves=moves)


@pytest.mark.parametrize('search', [minmax_decision, minimax_decision, alpha_beta_search,
                                    alphabeta_full_search])
def test_figure_5_2(search):
    assert [search(node, f52) for node in 'ABCD'] == ['a1', 'b1', 'c1', 'd3']


def test_aima_tic_tac_toe_positions():
    state = gen_state(to_move='X', x_positions=[(1, 1), (3, 3)], o_positions=[(1, 2), (3, 2)])
    assert alpha_beta_search(state, ttt) == (2, 2)
    state = gen_state(to_move='O', x_positions=[(1, 1), (3, 1), (3, 3)], o_positions=[(1, 2), (3, 2)])
    assert alpha_beta_search(state, ttt) == (2, 2)
    state = gen_state(to_move='O', x_positions=[(1, 1)], o_positions=[])
    assert alpha_beta_search(state, ttt) == (2, 2)


def test_aima_play_game():
    assert play_game(Fig52Game(), alphabeta_player, alphabeta_player) == 3
    assert Fig52Game().play_game(alpha_beta_player, alpha_beta_player) == 3
    random.seed(1)
    for _ in range(3):
        assert ttt.play_game(alpha_beta_player, random_player) >= 0


def test_tic_tac_toe_is_a_draw():
    assert ttt.play_game(alpha_beta_player, alpha_beta_player) == 0


@pytest.mark.parametrize('misere', [False, True])
def test_alpha_beta_agrees_with_bouton(misere):
    """From every position of up to 3 piles of up to 3, the mover wins iff Bouton says
    so, and alpha-beta's move then leaves a position Bouton calls lost for the opponent."""
    for piles in small_positions():
        game = Nim(piles=piles, misere=misere)
        if game.terminal_test(game.initial):
            continue
        move = alpha_beta_search(game.initial, game)
        after = game.result(game.initial, move)
        if bouton_mover_wins(piles, misere):
            assert not bouton_mover_wins(after.board, misere), (piles, move)
        assert move in game.actions(game.initial)


def test_misere_nim_2_3_5_leaves_2_3_1():
    game = Nim(piles=(2, 3, 5), misere=True)
    assert game.result(game.initial, alpha_beta_search(game.initial, game)).board == (2, 3, 1)


def test_simple_nim_6_leaves_5():
    game = Nim(piles=(6,), misere=True, max_take=3)
    assert game.result(game.initial, alpha_beta_search(game.initial, game)).board == (5,)


def test_a_lost_position_still_gets_a_legal_move():
    """aima-python's alpha-beta can return None when every move loses; ours never does."""
    game = TreeGame({'A': {'l': 'L', 'r': 'R'}}, {'L': float('-inf'), 'R': float('-inf')})
    assert alpha_beta_search(game.initial, game) == 'l'
    assert alpha_beta_cutoff_search(game.initial, game) == 'l'
    assert minmax_decision(game.initial, game) == 'l'


def test_cutoff_search_looks_d_plus_one_plies_ahead():
    """With d=0 the search sees one ply; with d=1 it sees the opponent's reply."""
    game = TreeGame({'A': {'a': 'B', 'b': 'C'}, 'B': {'x': 'B1'}, 'C': {'y': 'C1', 'z': 'C2'}},
                    {'B1': 1, 'C1': 5, 'C2': -5})
    evaluations = {'B': 0, 'C': 1}
    seen = []

    def eval_fn(state):
        seen.append(game.node(state))
        return evaluations.get(game.node(state)) if not game.terminal_test(state) else \
            game.utility(state, 'MAX')
    assert alpha_beta_cutoff_search(game.initial, game, d=0, eval_fn=eval_fn) == 'b'
    assert seen == ['B', 'C']
    assert alpha_beta_cutoff_search(game.initial, game, d=1, eval_fn=eval_fn) == 'a'


def test_ties_go_to_the_first_move_in_actions_order():
    game = TreeGame({'A': {'p': 'P', 'q': 'Q', 'r': 'R'}}, {'P': 1, 'Q': 2, 'R': 2})
    assert alpha_beta_search(game.initial, game) == 'q' == minmax_decision(game.initial, game)


def test_mcts_finds_the_winning_take():
    random.seed(3)
    game = Nim(piles=(7,), misere=True, max_take=3)  # take 2, leaving 5 = 1 (mod 4)
    assert monte_carlo_tree_search(game.initial, game, N=500) == (1, 2)
    assert mcts_player(game, game.initial) in game.actions(game.initial)
