"""A person at the keyboard as a player: AIMA's query_player, without eval."""

from __future__ import annotations

import ast

from games import PlayerQuit
from games.stochastic import from_json

QUIT_WORDS = ('q', 'quit', 'exit')


def query_player(game, state, last_move=None):
    """A person choosing each move at the keyboard.
    Make a move by querying standard input: show the board and the legal
    moves, and ask again after anything that is not a legal move. Typing q,
    end of input or Ctrl-C leaves the game (raises PlayerQuit). (Not in AIMA:
    last_move, if given, is marked on the board.)"""
    print('current state:')
    game.display(state, last_move)
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
    try:
        literal = from_json(ast.literal_eval(text))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        literal = None
    try:
        if literal is not None and literal in actions:
            return literal
    except TypeError:  # an unhashable literal, such as a dict
        pass
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
