"""OpenSpiel's games as games of this package: a spec such as
'openspiel:breakthrough(rows=6, columns=6)' names a game OpenSpiel registers and its
parameters, and pyspiel plays it by OpenSpiel's own rules.

Only OpenSpiel's two-player, sequential, deterministic games of perfect information
are taken. A state is plain data, the seat to move and OpenSpiel's actions played
from the start; the game keeps the pyspiel states of the histories it met lately,
so that result applies one action to a copy rather than replaying a whole game. A
move is the pair of an OpenSpiel action number and OpenSpiel's text for it where it
is legal, such as (89, 'a3'); people see and type the text."""

from __future__ import annotations

import contextlib
import os
import re
from typing import Any, Iterator, NamedTuple

from .base import Fixed, Game, IllegalMoveError
from .specs import coerce, parse_call

PREFIX = 'openspiel:'
"""What begins every spec of an OpenSpiel game."""
BRIDGED = ' (aima-games)'
"""What ends the long name of a game this project registered with OpenSpiel
(games.learning.to_openspiel), which is not one of OpenSpiel's own."""
INSTALL = "pip install -e '.[rl]'"
"""The command that installs pyspiel (the package open-spiel) with this project."""
KEPT = 4096
"""The most positions in each of the two generations a game keeps (see Positions)."""
SEATS = ('P0', 'P1')
"""The seats' names, by OpenSpiel's player numbers (in chess, Black is 0 and moves second)."""
OpenSpielMove = tuple[int, str]
"""A move: OpenSpiel's action number and its text (action_to_string) for the player
to move in the position where it is legal, such as (89, 'a3') in chess (where Black's
(89, 'a6') is the same number)."""


class OpenSpielState(NamedTuple):
    """A position: the seat to move and OpenSpiel's actions played from the start."""

    to_move: str
    history: tuple[int, ...]


def is_spec(spec: str) -> bool:
    """Whether spec names an OpenSpiel game ('openspiel:NAME(...)')."""
    return spec.strip().startswith(PREFIX)


def make(spec: str) -> OpenSpielGame:
    """Make the game of a spec 'openspiel:NAME' or 'openspiel:NAME(key=literal, ...)'.
    Raises ValueError, in one line, for a game OpenSpiel lacks or that is not
    two-player, sequential, deterministic and of perfect information, for
    parameters it does not take or refuses, and when pyspiel is not installed."""
    spec = spec.strip()
    call = spec[len(PREFIX):]
    try:
        name, keywords = parse_call(call, 'game')
    except ValueError as error:  # it quotes the call: quote the whole spec
        raise ValueError(str(error).replace(repr(call), repr(spec))) from None
    return OpenSpielGame(name, **(keywords or {}))


def accepted() -> list[str]:
    """Return the names of the OpenSpiel games that can be played here."""
    return sorted(kind.short_name for kind in _pyspiel().registered_games() if not _unfit(kind))


