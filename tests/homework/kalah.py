"""Homework 5: Kalah, where a last seed in your own store gives you another move."""
from games import *


class Kalah(Game):
    """Kalah with 3 pits a side. Board: pits 0-2 are S's, 3 is S's store, 4-6 are
    N's, 7 is N's store. Sowing skips the opponent's store. A last seed in your own
    store: you move again. When a side is empty, each player keeps their own seeds."""

    def __init__(self, seeds=2):
        board = [seeds] * 3 + [0] + [seeds] * 3 + [0]
        self.initial = GameState(to_move='S', utility=0, board=board,
                                 moves=self.pits(board, 'S'))

    def pits(self, board, player):
        side = range(0, 3) if player == 'S' else range(4, 7)
        return [pit for pit in side if board[pit] > 0]

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        board = list(state.board)
        player = state.to_move
        store, skip = (3, 7) if player == 'S' else (7, 3)
        seeds, board[move], pit = board[move], 0, move
        while seeds:
            pit = (pit + 1) % 8
            if pit != skip:
                board[pit] += 1
                seeds -= 1
        other = 'N' if player == 'S' else 'S'
        to_move = player if pit == store else other
        moves = self.pits(board, to_move)
        utility = 0
        if not self.pits(board, 'S') or not self.pits(board, 'N'):
            board[3] += sum(board[0:3])
            board[7] += sum(board[4:7])
            board[0:3] = board[4:7] = [0, 0, 0]
            moves = []
            utility = (board[3] > board[7]) - (board[3] < board[7])
        return GameState(to_move=to_move, utility=utility, board=board, moves=moves)

    def utility(self, state, player):
        return state.utility if player == 'S' else -state.utility

    def terminal_test(self, state):
        return len(state.moves) == 0

    def display(self, state):
        b = state.board
        print('   ', b[6], b[5], b[4])
        print(b[7], '       ', b[3])
        print('   ', b[0], b[1], b[2], '  to move:', state.to_move)


def first_pit(game, state):
    move = game.actions(state)[0]
    print('first_pit sows pit', move, 'for', state.to_move)
    return move


def last_pit(game, state):
    move = game.actions(state)[-1]
    print('last_pit sows pit', move, 'for', state.to_move)
    return move


game = Kalah()
print(game.result(game.initial, 1).to_move, game.result(game.initial, 0).to_move)
print('first_pit against last_pit:', game.play_game(first_pit, last_pit))
print('you against first_pit:', game.play_game(query_player, first_pit))
