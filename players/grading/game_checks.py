"""Grading a student's Game class against a reference, through what the methods of
each say, never by comparing states: the jail counts the class's perft, then plays
the reference's move sequences on the student's class, ply by ply, and says what its
methods answer after each, each asked twice as aima-python's players may ask (see
jailed.rules). The jail is told only the moves, never what the reference's methods
say, nor the moves from a position before it has answered there, and asks utility
unless the class's own terminal_test says the game goes on. Each rule is judged
here, and a failure names the first position, fewest moves first, where the
student's class differs, and what each side said. An answer that changes when
asked again fails; a position the class cannot reach with its own moves fails the
rule whose method failed on the way; utility not asked, terminal_test saying the
game goes on where the reference's is over, fails there; a rule compared nowhere fails.

The players are matched by order of play: the first label the student's to_move
gives stands for the reference's first, and so on; a move is plain data, so
[0, 1] and (0, 1) are one move."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import count, groupby
from typing import Any, Callable, Iterator, cast

from games.specs import parse_call
from games.stochastic import from_json

from .game_answers import Said, method_fault, shown_label, shown_moves, shown_values
from .jailed.messages import PerftDone, PerftRequest, PositionsRequest, RulesDone
from .reference import PERFT_DEPTH, PERFT_LIMIT, Probe, Reference, where
from .session import Session, StudentFault

RULES = ('to_move', 'actions', 'result', 'terminal_test', 'utility', 'perft')
"""The rules a class is graded on, each a check: the player to move everywhere; the
moves wherever the game goes on; a new state for each move, the one given left as
it was; whether the game is over, everywhere; each player's utility where it is
over; the number of move sequences of each length up to PERFT_DEPTH from the start."""
RULE_POINTS = 2
"""The points of each rule."""
BATCH = 500
"""The most positions asked about in one request (all of them with as many moves)."""
CALL_SHARE = 5
"""Each call of the student's methods may take this share of the time of a check."""


@dataclass
class Exchange:
    """The student's class's answers at the reference's positions, and its perft."""

    reference: Reference
    said: list[dict[str, Any]] = field(default_factory=list)
    perft: PerftDone = PerftDone(())
    error: str | None = None
    """Why the class cannot be made, if it cannot."""

    @cached_property
    def answers(self) -> list:
        """What the student's class said at each of the reference's positions, a Said each."""
        return [Said(answer) for answer in self.said]

    def positions(self) -> Iterator[tuple[int, Probe, Said]]:
        """Each of the reference's positions, by index, with what the class said there."""
        return zip(count(), self.reference.probes, self.answers)

    @cached_property
    def players(self) -> tuple[dict, tuple | None]:
        """The student's labels matched to the reference's players by order of play
        (by what to_move said first, wherever it said something), and the first
        position reached where to_move fails: (its index, why) or None."""
        matched: dict = {}
        first = None
        for index, probe, said in self.positions():
            if not said.reached:
                continue
            fault = method_fault('to_move', said)
            label = said.to_move
            if label is not None and label not in matched \
                    and probe.to_move not in matched.values():
                matched[label] = probe.to_move
            if not fault and matched.get(label) != probe.to_move:
                fault = self._other_player(cast(str, label), probe, matched)  # a text
            if fault and first is None:
                first = index, fault
        return matched, first

    @staticmethod
    def _other_player(label: str, probe: Probe, matched: dict) -> str:
        """Why the student's label at probe is not the reference's player."""
        stands = (f' (which plays as the reference\'s {shown_label(matched[label])})'
                  if label in matched and matched[label] != label else '')
        return (f'to_move gave {shown_label(label)}{stands}, the reference\'s '
                f'{shown_label(probe.to_move)}')

    def failures(self, rule: str) -> Iterator[tuple[int, str]]:
        """(the index of the position named, why) for each failure of a rule other than
        to_move: at the positions reached, and where a move failed on the way to one
        not reached."""
        for index, probe, said in self.positions():
            if said.reached:
                why = JUDGES[rule](probe, said, self.players[0])
                if why:  # result's is named by the position where its move is made
                    yield (cast(int, probe.parent) if rule == 'result' else index), why
                continue
            cause = self.cause(index)
            if cause is not None and cause[1] == rule:
                yield cause[0], cause[2]

    def cause(self, index: int) -> tuple[int, str, str] | None:
        """Why position index was not reached, as the jail says (see jailed.rules), or
        else as no move made from the position before: (the index of the position
        where a move on its way could not be made, the method that failed there, why),
        or None where the position before was not reached either."""
        cause = self.answers[index].answer.get('unreached')
        making, method, why = (cause.get(key) for key in ('making', 'method', 'why')) \
            if isinstance(cause, dict) else (None, None, None)
        if type(making) is not int or not 0 < making <= index \
                or method not in ('actions', 'result'):
            parent = self.reference.probes[index].parent
            if parent is None or not self.answers[parent].reached:
                return None
            making, method, why = index, 'actions', None
        probe = self.reference.probes[making]
        return cast(int, probe.parent), method, _unmade(probe, method, why)  # not the start


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
    """Ask the jail the class's perft, then what it says at the reference's positions,
    ply by ply (see _plies), telling it only the moves that reach them."""
    exchange = Exchange(reference)
    seconds = timeout / CALL_SHARE
    _, exchange.perft = session.ask(PerftRequest(reference.game, seconds, PERFT_DEPTH,
                                                 PERFT_LIMIT), PerftDone, 0, timeout)
    for start, batch in _plies(reference.probes):
        said, done = session.ask(PositionsRequest(reference.game, seconds, start, tuple(
            (probe.parent, probe.moves[-1] if probe.moves else None) for probe in batch)),
            RulesDone, len(batch), timeout)
        if done.error:
            exchange.error = done.error[:500]
            return exchange
        if len(said) != len(batch):
            session.close()
            raise StudentFault('the jail answered for other positions than it was asked',
                               'garbled')
        exchange.said += said
    return exchange


