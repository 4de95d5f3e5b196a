"""The Game base class, as in AIMA chapter 5, with the errors the referee raises."""

from __future__ import annotations

import ast

import contextlib
import io
import json
from typing import Any, Callable, Hashable, Sequence

from .discs import Discs, board_line

State = Any
"""A state of a game: each game has its own kind (a namedtuple in this package's
games), and a student's game may hand back anything, so the Game class takes any
(as it takes any move and any player: a subclass names its own kinds)."""
Move = Hashable
Player = Callable[['Game', Any], Move]


class IllegalMoveError(ValueError):
    """A move that is not among the actions of the state it was played in."""


class PlayerQuit(Exception):
    """Raised by an interactive player who leaves the game."""


class Fixed:
    """A value that never changes once built, such as a board's tables or a game's
    rules: every copy of a game or a state shares it (copy.deepcopy gives back the
    same object, as it does for a tuple of numbers), so a referee's private copies
    cost no time."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> 'Fixed':
        return self


class Game:
    """A game is similar to a problem, but it has a utility for each
    state and a terminal test instead of a path cost and a goal
    test. To create a game, subclass this class and implement actions,
    result, utility, and terminal_test. You may override the methods that
    show a state (board_text, drawing, describe_state, state_json), read a
    move (parse_move, typed_move), estimate a state (evaluate) or key it in a
    search's tables (table_key), or inherit their defaults, which work for
    any game. You will also need to set the .initial attribute to the
    initial state; this can be done in the constructor."""

    #: The short name used in variant specs, such as 'nim'.
    name = 'game'
    #: The names of the seats in the order they first move, such as ('X', 'O').
    players: tuple[str, ...] = ()
    #: The state the game starts in, set by each game's constructor.
    initial: Any
    #: The installed modules the game's own code imports beyond the standard library,
    #: such as ('pyspiel',): the jails that make the game are given them, and only they.
    jail_imports: tuple[str, ...] = ()
    #: The spec that makes a game loaded from a file again, what its repr gives.
    _made_from: str

    def actions(self, state: State) -> Sequence[Move]:
        """Return a list of the allowable moves at this point."""
        raise NotImplementedError

    def result(self, state: State, move: Any) -> State:
        """Return the state that results from making a move from a state."""
        raise NotImplementedError

    def utility(self, state: State, player: Any) -> float:
        """Return the value of this final state to player."""
        raise NotImplementedError

    def terminal_test(self, state: State) -> bool:
        """Return True if this is a final state for the game."""
        return not self.actions(state)

    def to_move(self, state: State) -> Any:
        """Return the player whose move it is in this state."""
        return state.to_move

    def evaluate(self, state: State, player: Any) -> float:
        """Estimate the value of a non-final state to player, strictly between
        the game's loss and win utilities; 0 means unknown."""
        return 0

    def table_key(self, state: State) -> Hashable | None:
        """Return what a search's tables keep state under: states with the same key
        must have the same value for the same player to move (a game may give a
        smaller key, or one that symmetric states share). Here the state itself;
        None, or a key that cannot be hashed, keeps the state out of the tables."""
        key: Hashable | None = state
        return key

    def describe_state(self, state: State) -> str:
        """Return a one-line text for a state in messages, such as 'P1:1,2' for
        piles, or 'XO./...' for a board's rows: here a board of a tuple of counts
        after the player to move, a Discs board's rows (top row first), else the
        state's repr."""
        board = getattr(state, 'board', None)
        if isinstance(board, tuple):
            return f'{state.to_move}:{",".join(map(str, board))}'
        if isinstance(board, Discs):
            return board_line(board, board.h, board.v)
        return repr(state)

    def display(self, state: State) -> None:
        """Print or otherwise display the state: print(state), as in AIMA, or the
        board and who is to move where the game draws its board (board_text)."""
        if type(self).board_text is Game.board_text:
            print(state)
        else:
            self.show(state)

    def show(self, state: State, last_move: Any = None) -> None:
        """Print the state for a person at the keyboard: the board, with last_move
        marked, and who is to move unless the game is over; or, for a game whose
        own display(state) is nearer than its board_text (as in a game written for
        aima-python), what display prints."""
        if _displays_itself(type(self)):
            self.display(state)
            return
        print(self.board_text(state, last_move))
        if not self.terminal_test(state):
            print(f'{self.to_move(state)} to move')

    def board_text(self, state: State, last_move: Any = None) -> str:
        """Return the state's board as text for a terminal, with last_move marked
        where the game can show it: here what the game's own display(state) prints,
        if it has one, else the state's board (or the state)."""
        if type(self).display is not Game.display:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                self.display(state)
            return printed.getvalue().rstrip('\n')
        return str(state.board if hasattr(state, 'board') else state)

    def drawing(self, state: State, last_move: Any = None) -> dict[str, Any]:
        """Return what the HTML report needs to draw the state, as JSON-friendly data:
        {'kind': 'text', 'text': board_text} here. A game with a board of squares
        may give {'kind': 'grid', 'columns': h, 'rows': v, 'cells': [one string a
        row, top row first, a letter a piece, '.' for an empty square], 'marks':
        [[x, y] of the squares to mark], 'style': 'xo'} (see TicTacToe.drawing);
        the report draws X and O as crosses and rings, B and W as stones and any
        other letter as itself. Other kinds: 'piles', 'hex', 'kalah'."""
        return {'kind': 'text', 'text': self.board_text(state, last_move)}

    def state_json(self, state: State) -> dict[str, Any]:
        """Return the state as a JSON object, the STATE a program playing the game is
        sent (players.remote.program): here the player to move and the state's board as
        plain data (or as text, where it is not); each game gives its own picture."""
        return {'to_move': _json_or_text(self.to_move(state)),
                'board': _json_or_text(getattr(state, 'board', state))}

    def parse_move(self, text: str, state: State) -> Move:
        """Turn what a person typed, such as '2 3' or a Python literal such as
        ((2, 0), (0, 0)), into a move, or raise ValueError."""
        try:
            numbers = tuple(int(word) for word in text.replace(',', ' ').split())
        except ValueError:
            try:
                move: Move = ast.literal_eval(text.strip())
                return move
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                raise ValueError(f'expected whole numbers or a Python literal, '
                                 f'got {text!r}') from None
        if not numbers:
            raise ValueError('expected a move')
        return numbers[0] if len(numbers) == 1 else numbers

    def describe_move(self, move: Any) -> str:
        """Return a short text for a move, as shown to a person."""
        return self.typed_move(move)

    def typed_move(self, move: Any) -> str:
        """Return a move as a person types it for parse_move: (2, 3) as '2 3'; a
        tuple of other things as the Python literal, such as ((2, 0), (0, 0))."""
        if isinstance(move, tuple) and all(type(part) is int for part in move):
            return ' '.join(map(str, move))
        return repr(move) if isinstance(move, tuple) else str(move)

    def check_move(self, state: State, move: Any) -> None:
        """Raise IllegalMoveError unless move is one of the actions of state."""
        legal = self.actions(state)
        if move not in legal:
            raise IllegalMoveError(f'illegal move {move!r}; legal moves are {list(legal)}')

    def action_count(self) -> int | None:
        """Return how many action numbers the game's moves have (see action_number), for a
        learning agent's fixed set of actions; None where the game numbers no moves of its
        own (a learning environment then numbers the moves of its reachable positions)."""
        return None

    def action_number(self, move: Any) -> int | tuple[int, ...]:
        """Return the number of a move, from 0 to action_count() - 1: a move has the same
        number in every state, and no two legal moves of a state share one. A move made
        in steps (a backgammon move's checker steps) is the tuple of its steps' numbers,
        and no legal move's steps begin another's."""
        raise NotImplementedError

    def observation(self, state: State, player: Any) -> Sequence[Any] | None:
        """Return what a learning agent playing player sees of state, as nested lists
        of numbers of the same shape in every state: a board as planes from player's
        view ([row][column] of [player's piece, the opponent's piece]), piles as
        counts. A memoryview of bytes, 0s and 1s, of that shape (as Discs.planes
        gives) is read faster. None where the game has none of its own."""
        return None

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game, by name."""
        return {}

    def __repr__(self) -> str:
        if '_made_from' in vars(self):  # a game from a file: its spec
            return self._made_from
        if 'name' not in vars(type(self)):  # a subclass of a user's, as AIMA shows it
            return f'<{type(self).__name__}>'
        args = ', '.join(f'{key}={value!r}' for key, value in self.params().items())
        return f'{self.name}({args})' if args else self.name

    def play_game(self, *players: Player) -> float:
        """Play an n-person, move-alternating game, as AIMA does: the players move in
        turn, one move each, whatever to_move says (one player makes every move), and
        each move goes to result unchecked. Show the final state and return its
        utility to the player to move first. Raise ValueError without players."""
        return take_turns(self, players, lambda state: state)


def _displays_itself(game_class: type) -> bool:
    """Does game_class have a display(state) of its own (not Game's), nearer in its
    method order than board_text?"""
    for klass in game_class.__mro__:
        if 'board_text' in vars(klass):
            return False
        if vars(klass).get('display', Game.display) is not Game.display:
            return True
    return False


def _json_or_text(value: Any) -> Any:
    """Return value as JSON data (tuples become lists), or as text where it is not plain data."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return str(value)


def take_turns(game: Game, players: Sequence[Player],
               settle: Callable[[State], State]) -> float:
    """Play game from its initial state as AIMA's play_game does: each player in
    turn is given settle(state) (a game of chance rolls its dice there) and its move
    is made, until a move ends the game; display the final state and return its
    utility to the player to move first. Raise ValueError without players (AIMA's
    would wait forever)."""
    if not players:
        raise ValueError('play_game needs at least one player')
    state = game.initial
    while True:
        for player in players:
            state = settle(state)
            state = game.result(state, player(game, state))
            if game.terminal_test(state):
                game.display(state)
                return game.utility(state, game.to_move(game.initial))


def play_game(game: Game, *players: Player) -> float:
    """Play a game between players and return the first player's utility
    (the module-level form used by older versions of aima-python)."""
    return game.play_game(*players)
