"""A file player's source is compiled once a process: its first jail sends the code
compiled before any of the player's code runs, the trusted side keeps it unread, and
later jails of the same code are given it instead of compiling the source. Nothing
the player does can change what its later games are given."""

import base64
import marshal

import pytest
from jails import LEVELS

import players
import variants
from games import referee, sources
from players.remote import jailed_player, serving
from players.remote.jailed_player import JailedPlayer, Setup, TimeControl, play_with_jails
from players.remote.player_code import PlayerCode
from players.remote.protocol import COMPILED_LIMIT, Code, read_compiled

GAME = 'nim(piles=(2, 3))'
FIRST = 'def player(game, state):\n    return game.actions(state)[0]\n'
LAST = 'def player(game, state):\n    return game.actions(state)[-1]\n'
FORGER = '''import base64, json, marshal, os
LAST = "def player(game, state):\\n    return game.actions(state)[-1]\\n"
code = base64.b64encode(marshal.dumps(compile(LAST, 'forger.py', 'exec'))).decode()
os.write(4, (json.dumps({'type': 'compiled', 'code': code}) + '\\n').encode())

def player(game, state):
    return game.actions(state)[0]
'''
"""A player whose file, as it loads, sends the referee the compiled code of another
player, hoping its later games run that instead."""


@pytest.fixture(autouse=True)
def no_compiled_code(monkeypatch):
    """Each test starts with no player's compiled code kept."""
    monkeypatch.setattr(jailed_player, '_compiled', {})


def encoded(source: str, filename: str) -> str:
    """The compiled code of source, as a jail sends it."""
    return base64.b64encode(marshal.dumps(sources.compiled(source, filename))).decode('ascii')


def kept(code: PlayerCode):
    """The code object the trusted side keeps for a player (which it never loads itself)."""
    return marshal.loads(base64.b64decode(jailed_player._compiled[code]))


def play(code: PlayerCode, level: str) -> referee.PlayedGame:
    """Play one game of GAME, the player of code in the second seat against the first move."""
    history: list = []
    setup = Setup(GAME, variants.make, players.load_player, level)
    stand_in = JailedPlayer(code, setup, '1', history, TimeControl(10.0))
    try:
        return play_with_jails(variants.make(GAME), [first_move, stand_in], history)
    finally:
        stand_in.close()


def first_move(game, state):
    """Play the first legal move."""
    return game.actions(state)[0]


@pytest.mark.parametrize('level', LEVELS)
def test_a_players_later_jails_run_the_code_its_first_jail_compiled(level):
    code = PlayerCode('bot.py:player', FIRST, 'bot.py')
    first = play(code, level)
    assert first.termination == referee.NORMAL
    assert kept(code) == sources.compiled(FIRST, 'bot.py')
    # the later jails run what is kept, not the source: here another player's code
    jailed_player._compiled[code] = encoded(LAST, 'bot.py')
    later = play(code, level)
    assert later.termination == referee.NORMAL and later.moves[1] != first.moves[1]


@pytest.mark.parametrize('level', LEVELS)
def test_a_player_cannot_give_its_later_games_other_code(level):
    code = PlayerCode('forger.py:player', FORGER, 'forger.py')
    for _ in range(2):  # its first game, then one where it is given its compiled code
        record = play(code, level)
        assert record.termination == referee.ERROR
        assert 'not {"type": "ready"}' in record.detail
        assert kept(code) == sources.compiled(FORGER, 'forger.py')


def test_a_jail_compiles_the_source_where_the_code_it_is_given_is_not_of_its_file():
    sent: list = []
    for given in (encoded(LAST, 'elsewhere/bot.py'), 'not base64!', encoded('', 'bot.py')[:9]):
        code = Code('bot.py:player', FIRST, 'bot.py', 'player', False, given)
        assert serving.compiled(code, 'bot.py', sent.append) == sources.compiled(FIRST, 'bot.py')
    assert sent == []  # the trusted side had code to give: it does not ask for it


def test_a_jail_sends_its_compiled_source_and_none_past_the_limit():
    sent: list = []
    code = Code('bot.py:player', FIRST, 'bot.py', 'player', False)
    serving.compiled(code, 'bot.py', sent.append)
    assert [marshal.loads(base64.b64decode(read_compiled(message).code)) for message in sent] \
        == [sources.compiled(FIRST, 'bot.py')]
    big = 'NAMES = [' + ', '.join(f'"n{n}"' for n in range(COMPILED_LIMIT // 4)) + ']\n'
    serving.compiled(Code('big.py:player', big, 'big.py', 'player', False), 'big.py', sent.append)
    assert len(sent) == 2 and read_compiled(sent[1]).code is None  # too long: its place kept


BIG_FORGER = '''import base64, json, marshal, os
PAD = "''' + 'x' * COMPILED_LIMIT + '''"
EVIL = "def player(game, state):\\n    return game.actions(state)[-1]\\n"
code = base64.b64encode(marshal.dumps(compile(EVIL, __file__, 'exec'))).decode()
os.write(4, (json.dumps({'type': 'compiled', 'code': code}) + '\\n').encode())

def player(game, state):
    return game.actions(state)[0]
'''
"""A forger whose source compiles to more than COMPILED_LIMIT, so that its jail has
no code to pass on: were its jail's first answer not its own, the one its file forges
would be read first."""


@pytest.mark.parametrize('level', LEVELS)
def test_a_player_too_big_to_send_its_code_cannot_give_its_later_games_other_code(level):
    code = PlayerCode('big.py:player', BIG_FORGER, 'big.py')
    for _ in range(2):
        record = play(code, level)
        assert record.termination == referee.ERROR
        assert 'not {"type": "ready"}' in record.detail
    assert code not in jailed_player._compiled


class Answering:
    """A jail started elsewhere (as the grader's is) that answers a start with a
    Compiled answer, then READY."""

    status = None

    def __init__(self):
        self.answers = [{'type': 'compiled', 'code': encoded(LAST, 'bot.py')}, {'type': 'ready'}]

    def send(self, message):
        pass

    def receive(self, timeout=None):
        return self.answers.pop(0)

    def close(self, seconds=None):
        pass


def test_a_compiled_answer_from_a_jail_started_elsewhere_is_not_kept():
    code = PlayerCode('bot.py:player', FIRST, 'bot.py')
    stand_in = JailedPlayer(code, Setup(GAME, variants.make, players.load_player), '1', [],
                            TimeControl(10.0), jail=Answering())
    with pytest.raises(referee.Forfeit, match='not {"type": "ready"}'):
        stand_in.wait_ready()
    assert code not in jailed_player._compiled
