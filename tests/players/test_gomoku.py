"""Gomoku for the engine: the kept-up evaluation equals the game's, and abN's move is
the textbook's wherever every empty square is near a stone."""

import random

import pytest

from games.grid import Gomoku
from players import PLAYER, alpha_beta_cutoff_search
from players.search.gomoku_positions import GomokuPositions
from players.search.shared import clear_tables


def random_position(game, stones, seed):
    """The state after stones random moves (None if the game ends first)."""
    rng, state = random.Random(seed), game.initial
    for _ in range(stones):
        state = game.result(state, rng.choice(game.actions(state)))
        if game.terminal_test(state):
            return None
    return state


@pytest.mark.parametrize('seed', range(5))
def test_kept_up_score_is_the_games_evaluation(seed):
    game = Gomoku(9, 9, 5)
    state = random_position(game, 12, seed)
    rules = GomokuPositions(game, state.to_move)
    pos = rules.encode(state)
    assert rules.evaluate(pos, 1) == pytest.approx(game.evaluate(state, state.to_move))
    for child in rules.children(pos, 1)[:10]:
        stones = child[0] | child[1]
        [square] = [sq for sq, i in rules.shape.index.items()
                    if stones >> i & 1 and sq not in state.board]
        after = game.result(state, square)
        assert rules.evaluate(child, -1) == pytest.approx(game.evaluate(after, after.to_move))
        assert bool(child[4]) == game.terminal_test(after)


@pytest.mark.parametrize('depth', [1, 2, 3])
def test_ab_n_is_the_textbook_where_every_square_is_near(depth):
    """On 5 x 5 with a stone in the middle every square is within two of it, so the
    moves near the stones are all the moves."""
    game = Gomoku(5, 5, 4)
    state = game.result(game.initial, (3, 3))
    player = state.to_move

    def score(s):
        return game.utility(s, player) if game.terminal_test(s) else game.evaluate(s, player)
    clear_tables()
    assert PLAYER[f'ab{depth}'](game, state) == alpha_beta_cutoff_search(
        state, game, d=depth - 1, eval_fn=score)


def test_actions_put_the_squares_near_the_stones_first():
    game = Gomoku(15, 15, 5)
    assert game.actions(game.initial)[0] == (8, 8)
    state = game.result(game.initial, (1, 1))
    near = game.actions(state)[:8]
    assert set(near) == {(x, y) for x in (1, 2, 3) for y in (1, 2, 3)} - {(1, 1)}
    assert len(game.actions(state)) == 224


def test_ab2_wins_at_once_and_sees_a_lost_position():
    game = Gomoku(15, 15, 5)
    state = game.initial
    for move in ((8, 8), (1, 1), (8, 9), (1, 2), (10, 10), (1, 3), (12, 12), (1, 4), (14, 14)):
        state = game.result(state, move)
    assert PLAYER['ab2'](game, state) == (1, 5)
    state = game.initial
    for move in ((8, 8), (1, 1), (8, 9), (1, 3), (8, 10), (15, 15), (8, 11)):
        state = game.result(state, move)  # X's open four: every move of O's loses
    assert PLAYER['ab2'](game, state) == game.actions(state)[0]
    assert PLAYER['ab1'](game, state) in ((8, 7), (8, 12))  # one ply: blocking looks best