class OpenSpielGame(Game):
    """A game of OpenSpiel's, played by pyspiel: OpenSpielGame('breakthrough', rows=6)
    is the spec 'openspiel:breakthrough(rows=6)'. Seats are named P0 and P1 after
    OpenSpiel's players, the one that moves first first; a move is an action number
    with its text, such as (89, 'a3')."""

    name = 'openspiel'
    jail_imports = ('pyspiel',)

    def __init__(self, game_name: str, **parameters: Any) -> None:
        pyspiel = _pyspiel()
        kinds = {kind.short_name: kind for kind in pyspiel.registered_games()}
        if game_name not in kinds:
            raise ValueError(f'OpenSpiel has no game {game_name!r}; {_choices()}')
        reasons = _unfit(kinds[game_name])
        if reasons:
            raise ValueError(f"OpenSpiel's {game_name} has {' and '.join(reasons)}; "
                             f'{_choices()}')
        self.parameters = _checked(game_name, parameters, kinds[game_name].parameter_specification)
        self.name = PREFIX + game_name
        with _quiet():  # OpenSpiel writes its refusals and warnings on standard error
            try:
                spiel_game = pyspiel.load_game(game_name, self.parameters)
                start = spiel_game.new_initial_state()
            except pyspiel.SpielError as error:
                raise ValueError(f'OpenSpiel refuses {self!r}: {_one_line(error)}') from None
        if spiel_game.num_players() != 2:
            raise ValueError(f'{self!r} has {spiel_game.num_players()} players: only '
                             'two-player games are played here')
        self.positions = Positions(start)
        first = start.current_player()
        self.players = (SEATS[first], SEATS[1 - first])
        self.initial = OpenSpielState(SEATS[first], ())

    def params(self) -> dict[str, Any]:
        """OpenSpiel's parameters that differ from their defaults, by name."""
        return self.parameters

    def action_count(self) -> int:
        """OpenSpiel's number of distinct actions, the action numbers of moves."""
        return int(self.positions.start.get_game().num_distinct_actions())

    def action_number(self, move: OpenSpielMove) -> int:
        """The move's OpenSpiel action number."""
        return int(move[0])

    def observation(self, state: OpenSpielState, player: str) -> list[Any] | None:
        """OpenSpiel's observation tensor of state for player, nested in its shape (such
        as planes of rows of columns); None for a game that gives none."""
        spiel = self._spiel(state)
        game = spiel.get_game()
        if not game.get_type().provides_observation_tensor:
            return None
        return _nested(list(spiel.observation_tensor(SEATS.index(player))),
                       list(game.observation_tensor_shape()))

    def actions(self, state: OpenSpielState) -> list[OpenSpielMove]:
        """OpenSpiel's legal actions, each with its text there, in OpenSpiel's order."""
        return list(self.positions.at(state.history).moves)

    def result(self, state: OpenSpielState, move: OpenSpielMove) -> OpenSpielState:
        """The state after OpenSpiel applies the move's action to a copy of state's.
        Raises IllegalMoveError for a move that is not one of the legal pairs (a bare
        action number included: the pair with its number is in actions)."""
        moves = self.positions.at(state.history).moves
        try:
            action = moves[moves.index(move)][0]  # the game's own, 89 for 89.0
        except ValueError:  # not among them
            raise IllegalMoveError(f'illegal move {move!r} in {self!r}: a move is one of '
                                   f'actions(state), such as {_example(moves)}') from None
        history, child = self.positions.child(state.history, action)
        return OpenSpielState(self._seat(child.spiel, state.to_move), history)

    def terminal_test(self, state: OpenSpielState) -> bool:
        """OpenSpiel's is_terminal."""
        return bool(self._spiel(state).is_terminal())

    def utility(self, state: OpenSpielState, player: str) -> float:
        """The player's return, as OpenSpiel gives it (0 before the end in most games)."""
        return float(self._spiel(state).returns()[SEATS.index(player)])

    def board_text(self, state: OpenSpielState, last_move: Any = None) -> str:
        """OpenSpiel's text of the state, then the last move's text if one is given."""
        board = str(self._spiel(state)).rstrip('\n')
        if last_move is None or not state.history:
            return board
        return f'{board}\nlast move: {self._text(state.history[-1], state.history[:-1])}'

    def describe_state(self, state: OpenSpielState) -> str:
        """The seat to move and OpenSpiel's text of the state, its lines joined by '/'."""
        lines = str(self._spiel(state)).splitlines()
        return f'{state.to_move} ' + '/'.join(line.strip() for line in lines if line.strip())

    def state_json(self, state: OpenSpielState) -> dict[str, Any]:
        """The seat to move, the actions played from the start and OpenSpiel's text of
        the state."""
        return {'to_move': state.to_move, 'history': list(state.history),
                'board': str(self._spiel(state))}

    def typed_move(self, move: OpenSpielMove) -> str:
        """The move's text, OpenSpiel's where it is legal: 'a3' for (89, 'a3')."""
        return move[1]

    def describe_move(self, move: OpenSpielMove) -> str:
        """The move's text, as typed_move gives it."""
        return move[1]

    def parse_move(self, text: str, state: OpenSpielState) -> OpenSpielMove:
        """The legal move whose text is text (spaces and case aside), else the legal
        move of that action number. Raises ValueError for text that is neither."""
        moves = self.positions.at(state.history).moves
        wanted = _plain(text)
        named = [move for move in moves if _plain(move[1]) == wanted]
        if len(named) == 1:
            return named[0]
        if named:
            raise ValueError(f'{text!r} names the moves {named}: type the number of one')
        if re.fullmatch(r'\s*\d+\s*', text):
            numbered = [move for move in moves if move[0] == int(text)]
            if numbered:
                return numbered[0]
            raise ValueError(f'action {int(text)} is not legal here')
        raise ValueError(f"expected one of OpenSpiel's moves here or an action number, "
                         f'got {text!r}')

    def _text(self, move: int, history: tuple[int, ...]) -> str:
        """OpenSpiel's text for move played at the state of history."""
        before = self.positions.at(history).spiel
        return str(before.action_to_string(before.current_player(), move))

    def _spiel(self, state: OpenSpielState) -> Any:
        """The pyspiel state of a state (not to be changed)."""
        return self.positions.at(state.history).spiel

    def _seat(self, spiel_state: Any, mover: str) -> str:
        """The seat to move in a pyspiel state; at the end, the seat that did not make
        the last move (mover)."""
        player = spiel_state.current_player()
        return SEATS[player] if player >= 0 else SEATS[1 - SEATS.index(mover)]


