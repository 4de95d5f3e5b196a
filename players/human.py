"""A person at the keyboard as a player: AIMA's query_player, without eval."""

from __future__ import annotations

from games import PlayerQuit

QUIT_WORDS = ('q', 'quit', 'exit')


def query_player(game, state):
    """A person choosing each move at the keyboard.
    Make a move by querying standard input: show the board and the legal
    moves, and ask again after anything that is not a legal move. Typing q,
    end of input or Ctrl-C leaves the game (raises PlayerQuit)."""
    print('current state:')
    game.display(state)
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
            move = game.parse_move(text, state)
        except ValueError as error:
            example = game.typed_move(actions[0])
            print(f'Not understood: {error}. Type a move such as {example!r}, or q to quit.')
            continue
        if move in actions:
            return move
        print(f'{text!r} is not a legal move here. Legal moves: '
              + ', '.join(map(game.typed_move, actions)))


def as_typed(move) -> str:
    """Return a move as a person would type it: (2, 3) as '2 3'."""
    return ' '.join(map(str, move)) if isinstance(move, tuple) else str(move)
