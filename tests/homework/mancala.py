"""Homework 3: Mancala (Kalah) with alpha-beta players, as the course slides build them."""
from games import *


def alphabeta_player_depth(d):
    return lambda game, state: alpha_beta_search(state, game, d=d)


ab1 = alphabeta_player_depth(1)
ab3 = alphabeta_player_depth(3)


class Mancala(Game):
    """Kalah with 3 pits a side. Board: pits 0-2 are MAX's, 3 is MAX's store,
    4-6 are MIN's, 7 is MIN's store. A move is the number of a pit."""

    def __init__(self, seeds=2):
        board = [seeds] * 3 + [0] + [seeds] * 3 + [0]
        self.initial = GameState(to_move='MAX', utility=0, board=board,
                                 moves=self.get_moves(board, 'MAX'))

    def get_moves(self, board, player):
        pits = range(0, 3) if player == 'MAX' else range(4, 7)
        return [pit for pit in pits if board[pit] > 0]

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        board = list(state.board)
        player = state.to_move
        seeds = board[move]
        board[move] = 0
        pit = move
        skip = 7 if player == 'MAX' else 3
        while seeds > 0:
            pit = (pit + 1) % 8
            if pit == skip:
                continue
            board[pit] += 1
            seeds -= 1
        other = 'MIN' if player == 'MAX' else 'MAX'
        next_player = other  # no extra turn in our rules
        moves = self.get_moves(board, next_player)
        if not moves:
            board[3] += sum(board[0:3])
            board[7] += sum(board[4:7])
            for i in list(range(0, 3)) + list(range(4, 7)):
                board[i] = 0
        utility = 0
        if not moves:
            utility = (board[3] > board[7]) - (board[3] < board[7])
        return GameState(to_move=next_player, utility=utility, board=board, moves=moves)

    def utility(self, state, player):
        return state.utility if player == 'MAX' else -state.utility

    def terminal_test(self, state):
        return len(state.moves) == 0

    def display(self, state):
        b = state.board
        print('    ', b[6], b[5], b[4])
        print(' ', b[7], '      ', b[3])
        print('    ', b[0], b[1], b[2])
        print('to move:', state.to_move)


game = Mancala()
print(alpha_beta_search(game.initial, game, d=2))
print(alphabeta_search(game.initial, game))
print(alpha_beta_search(game.initial, game, eval_fn=lambda s: s.board[3] - s.board[7]))
print('ab3 against ab1:', game.play_game(ab3, ab1))
print('you against ab1:', game.play_game(query_player, ab1))