class Position:
    """A pyspiel state, never changed, with its legal moves once asked for."""

    __slots__ = ('spiel', '_moves')

    def __init__(self, spiel: Any) -> None:
        self.spiel = spiel
        self._moves: list[OpenSpielMove] | None = None

    @property
    def moves(self) -> list[OpenSpielMove]:
        """OpenSpiel's legal actions, each with its text for the player to move (not
        to be changed)."""
        if self._moves is None:
            spiel = self.spiel
            player = spiel.current_player()
            self._moves = [(action, str(spiel.action_to_string(player, action)))
                           for action in spiel.legal_actions()]
        return self._moves


class Positions(Fixed):
    """The positions of the histories a game met lately, in two generations: the
    recent (at most KEPT) and the older, which a position found again rejoins; and
    the last one asked for or made, found by its history's identity without hashing
    it (a game's calls ask for one state several times in a row). Every copy of the
    game shares them."""

    def __init__(self, start: Any) -> None:
        self.start = start
        self.recent: dict[tuple[int, ...], Position] = {}
        self.older: dict[tuple[int, ...], Position] = {}
        self.last: tuple[tuple[int, ...], Position | None] = ((), None)

    def at(self, history: tuple[int, ...]) -> Position:
        """The position of history, made by replaying its moves from the nearest
        position kept before it if it is not kept. Raises IllegalMoveError for a
        history with a move that is not legal where it was played (a state that no
        game made)."""
        last_history, found = self.last
        if last_history is not history or found is None:
            found = self.recent.get(history)
            if found is None:
                found = self.older.get(history) or self._replayed(history)
                self.keep(history, found)
            self.last = (history, found)
        return found

    def child(self, history: tuple[int, ...], move: int) -> tuple[tuple[int, ...], Position]:
        """The history and the position after a legal move from history's, kept."""
        spiel = self.at(history).spiel.clone()
        spiel.apply_action(move)
        after, child = history + (move,), Position(spiel)
        self.keep(after, child)
        self.last = (after, child)
        return after, child

    def keep(self, history: tuple[int, ...], position: Position) -> None:
        """Keep position as a recent one; past KEPT, the recent become the older."""
        self.recent[history] = position
        if len(self.recent) > KEPT:
            self.older, self.recent = self.recent, {}

    def _replayed(self, history: tuple[int, ...]) -> Position:
        """The position of history, its moves replayed after the nearest kept before it."""
        cut = max(len(history) - 1, 0)
        while cut > 0 and history[:cut] not in self.recent and history[:cut] not in self.older:
            cut -= 1
        spiel = (self.at(history[:cut]).spiel if cut else self.start).clone()
        for move in history[cut:]:
            if move not in spiel.legal_actions():
                raise IllegalMoveError(f'illegal move {move!r} in the history {history}')
            spiel.apply_action(move)
        return Position(spiel)