def _plies(probes: tuple) -> Iterator[tuple[int, tuple]]:
    """The probes (fewest moves first) in requests, each (the index of its first probe,
    its probes): at most BATCH probes of one ply, so that the jail answers every
    position before it is told the moves from it."""
    start = 0
    for _, ply in groupby(probes, key=lambda probe: len(probe.moves)):
        end = start + len(list(ply))
        for first in range(start, end, BATCH):
            yield first, probes[first:min(first + BATCH, end)]
        start = end


def judge(rule: str, exchange: Exchange) -> tuple[bool, str]:
    """Judge one rule of the student's class: whether it passes, and the message."""
    if exchange.error:
        return False, exchange.error
    if rule == 'perft':
        return _judge_perft(exchange)
    first = (exchange.players[1] if rule == 'to_move' else
             min(exchange.failures(rule), key=lambda failure: failure[0], default=None))
    if first is not None:
        index, why = first
        return False, f'{where(exchange.reference.probes[index].moves)}: {why}'
    judged, place = WHERE_JUDGED[rule]
    asked = [(probe, said) for _, probe, said in exchange.positions() if judged(probe)]
    if asked and not any(said.reached for _, said in asked):
        return False, (f'{where(asked[0][0].moves)}: not reached with its own moves, nor any '
                       f'other {place}: {rule} was compared nowhere')
    unreached = sum(not said.reached for said in exchange.answers)
    return True, f'agrees with the reference at {exchange.reference.coverage}' + (
        f' but the {unreached} it did not reach with its own moves' if unreached else '')


def _unmade(probe: Probe, method: str, why: Any) -> str:
    """Why the last move to probe could not be made: method failed (why, as the jail
    says) or, for actions, it did not list the move."""
    move, why = repr(from_json(probe.moves[-1])), why and str(why)[:500]
    if method == 'result':
        return f'result(state, {move}) {why or "failed"}'
    return f'actions {why}' if why else f'actions did not list {move} when asked again'


def _judge_actions(probe: Probe, said: Said, players: dict) -> str | None:
    """Why the moves are wrong where the game goes on, if they are."""
    if probe.terminal:
        return None
    fault = method_fault('actions', said)
    moves = said.actions
    if fault or moves == probe.actions:
        return fault
    missing, extra = probe.actions - moves, moves - probe.actions
    difference = '; '.join(part for part in (f'missing {shown_moves(missing)}' if missing else '',
                                             f'not legal: {shown_moves(extra)}' if extra else '')
                           if part)
    return (f"actions gave {shown_moves(moves)}, the reference's {shown_moves(probe.actions)} "
            f'({difference})')


