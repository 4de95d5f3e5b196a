"""What a student's Game class said at a position, as its jail answered (see
jailed.rules), read as plain data of the right shape or not at all; and how the
grader's messages show what each side said."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from games.stochastic import from_json
from players.remote.plain_json import canonical

from .jailed.rules import TEXT_LIMIT, goes_on

SHOWN = 8
"""The most moves a message lists."""


@dataclass(frozen=True)
class Said:
    """What the student's class said at one position: whatever the jail sent, read
    as plain data of the right shape or not at all."""

    answer: dict

    def error(self, method: str) -> str | None:
        """Why method failed here, if it did."""
        errors = self.answer.get('errors')
        error = errors.get(method) if isinstance(errors, dict) else None
        return None if error is None else str(error)[:500]

    @property
    def reached(self) -> bool:
        """Could the moves to this position be made on the student's class? Then its
        answer says who is to move, or why to_move failed."""
        return not self.answer.get('unreached') and (
            'to_move' in self.answer or self.error('to_move') is not None)

    @property
    def again(self) -> Said:
        """What the class said when asked again, where it said something else."""
        again = self.answer.get('again')
        return Said(again if isinstance(again, dict) else {})

    @property
    def to_move(self) -> str | None:
        """The player to move, as its state_key text (which the jail cuts at TEXT_LIMIT)."""
        label = self.answer.get('to_move')
        return label if isinstance(label, str) and len(label) <= TEXT_LIMIT else None

    @property
    def terminal(self) -> bool | None:
        """Is the game over?"""
        terminal = self.answer.get('terminal')
        return terminal if isinstance(terminal, bool) else None

    @property
    def goes_on(self) -> bool:
        """Did terminal_test say, both times, that the game goes on? Then utility was not
        asked here."""
        return goes_on(self.answer)

    @property
    def actions(self) -> set[str]:
        """The canonical texts of the moves."""
        moves = self.answer.get('actions')
        return {canonical(move) for move in moves} if isinstance(moves, list) else set()

    @property
    def utilities(self) -> dict:
        """Each player's utility, by the player's text."""
        pairs = self.answer.get('utilities')
        return {pair[0]: pair[1] for pair in pairs if isinstance(pair, list) and len(pair) == 2
                and isinstance(pair[0], str)} if isinstance(pairs, list) else {}


def method_fault(method: str, said: Said) -> str | None:
    """Why method failed at a position reached, whatever the reference says there: it
    raised or hung, said nothing the grader can read, or said something else when
    asked again."""
    if said.error(method):
        return f'{method} {said.error(method)}'
    key, shown = SAID[method]
    first, again = getattr(said, key), getattr(said.again, key)
    if key not in said.answer or first is None:
        return f'{method} said nothing the grader can read'
    if key in said.again.answer and again != first:
        return (f'{method} gave {shown(first)}, then '
                f'{"nothing" if again is None else shown(again)} when asked again')
    return None


def shown_values(values: Sequence, players: Sequence, theirs: Sequence) -> str:
    """"1 to 'MAX' and -1 to 'MIN'": each player's utility, a player named as the
    reference's too where it is named otherwise ("1 to 0 (as 'MAX')")."""
    return ' and '.join(f'{"nothing" if value is None else value} to {shown_label(player)}'
                        + ('' if player == their else f' (as {shown_label(their)})')
                        for value, player, their in zip(values, players, theirs))


def shown_label(text: str) -> str:
    """A player's label as Python shows it, from its state_key text."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested too deep to read
        return text
    return value['repr'] if isinstance(value, dict) and 'repr' in value else repr(value)


def shown_moves(texts) -> str:
    """Moves (canonical texts) as Python shows them, sorted, at most SHOWN of them."""
    moves = sorted(repr(from_json(json.loads(text))) for text in texts)
    return '[' + ', '.join(moves[:SHOWN]) + (', ...' if len(moves) > SHOWN else '') + ']'


SAID: dict[str, tuple[str, Callable[[Any], str]]] = {
    'to_move': ('to_move', shown_label), 'terminal_test': ('terminal', repr),
    'actions': ('actions', shown_moves),
    'utility': ('utilities', lambda utilities: shown_values(
        list(utilities.values()), list(utilities), list(utilities)) or 'nothing')}
"""The key of each method's answer (a Said's property), and how a message shows it."""
