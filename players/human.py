"""A person at the keyboard as a player: AIMA's query_player, which evaluates what
is typed as aima-python's does, and the friendlier human_player that the registry
calls 'human', which never evaluates it."""

from __future__ import annotations

import ast

import games
from games.base import PlayerQuit
from games.stochastic import from_json

QUIT_WORDS = ('q', 'quit', 'exit')


def query_player(game, state):
    """Make a move by querying standard input, as aima-python does: print the
    state (game.display) and the legal moves, then ask until a legal move is
    typed. What is typed is evaluated as Python (see evaluated_move), so `(1, 2)`,
    `state.moves[0]` and `max(game.actions(state))` are moves. Where there is no
    legal move, say so and return None."""
    print('current state:')
    game.display(state)
    print('available moves: {}'.format(game.actions(state)))
    print('')
    move = None
    if game.actions(state):
        while True:
            move = evaluated_move(input('Your move? '), game, state, move)
            if move in game.actions(state):
                break
            print('illegal move, try again')
    else:
        print('no legal moves: passing turn to next player')
    return move


def evaluated_move(move_string: str, game, state, move=None):
    """Return what move_string evaluates to, as aima-python's query_player
    evaluates it: with eval, among the names of `from games import *` and game,
    state, move (the move typed before, or None) and move_string; a name it does
    not know gives move_string itself, and any other error is raised. It runs what
    it is given: the person at the keyboard runs the program."""
    scope = {'game': game, 'state': state, 'move': move, 'move_string': move_string}
    try:
        return eval(move_string, {name: getattr(games, name) for name in games.__all__}, scope)
    except NameError:
        return move_string


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
