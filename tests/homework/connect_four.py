"""Homework 4: a heuristic for Connect Four, and the book's small games."""
from games import *


def middle_heuristic(game, state, player):
    """Pieces in the middle columns count double; a won state counts 100."""
    if game.terminal_test(state):
        return 100 * game.utility(state, player)
    score = 0
    for (x, y), piece in state.board.items():
        weight = 2 if y in (3, 4) else 1
        score += weight if piece == player else -weight
    return score


def heuristic_player(game, state):
    player = state.to_move
    return alpha_beta_cutoff_search(state, game, d=1,
                                    eval_fn=lambda s: middle_heuristic(game, s, player))


fig = Fig52Game()
print(Fig52Game.initial, fig, fig.actions(Fig52Game.initial))
print(minmax_decision(Fig52Game.initial, fig), fig.result('A', 'a3'), fig.to_move('D'))
ext = Fig52Extended()
ext.utils = {leaf: (leaf * 7) % 11 for leaf in range(13, 40)}
print(ext.actions(0), ext.result(0, 'r'), alpha_beta_search(0, ext), ext.to_move(13))

ttt = TicTacToe()
print(ttt, ttt.initial.moves[:4])
state = ttt.result(ttt.initial, (2, 2))
print(ttt.result(state, (2, 2)) is state, state.board)

gomoku = Gomoku()
print(gomoku, len(gomoku.actions(gomoku.initial)), gomoku.actions(gomoku.initial)[:3])

game = ConnectFour()
print(game, game.actions(game.initial))
state = game.result(game.initial, (7, 4))
print(game.actions(state))
print(heuristic_player(game, state))
game.display(state)
print('heuristic against itself:', game.play_game(heuristic_player, heuristic_player))
print('your move:', query_player(game, state))

dice = Backgammon()
rolled = dice.outcome(dice.initial, (6, 5))
print(dice, rolled.chance, dice.actions(rolled)[:4])
moved = dice.result(rolled, (12, 7))
dice.display(moved)