def _judge_result(probe: Probe, said: Said, players: dict) -> str | None:
    """Why result was wrong making probe's last move (it changed the state it was
    given), if it was, or why the grader cannot tell (the jail reports it after every move)."""
    mutated = said.answer.get('mutated') if probe.moves else False
    if mutated is False:
        return None
    call = f'result(state, {repr(from_json(probe.moves[-1]))})'
    if mutated is not True:
        return f'{call} said nothing the grader can read'
    return (f'{call} changed the state it was given (it must return a new state and leave '
            'that one as it was: copy a list before changing it)')


def _judge_terminal(probe: Probe, said: Said, players: dict) -> str | None:
    """Why terminal_test is wrong, if it is."""
    fault = method_fault('terminal_test', said)
    if fault or said.terminal == probe.terminal:
        return fault
    return f"terminal_test gave {said.terminal}, the reference's {probe.terminal}"


def _judge_utility(probe: Probe, said: Said, players: dict) -> str | None:
    """Why a player's utility is wrong where the game is over, if it is: also where it
    was not asked, terminal_test saying that the game goes on, as a search would not ask."""
    if not probe.terminal:
        return None
    own = {theirs: mine for mine, theirs in players.items()}
    theirs, values = zip(*probe.utilities)
    labels = [own.get(player) for player in theirs]
    if None in labels:
        return (f'no player that its to_move names plays as the reference\'s '
                f'{shown_label(theirs[labels.index(None)])}, so its utility cannot be compared')
    if said.goes_on:
        return ("utility was not asked, since terminal_test said the game goes on; the "
                f"reference's is over, with {shown_values(values, theirs, theirs)}")
    fault = method_fault('utility', said)
    if fault:
        return fault
    mine = [said.utilities.get(label) for label in labels]
    if all(map(_same, mine, values)):
        return None
    return (f"utility gave {shown_values(mine, labels, theirs)}, the reference's "
            f'{shown_values(values, theirs, theirs)}')


def _judge_perft(exchange: Exchange) -> tuple[bool, str]:
    """Compare the student's perft with the reference's."""
    want = list(exchange.reference.perft)
    got = list(exchange.perft.perft)
    if not want:
        return True, f'not counted: the reference has more than {PERFT_LIMIT} moves at the start'
    if exchange.perft.error:
        return False, f'{exchange.perft.error} while counting move sequences'
    if got == want:
        depths = f'1 to {len(want)}' if len(want) > 1 else '1'
        return True, (f'{", ".join(map(str, want))} move sequences of {depths} plies from the '
                      "start, as the reference's")
    shown = _sequences(got)
    return False, (f'counted {shown} move sequences of 1 to {PERFT_DEPTH} plies from the start, '
                   f"the reference's {_sequences(want)} (as a search makes them with actions, "
                   'result and terminal_test)')


def _sequences(counts: list) -> str:
    """Perft's counts as a message shows them: '4, 9, 10', or '4, 9, then more than 20000'
    where it stopped."""
    shown = ', '.join(map(str, counts))
    if len(counts) >= PERFT_DEPTH:
        return shown
    return f'{shown}, then more than {PERFT_LIMIT}' if counts else f'more than {PERFT_LIMIT}'


JUDGES = {'actions': _judge_actions, 'result': _judge_result, 'terminal_test': _judge_terminal,
          'utility': _judge_utility}
WHERE_JUDGED: dict[str, tuple[Callable[[Probe], bool], str]] = {
    'to_move': (lambda probe: True, 'position'),
    'terminal_test': (lambda probe: True, 'position'),
    'actions': (lambda probe: not probe.terminal, "position where the reference's game goes on"),
    'utility': (lambda probe: probe.terminal, "position where the reference's game is over"),
    'result': (lambda probe: bool(probe.moves), 'position after a move')}
"""Which of the reference's positions each rule is judged at, where the class reaches
them, and those positions in words."""


def _same(mine, theirs) -> bool:
    """Are two utilities (see jailed.rules.value_data) the same?"""
    if isinstance(mine, bool) or not isinstance(mine, (int, float)) \
            or not isinstance(theirs, (int, float)):
        return mine == theirs and type(mine) is type(theirs)
    return abs(mine - theirs) <= 1e-9 * max(1, abs(theirs))
