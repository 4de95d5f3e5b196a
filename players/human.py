"""A person at the keyboard as a player: AIMA's query_player, without eval, and the
friendlier human_player that the registry calls 'human'."""

from __future__ import annotations

import ast

from games import PlayerQuit
from games.stochastic import from_json

QUIT_WORDS = ('q', 'quit', 'exit')


def query_player(game, state):
    """Make a move by querying standard input, as aima-python does: print the
    state (game.display) and the legal moves, then ask until a legal move is
    typed. A move is read as a Python literal, such as (1, 2), with
    ast.literal_eval (never eval), else as the text typed. Where there is no
    legal move, say so and return None."""
    print('current state:')
    game.display(state)
    print('available moves: {}'.format(game.actions(state)))
    print('')
    move = None
    if game.actions(state):
        while True:
            move = literal_or_text(input('Your move? '))
            if is_among(move, game.actions(state)):
                break
            print('illegal move, try again')
    else:
        print('no legal moves: passing turn to next player')
    return move


def literal_or_text(text: str):
    """Return the Python literal text stands for, such as (1, 2) or 'a1', read with
    ast.literal_eval (never eval); else text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text


def is_among(move, actions) -> bool:
    """Is move one of actions? (False for a move that cannot be compared with them.)"""
    try:
        return move in actions
    except TypeError:  # an unhashable literal, such as a list, among a set of moves
        return False


def human_player(game, state, last_move=None):
    """A person at the keyboard, shown the board with the last move marked.
    This is the registry's 'human': it shows the board (game.show, last_move
    marked if given) and the legal moves as they are typed, and asks again after
    anything that is not a legal move. A move is
    typed as a Python literal that is a legal move, such as (1, 2), or in the
    game's own notation, such as '1 2'. Typing q, end of input or Ctrl-C leaves
    the game (raises PlayerQuit)."""
    game.show(state, last_move)
    actions = list(game.actions(state))
    print('available moves: ' + ', '.join(map(game.typed_move, actions)))
    while True:
        try:
            text = input('Your move? ').strip()
        except (EOFError, KeyboardInterrupt):
            print()
            raise PlayerQuit('the player left the game') from None
        if text.lower() in QUIT_WORDS:
            raise PlayerQuit('the player left the game')
        try:
            move = read_move(game, text, state, actions)
        except ValueError as error:
            example = game.typed_move(actions[0])
            print(f'Not understood: {error}. Type a move such as {example!r}, or q to quit.')
            continue
        if move in actions:
            return move
        print(f'{text!r} is not a legal move here. Legal moves: '
              + ', '.join(map(game.typed_move, actions)))


def read_move(game, text: str, state, actions: list):
    """Return the move a person typed: a Python literal that is a legal move, such
    as (1, 2) or 'a1', read with ast.literal_eval (never eval), else the game's
    own notation, game.parse_move (which raises ValueError if it cannot read it)."""
    literal = literal_or_text(text)
    literal = None if literal is text else from_json(literal)
    if literal is not None and is_among(literal, actions):
        return literal
    return game.parse_move(text, state)


def as_typed(move) -> str:
    """Return a move as a person would type it: (2, 3) as '2 3'; a sequence of
    steps, such as backgammon's ((24, 18), (13, 11)), as '24/18 13/11', and no
    steps at all as 'pass'."""
    if move == ():
        return 'pass'
    if isinstance(move, tuple) and all(isinstance(part, tuple) for part in move):
        return ' '.join('/'.join(map(str, part)) for part in move)
    return ' '.join(map(str, move)) if isinstance(move, tuple) else str(move)
