"""Replaying a stored game: its positions from the start, each stored move checked
against the rules, and the game told move by move with its boards."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator

from games.base import Game
from games.referee import CANNOT_LOAD, NORMAL, seats_of
from games.stochastic import from_json, is_chance_node
from players.tournaments.record import GameRecord
from .player_text import for_terminal
from .text_report import plural, wrapped

PLAYER_TEXTS = ('first', 'second', 'first_spec', 'second_spec', 'forfeit', 'detail',
                'stderr_first', 'stderr_second')
"""The fields of a record that its players wrote: their names (a file's name) and
specs, what went wrong, and what they wrote during the game (a Python player's
standard output and error, a program's standard error)."""


@dataclass(frozen=True)
class Ply:
    """One move of a replayed game and the position it led to."""

    number: int
    """The move's number, from 1."""
    player: str
    """The name of the player whose seat made it."""
    opening: bool
    """True for a random move of the opening, made for the player."""
    seat: Any
    """The game's name of the seat that made it, such as 'X'."""
    move: Any
    """The move, as the game has it."""
    state: Any
    """The state after the move."""


def replay(game: Game, record: GameRecord) -> list[Ply]:
    """Return the plies of a record's game from the start, opening included.
    Raises ValueError if a stored move is not legal where it was played (a record
    that does not belong to this game)."""
    seats = seats_of(game)
    names = dict(zip(seats, record.names))
    state, plies = game.initial, []
    rolls = iter(from_json(roll) for roll in record.rolls)
    for number, stored in enumerate(record.moves, 1):
        move = from_json(stored)
        while is_chance_node(game, state):
            state = game.outcome(state, next(rolls))
        if game.terminal_test(state) or move not in list(game.actions(state)):
            raise ValueError(f'game {record.index}: move {number}, {stored!r}, is not legal '
                             f'in {game!r}; the record does not belong to this game')
        seat = game.to_move(state)
        state = game.result(state, move)
        plies.append(Ply(number, names[seat], number <= record.opening, seat, move, state))
    return plies


def outcome(record: GameRecord) -> str:
    """Return how a record's game ended, in words: 'alice wins: bob forfeits (error: ...)',
    or 'alice wins: bob cannot play, so no move was played (SyntaxError: ...)'."""
    first, second, score = record.first, record.second, record.score
    result = (f'{first} wins' if score == 1 else f'{second} wins' if score == 0 else 'draw')
    if record.termination == CANNOT_LOAD:
        return f'{result}: {record.forfeit} cannot play, so no move was played ' \
               f'({record.detail})'
    if record.forfeit is not None:
        return f'{result}: {record.forfeit} forfeits ({record.termination}: {record.detail})'
    if record.termination != NORMAL:
        return f'{result} ({record.termination}: {record.detail})'
    return result


def score_text(score: float) -> str:
    """Return the first player's score as a result: '1-0', '0-1' or '½-½'."""
    return '1-0' if score == 1 else '0-1' if score == 0 else '½-½'


def headline(game: Game, record: GameRecord) -> str:
    """Return the lines that introduce a stored game: its number, variant, players
    (with their specs where they differ from the names), seed, opening and result."""
    seats = seats_of(game)
    players = []
    for seat, name, spec in zip(seats, record.names, (record.first_spec, record.second_spec)):
        players.append(f'{name} ({seat})' + (f' = {spec}' if spec and spec != name else ''))
    return told(f'Game {record.index}: {record.variant}, {players[0]} against {players[1]}',
                f'Seed {record.seed} (pair {record.pair}, game {record.leg + 1} of 2), '
                f'{plural(record.opening, "opening ply")}, {plural(record.plies, "ply")} in all',
                f'Result: {score_text(record.score)}, {outcome(record)}')


def told(*lines: str) -> str:
    """Return lines of text as replay prints them, each wrapped within WIDTH columns."""
    return '\n'.join(part for line in lines for part in wrapped(line))


def shown(record: GameRecord) -> GameRecord:
    """Return a record as a terminal should show it: the texts of its PLAYER_TEXTS
    with their control characters escaped (see player_text.for_terminal), the lines
    of what the players wrote kept."""
    texts: dict[str, Any] = {name: for_terminal(text, lines=name.startswith('stderr'))
                             for name in PLAYER_TEXTS if (text := getattr(record, name))}
    return replace(record, **texts)


def lines(game: Game, record: GameRecord) -> Iterator[str]:
    """Generate a stored game told move by move, as a terminal should show it (see
    shown): its headline, the start, and each move with the board after it (the move
    marked), then the result and what each player wrote, its lines kept and
    escaped (see shown)."""
    record = shown(record)
    yield headline(game, record)
    yield f'\nStart\n{game.board_text(game.initial)}'
    for ply in replay(game, record):
        typed, described = game.typed_move(ply.move), game.describe_move(ply.move)
        about = typed if described == typed else f'{typed} ({described})'
        who = f'opening for {ply.player}' if ply.opening else ply.player
        yield f'\n{told(f"{ply.number}. {who} ({ply.seat}): {about}")}\n' \
              f'{game.board_text(ply.state, ply.move)}'
    yield f'\n{told(outcome(record) + ".")}'
    for name, errors in zip(record.names, (record.stderr_first, record.stderr_second)):
        if errors:
            yield '\n' + told(f"{name}'s output:", *errors.rstrip().splitlines())
