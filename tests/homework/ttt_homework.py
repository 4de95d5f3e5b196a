import random

from games import *


class MyTicTacToe(TicTacToe):
    """Tic-tac-toe that counts the moves made and shows the board with a title."""

    def __init__(self, h=3, v=3, k=3):
        TicTacToe.__init__(self, h, v, k)
        self.moves_made = 0

    def result(self, state, move):
        self.moves_made += 1
        return TicTacToe.result(self, state, move)

    def display(self, state):
        print('=== tic-tac-toe ===')
        TicTacToe.display(self, state)


def gen_state(to_move='X', x_positions=[], o_positions=[], h=3, v=3):
    moves = set([(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]) - set(x_positions) - set(o_positions)
    moves = list(moves)
    moves.sort()
    board = {}
    for pos in x_positions:
        board[pos] = 'X'
    for pos in o_positions:
        board[pos] = 'O'
    return GameState(to_move=to_move, utility=0, board=board, moves=moves)


ttt = MyTicTacToe()
print(ttt)
print(ttt.initial)
state = gen_state(to_move='X', x_positions=[(1, 1), (3, 3)], o_positions=[(1, 2), (3, 2)])
ttt.display(state)
print(alpha_beta_search(state, ttt))
print(alpha_beta_cutoff_search(state, ttt, d=1))
print(minmax_decision(state, ttt))
print(ttt.result(state, (2, 2)))
random.seed(42)
print(ttt.play_game(random_player, alpha_beta_player))
print(ttt.moves_made > 0)
ttt.initial = state
print(ttt.play_game(query_player, random_player))