def _pyspiel() -> Any:
    """Return the module pyspiel, imported when first needed. Raises ValueError,
    saying how to install it, where it is not installed."""
    try:
        import pyspiel
    except ImportError:
        raise ValueError(f"OpenSpiel's games need pyspiel, which is not installed: "
                         f'{INSTALL}') from None
    return pyspiel


def _unfit(kind: Any) -> list[str]:
    """Return what keeps a game of an OpenSpiel GameType from being played here, in
    words (none for a game that can be)."""
    pyspiel = _pyspiel()
    kinds = pyspiel.GameType
    reasons = []
    if kind.dynamics != kinds.Dynamics.SEQUENTIAL:
        reasons.append('simultaneous moves')
    if kind.chance_mode != kinds.ChanceMode.DETERMINISTIC:
        reasons.append('chance')
    if kind.information != kinds.Information.PERFECT_INFORMATION:
        reasons.append('imperfect information')
    if not kind.min_num_players <= 2 <= kind.max_num_players:
        reasons.append(f'{kind.min_num_players} to {kind.max_num_players} players')
    if not kind.default_loadable:
        reasons.append('its game loaded from a file or another game')
    if kind.long_name.endswith(BRIDGED):
        reasons.append('its game from this project (play that game itself)')
    return reasons


def _choices() -> str:
    """Return what games are accepted, as an error's end says it: how many, and where
    they are listed (the list itself would fill five lines)."""
    return f"{len(accepted())} of OpenSpiel's games play here (see docs/openspiel.md)"


def _checked(game_name: str, given: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Return the parameters given that differ from OpenSpiel's defaults, each of its
    default's type, sorted by name. Raises ValueError for a parameter the game does
    not take or a value of another type."""
    checked = {}
    for key, value in sorted(given.items()):
        if key not in defaults:
            raise ValueError(f'{PREFIX}{game_name} has no parameter {key!r}; its parameters: '
                             f'{", ".join(sorted(defaults)) or "none"}')
        value = coerce(value, type(defaults[key]), f'{PREFIX}{game_name}: {key}')
        if value != defaults[key]:
            checked[key] = value
    return checked


def _one_line(error: Exception) -> str:
    """Return an OpenSpiel error in one line, without the C++ file it was raised in."""
    text = re.sub(r'\S+\.(cc|h):\d+\s*', '', str(error))
    return '; '.join(line.strip() for line in text.splitlines() if line.strip())


def _nested(numbers: list[Any], shape: list[int]) -> list[Any]:
    """Return a flat list of numbers as nested lists of the given shape."""
    if len(shape) < 2:
        return numbers
    size = len(numbers) // shape[0]
    return [_nested(numbers[at:at + size], shape[1:]) for at in range(0, len(numbers), size)]


def _example(moves: list[OpenSpielMove]) -> str:
    """Return the first of moves as an example of a move, or say there are none."""
    return repr(moves[0]) if moves else 'none: the game is over'


def _plain(text: str) -> str:
    """Return text without spaces, in lower case: how typed moves are compared."""
    return ''.join(text.split()).lower()


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Within this, what is written on the process's standard error (file 2) is
    dropped: OpenSpiel writes there each refusal it also raises, and its warnings."""
    saved = os.dup(2)
    try:
        with open(os.devnull, 'w') as nowhere:
            os.dup2(nowhere.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)

