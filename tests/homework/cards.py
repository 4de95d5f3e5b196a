"""Homework 6: High Card. Each player holds cards; MAX leads a card, MIN answers,
and the higher rank takes the trick. Whoever takes more tricks wins."""
from games import *

RANKS = '23456789TJQKA'


def rank(card):
    return RANKS.index(card[0])


class HighCard(Game):

    def __init__(self, max_hand, min_hand):
        board = {'hands': {'MAX': list(max_hand), 'MIN': list(min_hand)},
                 'led': None, 'tricks': {'MAX': 0, 'MIN': 0}}
        self.initial = GameState(to_move='MAX', utility=0, board=board, moves=sorted(max_hand))

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        board = {'hands': {player: list(hand) for player, hand in state.board['hands'].items()},
                 'led': state.board['led'], 'tricks': dict(state.board['tricks'])}
        player = state.to_move
        board['hands'][player].remove(move)
        if board['led'] is None:
            board['led'] = move
        else:
            winner = 'MIN' if rank(move) > rank(board['led']) else 'MAX'
            board['tricks'][winner] += 1
            board['led'] = None
        other = 'MIN' if player == 'MAX' else 'MAX'
        moves = sorted(board['hands'][other])
        utility = 0
        if not moves:
            utility = (board['tricks']['MAX'] > board['tricks']['MIN']) * 2 - 1
        return GameState(to_move=other, utility=utility, board=board, moves=moves)

    def utility(self, state, player):
        return state.utility if player == 'MAX' else -state.utility

    def terminal_test(self, state):
        return not state.moves

    def display(self, state):
        print('led:', state.board['led'], ' tricks:', state.board['tricks'])
        print('your hand:', ' '.join(state.moves))


def lowest_winner(game, state):
    """Take the trick as cheaply as we can, else throw our lowest card."""
    led = state.board['led']
    winners = [card for card in state.moves if led is not None and rank(card) > rank(led)]
    return min(winners or state.moves, key=rank)


game = HighCard(['QS', '7H', '2C'], ['KD', '9C', '5S'])
print(game.actions(game.initial))
print('you against lowest_winner:', game.play_game(query_player, lowest_winner))
print('and again:', game.play_game(query_player, lowest_winner))
