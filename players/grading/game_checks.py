"""Grading a student's Game class against a reference, through what the methods of
each say, never by comparing states: the jail plays the reference's move sequences
on the student's class and says what its methods answer after each (see
jailed.rules); each rule is judged here, and a failure names the first position,
fewest moves first, where the student's class differs, and what each side said.

The players are matched by order of play: the first label the student's to_move
gives stands for the reference's first, and so on; a move is plain data, so
[0, 1] and (0, 1) are one move."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

from games.specs import parse_call
from games.stochastic import from_json
from players.remote.plain_json import canonical

from .jailed.rules import TEXT_LIMIT
from .reference import PERFT_LIMIT, Probe, Reference, where
from .session import Session, StudentFault

RULES = ('to_move', 'actions', 'result', 'terminal_test', 'utility', 'perft')
"""The rules a class is graded on, each a check: the player to move everywhere; the
moves wherever the game goes on; a new state for each move, the one given left as
it was; whether the game is over, everywhere; each player's utility where it is
over; the number of move sequences of each length up to PERFT_DEPTH from the start."""
RULE_POINTS = 2
"""The points of each rule."""
BATCH = 500
"""The positions asked about in one request."""
CALL_SHARE = 5
"""Each call of the student's methods may take this share of the time of a check."""
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
        """Could the moves to this position be made on the student's class?"""
        return not self.answer.get('unreached')

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


@dataclass
class Exchange:
    """The student's class's answers at the reference's positions, and its perft."""

    reference: Reference
    said: list = field(default_factory=list)
    perft: dict = field(default_factory=dict)
    error: str | None = None
    """Why the class cannot be made, if it cannot."""

    @cached_property
    def players(self) -> tuple[dict, tuple | None]:
        """The student's labels matched to the reference's players by order of play,
        and the first position where to_move disagrees: (probe, why) or None."""
        matched: dict = {}
        for probe, said in self.pairs():
            if said.error('to_move'):
                return matched, (probe, f"to_move {said.error('to_move')}")
            label = said.to_move
            if label is None:
                continue
            if label not in matched and probe.to_move not in matched.values():
                matched[label] = probe.to_move
            if matched.get(label) != probe.to_move:
                return matched, (probe, self._other_player(label, probe, matched))
        return matched, None

    @staticmethod
    def _other_player(label: str, probe: Probe, matched: dict) -> str:
        """Why the student's label at probe is not the reference's player."""
        stands = (f' (which plays as the reference\'s {_label(matched[label])})'
                  if label in matched and matched[label] != label else '')
        return (f'to_move gave {_label(label)}{stands}, the reference\'s '
                f'{_label(probe.to_move)}')

    def pairs(self):
        """Each probe with what the student's class said there, where it was reached."""
        saids = (Said(answer if isinstance(answer, dict) else {}) for answer in self.said)
        return ((probe, said) for probe, said in zip(self.reference.probes, saids)
                if said.reached)


def game_checks(reference: Reference) -> list[tuple[str, str]]:
    """(name, rule) of each check of the student's class, such as
    ('GameOfNim.actions', 'actions')."""
    name = parse_call(reference.game, 'game')[0]
    return [(f'{name} perft' if rule == 'perft' else f'{name}.{rule}', rule) for rule in RULES]


def ask(session: Session, reference: Reference, timeout: float) -> Exchange:
    """The student's class's answers at each of the reference's positions, asked of
    the jail once for all the checks of the class (kept in the session). Raise
    StudentFault if the jail hangs, dies or sends garbage."""
    asked = ('rules', reference)
    kept = session.kept.get(asked)
    if kept is None:
        try:
            kept = _ask(session, reference, timeout)
        except StudentFault as fault:
            if fault.reason == 'timeout':
                raise
            kept = fault
        session.kept[asked] = kept
    if isinstance(kept, StudentFault):
        raise kept
    return kept


def _ask(session: Session, reference: Reference, timeout: float) -> Exchange:
    exchange = Exchange(reference)
    seconds = timeout / CALL_SHARE
    for start in range(0, len(reference.probes), BATCH):
        batch = reference.probes[start:start + BATCH]
        said, done = session.ask({'rules': reference.game, 'seconds': seconds, 'first': start,
                                  'positions': [[probe.parent, probe.moves[-1] if probe.moves
                                                 else None] for probe in batch],
                                  'ends': [index for index, probe in enumerate(batch, start)
                                           if probe.terminal]}, 'positions', len(batch), timeout)
        if done.get('error'):
            exchange.error = str(done['error'])[:500]
            return exchange
        if len(said) != len(batch):
            session.close()
            raise StudentFault('the jail answered for other positions than it was asked',
                               'garbled')
        exchange.said += said
    limit = 2 * sum(reference.perft) + 100
    _, exchange.perft = session.ask({'rules': reference.game, 'seconds': seconds,
                                     'perft': len(reference.perft), 'limit': limit},
                                    'positions', 0, timeout)
    return exchange


