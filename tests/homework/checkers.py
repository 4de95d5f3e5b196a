"""Homework 2: checkers on a small board, with alpha-beta and a greedy player of our own."""
from games import *

Jump = namedtuple('Jump', 'start, over, end')


class Checkers(Game):
    """Checkers on an n x n board, rows 0 to n-1. 'x' (MAX) starts on row 0 and moves
    down, 'o' (MIN) starts on row n-1 and moves up. A move is (start, end); a jump
    over an opponent's piece takes it. Reaching the far row wins, and so does
    leaving the opponent without a move."""

    def __init__(self, n=4):
        self.n = n
        board = [['.'] * n for _ in range(n)]
        for col in range(n):
            if col % 2 == 1:
                board[0][col] = 'x'
            else:
                board[n - 1][col] = 'o'
        self.initial = GameState(to_move='x', utility=0, board=board,
                                 moves=self.find_moves(board, 'x'))

    def forward(self, player):
        return [(1, -1), (1, 1)] if player == 'x' else [(-1, -1), (-1, 1)]

    def on_board(self, square):
        return 0 <= square[0] < self.n and 0 <= square[1] < self.n

    def jumps(self, board, player):
        found = []
        for row, col in itertools.product(range(self.n), repeat=2):
            if board[row][col] != player:
                continue
            for step in self.forward(player):
                over = vector_add((row, col), step)
                end = vector_add(over, step)
                if (self.on_board(end) and board[over[0]][over[1]] not in ('.', player)
                        and board[end[0]][end[1]] == '.'):
                    found.append(Jump((row, col), over, end))
        return found

    def find_moves(self, board, player):
        moves = [(jump.start, jump.end) for jump in self.jumps(board, player)]
        for row, col in itertools.product(range(self.n), repeat=2):
            if board[row][col] == player:
                for step in self.forward(player):
                    end = vector_add((row, col), step)
                    if self.on_board(end) and board[end[0]][end[1]] == '.':
                        moves.append(((row, col), end))
        return moves

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        board = copy.deepcopy(state.board)
        (row, col), (row2, col2) = move
        board[row][col] = '.'
        board[row2][col2] = state.to_move
        if abs(row2 - row) == 2:
            board[(row + row2) // 2][(col + col2) // 2] = '.'
        other = 'o' if state.to_move == 'x' else 'x'
        moves = self.find_moves(board, other)
        far_row = self.n - 1 if state.to_move == 'x' else 0
        utility = 0
        if row2 == far_row or not moves:
            utility = 1 if state.to_move == 'x' else -1
        return GameState(to_move=other, utility=utility, board=board, moves=moves)

    def utility(self, state, player):
        return state.utility if player == 'x' else -state.utility

    def terminal_test(self, state):
        return state.utility != 0

    def display(self, state):
        for row in state.board:
            print(' '.join(row))
        print('to move:', state.to_move)


def greedy_player(game, state):
    """Take a piece if we can, else the move that goes furthest."""
    best_score, best_move = -np.inf, None
    for move in game.actions(state):
        score = abs(move[1][0] - move[0][0]) * 10 + move[1][1]
        if score > best_score:
            best_score, best_move = score, move
    return best_move


game = Checkers()
game.display(game.initial)
print(game.actions(game.initial))
print(alpha_beta_search(game.initial, game))
state = game.result(game.initial, ((0, 1), (1, 2)))
print(state.board, game.initial.board[1])
print(np.sign(-3), vector_add((1, 2), (3, 4)))
random.seed(11)
print('random against greedy:', game.play_game(random_player, greedy_player))
print('you against alpha-beta:', game.play_game(query_player, alpha_beta_player))
