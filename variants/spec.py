"""Game specs such as 'nim(piles=(1, 3, 5, 7), misere=True)': parsed with ast, never eval."""

from __future__ import annotations

from games import (Backgammon, Breakthrough, ConnectFour, DiceNim, Fig52Game, Game, Gomoku,
                   GrundysGame, Hex, Kalah, Nim, Othello, TicTacToe)
from games.specs import bind, parse_call

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in
                                (Nim, GrundysGame, TicTacToe, ConnectFour, Gomoku, Fig52Game,
                                 DiceNim, Backgammon, Othello, Kalah, Hex, Breakthrough)}
"""Game classes by the name a spec calls them."""

ALIASES = {'split': 'grundy', 'grundys': 'grundy', 'ttt': 'tictactoe', 'connectfour': 'connect4',
           'fiveinarow': 'gomoku', 'reversi': 'othello', 'mancala': 'kalah'}


def parse(spec: str) -> Game:
    """Make the game a spec describes: 'GAME' or 'GAME(key=literal, ...)'.
    Raises ValueError naming what is wrong."""
    called, keywords = parse_call(spec, 'game')
    name = ALIASES.get(called.lower(), called.lower())
    if name not in GAMES:
        raise ValueError(f'unknown game {called!r} in {spec!r}; games: {", ".join(GAMES)}')
    cls = GAMES[name]
    kwargs = bind(cls, keywords or {}, name)
    try:
        return cls(**kwargs)
    except ValueError as error:
        raise ValueError(f'{cls.name}: {error}') from None