def judge(rule: str, exchange: Exchange) -> tuple[bool, str]:
    """Judge one rule of the student's class: whether it passes, and the message."""
    if exchange.error:
        return False, exchange.error
    if rule == 'perft':
        return _judge_perft(exchange)
    first = (exchange.players[1] if rule == 'to_move' else
             next(filter(None, (JUDGES[rule](probe, said, exchange.players[0])
                                for probe, said in exchange.pairs())), None))
    if first is None:
        unreached = len(exchange.said) - sum(1 for _ in exchange.pairs())
        return True, f'agrees with the reference at {exchange.reference.coverage}' + (
            f' ({unreached} of them not reached with its own moves)' if unreached else '')
    probe, why = first
    return False, f'{where(probe.moves[:-1] if rule == "result" else probe.moves)}: {why}'


def _judge_actions(probe: Probe, said: Said, players: dict):
    """(probe, why) if the moves differ where the game goes on, else None."""
    if probe.terminal:
        return None
    if said.error('actions'):
        return probe, f"actions {said.error('actions')}"
    moves = said.actions
    if moves == probe.actions:
        return None
    missing, extra = probe.actions - moves, moves - probe.actions
    difference = '; '.join(part for part in (f'missing {_moves(missing)}' if missing else '',
                                             f'not legal: {_moves(extra)}' if extra else '')
                           if part)
    return probe, (f"actions gave {_moves(moves)}, the reference's {_moves(probe.actions)} "
                   f'({difference})')


def _judge_result(probe: Probe, said: Said, players: dict):
    """(probe, why) if result raised or changed the state it was given making probe's
    last move, else None."""
    move = repr(from_json(probe.moves[-1])) if probe.moves else ''
    if said.error('result'):
        return probe, f"result(state, {move}) {said.error('result')}"
    if said.answer.get('mutated') is True:
        return probe, (f'result(state, {move}) changed the state it was given (it must return '
                       'a new state and leave that one as it was: copy a list before changing '
                       'it)')
    return None


def _judge_terminal(probe: Probe, said: Said, players: dict):
    """(probe, why) if terminal_test disagrees, else None."""
    if said.error('terminal_test'):
        return probe, f"terminal_test {said.error('terminal_test')}"
    if said.terminal is None or said.terminal == probe.terminal:
        return None
    return probe, f"terminal_test gave {said.terminal}, the reference's {probe.terminal}"


def _judge_utility(probe: Probe, said: Said, players: dict):
    """(probe, why) if a player's utility differs where the game is over, else None."""
    if not probe.terminal:
        return None
    if said.error('utility'):
        return probe, f"utility {said.error('utility')}"
    own = {theirs: mine for mine, theirs in players.items()}
    theirs, values = zip(*probe.utilities)
    labels = [own.get(player) for player in theirs]
    if None in labels:
        return probe, (f'no player that its to_move names plays as the reference\'s '
                       f'{_label(theirs[labels.index(None)])}, so its utility cannot be '
                       'compared')
    mine = [said.utilities.get(label) for label in labels]
    if all(map(_same, mine, values)):
        return None
    return probe, (f"utility gave {_values(mine, labels, theirs)}, the reference's "
                   f'{_values(values, theirs, theirs)}')


def _judge_perft(exchange: Exchange) -> tuple[bool, str]:
    """Compare the student's perft with the reference's."""
    want = list(exchange.reference.perft)
    got = exchange.perft.get('perft')
    depths = f'1 to {len(want)}' if len(want) > 1 else '1'
    if not want:
        return True, f'not counted: the reference has more than {PERFT_LIMIT} moves at the start'
    if exchange.perft.get('error'):
        return False, f"{exchange.perft['error']} while counting move sequences"
    if got == want:
        return True, (f'{", ".join(map(str, want))} move sequences of {depths} plies from the '
                      "start, as the reference's")
    if not isinstance(got, list):
        got = []
    shown = ', '.join(map(str, got)) + (' and more (stopped)' if exchange.perft.get('stopped')
                                        else '')
    return False, (f'counted {shown or "nothing"} move sequences of {depths} plies from the '
                   f"start, the reference's {', '.join(map(str, want))} (as a search makes them "
                   'with actions, result and terminal_test)')


JUDGES = {'actions': _judge_actions, 'result': _judge_result, 'terminal_test': _judge_terminal,
          'utility': _judge_utility}


def _same(mine, theirs) -> bool:
    """Are two utilities (see jailed.rules.value_data) the same?"""
    if isinstance(mine, bool) or not isinstance(mine, (int, float)) \
            or not isinstance(theirs, (int, float)):
        return mine == theirs and type(mine) is type(theirs)
    return abs(mine - theirs) <= 1e-9 * max(1, abs(theirs))


def _values(values: Sequence, players: Sequence, theirs: Sequence) -> str:
    """"1 to 'MAX' and -1 to 'MIN'": each player's utility, a player named as the
    reference's too where it is named otherwise ("1 to 0 (as 'MAX')")."""
    return ' and '.join(f'{"nothing" if value is None else value} to {_label(player)}'
                        + ('' if player == their else f' (as {_label(their)})')
                        for value, player, their in zip(values, players, theirs))


def _label(text: str) -> str:
    """A player's label as Python shows it, from its state_key text."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value['repr'] if isinstance(value, dict) and 'repr' in value else repr(value)


def _moves(texts) -> str:
    """Moves (canonical texts) as Python shows them, sorted, at most SHOWN of them."""
    moves = sorted(repr(from_json(json.loads(text))) for text in texts)
    return '[' + ', '.join(moves[:SHOWN]) + (', ...' if len(moves) > SHOWN else '') + ']'
