"""The protocol of players.remote.protocol as docs/protocol.md records it: the whole
game of a program and that of a Python player in a jail, each replayed line by line,
what the trusted side sends and what the other side (the reference client, a jail)
answers, and each line read as its typed message."""

import base64
import io
import json
import marshal
import os

import pytest
from places import ROOT

import players
import variants
from players.remote import program_client
from players.remote import jailed_player, program, protocol
from players.remote.jailed_player import JailedPlayer, Setup, TimeControl, play_with_jails
from players.remote.player_code import PlayerCode, read_program
from players.sandbox.jail import Jail

GAME = 'nim(piles=(1, 2))'
"""The documented games' game: the player in the second seat moves once."""
SEED = '4:1'
"""The documented games' seed, 1782587147 as a program is given it."""
SOURCE = 'def player(game, state):\n    return game.actions(state)[0]\n'
"""The documented Python player's file."""


def transcript(other: str) -> list[tuple[str, str]]:
    """The whole game docs/protocol.md gives between the referee and other ('program'
    or 'jail'): (who, the line's JSON text) for each line."""
    runs: list[list[tuple[str, str]]] = [[]]
    with open(os.path.join(ROOT, 'docs', 'protocol.md'), encoding='utf-8') as file:
        for line in file:
            who, said, text = line.strip().partition(': ')
            if line.startswith('    ') and said and who in ('referee', 'program', 'jail'):
                runs[-1].append((who, text))
            elif runs[-1]:
                runs.append([])
    return next(run for run in runs if any(who == other for who, _ in run))


def said(lines: list[tuple[str, str]], who: str) -> list:
    """The messages of the lines that who said, a compiled answer's elided code
    ("...") filled in with the documented player's source compiled."""
    return [filled(json.loads(text)) for speaker, text in lines if speaker == who]


def filled(message):
    """Return a message, with the documented player's compiled source in place of an
    elided one."""
    if protocol.read_compiled(message) == protocol.Compiled('...'):
        code = marshal.dumps(compile(SOURCE, 'bot.py', 'exec', dont_inherit=True))
        return {**message, 'code': base64.b64encode(code).decode('ascii')}
    return message


def loaded(message):
    """Return a message, a compiled answer's code loaded (marshal's bytes for one
    code object may differ; the objects compare equal)."""
    compiled = protocol.read_compiled(message)
    if compiled is None or compiled.code is None:
        return message
    return {**message, 'code': marshal.loads(base64.b64decode(compiled.code))}


def turns(lines: list[tuple[str, str]]) -> list[tuple[dict, int]]:
    """(a message the referee sends, how many answers follow it) for each line of the
    referee's."""
    found: list[tuple[dict, int]] = []
    for who, text in lines:
        if who == 'referee':
            found.append((json.loads(text), 0))
        else:
            found[-1] = (found[-1][0], found[-1][1] + 1)
    return found


class Replayed:
    """A jail that answers as a transcript does, keeping what it is sent."""

    def __init__(self, lines: list[tuple[str, str]]):
        self.answers = [filled(json.loads(text)) for who, text in lines if who != 'referee']
        self.sent: list = []
        self.status = None

    def send(self, message):
        self.sent.append(json.loads(json.dumps(message)))  # as it crosses

    def receive(self, timeout):
        return self.answers.pop(0)

    def close(self, seconds=None):
        self.status = 0


def play_second(stand_in, history: list):
    """Play the documented game, its first player taking (2, 1), stand_in the second."""
    return play_with_jails(variants.make(GAME), [lambda game, state: (2, 1), stand_in],
                           history, isolate=False)


def test_the_referee_and_the_reference_client_speak_the_documented_game(monkeypatch):
    lines = transcript('program')
    replayed = Replayed(lines)
    monkeypatch.setattr(program, 'CommandJail', lambda *args: replayed)
    history: list = []
    stand_in = program.ProgramPlayer(read_program('exec:true'),
                                     Setup(GAME, variants.make, players.load_player), SEED,
                                     history, TimeControl(10.0), game=variants.make(GAME), seat=1)
    assert play_second(stand_in, history).moves == [(2, 1), (1, 1), (2, 1)]
    assert replayed.sent == said(lines, 'referee')
    ready, move = said(lines, 'program')
    protocol.read_ready(ready)
    assert protocol.read_move(move) == protocol.MoveAnswer([1, 1])
    assert protocol.MoveAnswer([1, 1]).message() == move
    referee_lines = io.StringIO(''.join(json.dumps(message, separators=(',', ':')) + '\n'
                                        for message in replayed.sent))
    answers = io.StringIO()
    program_client.serve(lambda state, legal, history, time_left, rng: legal[0], referee_lines,
                         answers)
    assert answers.getvalue() == ''.join(text + '\n' for who, text in lines if who == 'program')


def test_the_trusted_side_and_a_jail_speak_the_documented_game_of_a_python_player(monkeypatch):
    monkeypatch.setattr(jailed_player, '_compiled', {})  # the player's first game
    lines = transcript('jail')
    replayed = Replayed(lines)
    monkeypatch.setattr(jailed_player, 'Jail', lambda *args: replayed)  # the jail it starts
    setup, history = Setup(GAME, variants.make, players.load_player), []
    stand_in = JailedPlayer(PlayerCode('bot.py:player', SOURCE, 'bot.py'), setup, SEED, history,
                            TimeControl(10.0))
    assert play_second(stand_in, history).moves == [(2, 1), (1, 1), (2, 1)]
    assert replayed.sent == said(lines, 'referee')
    assert [protocol.read_request(message).message() for message in replayed.sent] == \
        replayed.sent
    compiled, ready, move = said(lines, 'jail')
    assert protocol.read_compiled(compiled).message() == compiled
    protocol.read_ready(ready)
    assert protocol.read_move(move).message() == move
    jail = Jail(jailed_player.ENTRY, packages=setup.packages())
    try:
        answers = []
        for message, answered in turns(lines):
            jail.send(message)
            answers += [jail.receive(10.0) for _ in range(answered)]
    finally:
        jail.close()
    assert [loaded(answer) for answer in answers] == [loaded(answer) for answer in
                                                      said(lines, 'jail')]


def test_a_jail_reads_only_the_start_of_its_own_version():
    start = json.loads(transcript('jail')[0][1])
    assert protocol.read_request(start).code.function == 'player'
    for wrong in ({**start, 'protocol': protocol.PROTOCOL + 1}, {'setup': start}):
        with pytest.raises(protocol.ProtocolError, match='not a start of protocol 1'):
            protocol.read_request(wrong)
