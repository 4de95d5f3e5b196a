"""What a Python player writes (its standard output and error, in one pipe, in the
order written) is kept in its own game's record, the last ERRORS_LIMIT bytes, as a
program's standard error is, at both jail levels: a player that floods it moves in
time, a hostile one cannot hang its game, and replay shows it escaped."""

import os
import time

import pytest
from places import TESTS
from jails import LEVELS, adopting_orphans

import hostile_players
import players
import variants
from games import referee
from players.remote import jailed_player
from players.remote.player_code import read_player
from players.reports import replay
from players.sandbox.jail import ERRORS_LIMIT
from players.tournaments.match import Rules, play_scheduled_game
from players.tournaments.run_settings import RunSettings
from players.tournaments.schedule import ScheduledGame
from players.tournaments.store import Store

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(TESTS, 'hostile_players.py')
VARIANT = 'nim(piles=(2, 3))'
TIMEOUT = 2.0
"""The move time limit: the flood of a first move fits in it with room to spare."""
MARK = '…'
HANG = 60
"""Seconds after which a game hangs: far more than a few moves and a timeout take on
a busy machine, far less than the children of the hostile players sleep."""


def spec(name):
    return f'{HOSTILE}:{name}'


@pytest.fixture(autouse=True)
def no_kept_jails():
    """Close the jails of shipped players that a test's games kept in this process."""
    yield
    while jailed_player._idle:
        jailed_player._idle.pop()[1].close()


def play(first, second, level, variant=VARIANT, index=0, timeout=TIMEOUT):
    """Play one game of the players (specs) in this process; return its record."""
    codes = {name: read_player(name) for name in (first, second)}
    return play_scheduled_game(ScheduledGame(index, variant, first, second, 0, 0, 1),
                               Rules(move_timeout=timeout, sandbox=level), codes,
                               variants.make, players.load_player)


def written(record, name):
    """What the player name wrote, as its game's record keeps it."""
    return record.stderr_first if record.first == name else record.stderr_second


@pytest.mark.parametrize('level', LEVELS)
def test_what_a_python_player_prints_is_in_its_games_record_and_not_the_others(level):
    diarist, chatty = spec('diarist'), spec('chatty')
    with adopting_orphans():
        records = [play(diarist, chatty, level), play(chatty, diarist, level, index=1)]
    for record in records:
        assert record.termination == referee.NORMAL, record
        moves = record.moves_first if record.first == diarist else record.moves_second
        # standard output and error in the order written, the last move's too, each
        # game's count from 1: a jail of its own
        assert written(record, diarist) == ''.join(f'thinking about move {number}... done\n'
                                                   for number in range(1, moves + 1))
        theirs = written(record, chatty)
        assert 'junk' in theirs and '\x00\\xffraw junk' in theirs and 'thinking' not in theirs


@pytest.mark.parametrize('level', LEVELS)
def test_a_player_that_writes_megabytes_moves_in_time_and_its_record_keeps_the_end(level):
    shouter = spec('shouter')
    with adopting_orphans():
        record = play(shouter, spec('first'), level)
    assert record.termination == referee.NORMAL and record.moves_first >= 1, record
    kept = written(record, shouter)
    assert kept.startswith(MARK) and kept.endswith('x\nshouted\n')
    assert len(kept.encode()) <= ERRORS_LIMIT + len(MARK.encode())
    assert set(kept[len(MARK):-len('\nshouted\n')]) == {'x'}
    assert written(record, spec('first')) == ''
    assert hostile_players.FLOOD_MB << 20 > 100 * ERRORS_LIMIT  # a flood, not a page


@pytest.mark.parametrize('level', LEVELS)
def test_a_player_that_writes_for_ever_forfeits_on_time(level):
    babbler = spec('babbler')
    started = time.monotonic()
    with adopting_orphans():
        record = play(spec('first'), babbler, level, timeout=1.0)
    assert time.monotonic() - started < HANG
    assert (record.forfeit, record.termination) == (babbler, referee.TIMEOUT)
    assert record.detail == 'no move within 1 s'
    kept = written(record, babbler)
    assert kept.startswith(MARK) and 'babble babble' in kept
    assert len(kept.encode()) <= ERRORS_LIMIT + len(MARK.encode())


@pytest.mark.parametrize('level', LEVELS)
def test_bytes_not_utf8_and_escapes_are_kept_as_text_and_replayed_escaped(level, tmp_path):
    escaper = spec('escaper')
    with adopting_orphans():
        played = play(escaper, spec('first'), level)
    store = Store(str(tmp_path / 'games.sqlite'), RunSettings(players=()))
    store.add(played)
    [record] = list(store.records())
    store.close()
    assert record.termination == referee.NORMAL  # and what each wrote stored as it was:
    assert (record.stderr_first, record.stderr_second) == (played.stderr_first,
                                                           played.stderr_second)
    assert written(record, escaper).startswith('\\xff\\xfe\\xc3(\n' + hostile_players.ESCAPES)
    told = '\n'.join(replay.lines(variants.make(VARIANT), record))
    shown = '\\xff\\xfe\\xc3(\n\\x1b[2J\\x1b[HStandings\\r\\x08\\u202e\\x07'
    assert f"{escaper}'s output:\n{shown}" in told
    assert not [char for char in '\x1b\r\b\u202e\x07\ufffd' if char in told]


@pytest.mark.parametrize('level', LEVELS)
def test_a_child_that_holds_the_output_open_cannot_hang_the_game(level):
    leaker, abandoner = spec('leaker'), spec('abandoner')
    with adopting_orphans():
        started = time.monotonic()
        played = play(leaker, spec('first'), level)
        left = play(spec('first'), abandoner, level, index=1)
        took = time.monotonic() - started
    assert played.termination == referee.NORMAL, played
    # what the child wrote before the game ended, if it was given the processor in time
    assert set(written(played, leaker).splitlines()) <= {'child still here'}
    assert (left.forfeit, left.termination) == (abandoner, referee.ERROR)
    assert 'exited with status 5' in left.detail  # it ended, and so did its game, on time
    assert written(left, abandoner) == 'leaving\n'
    assert took < HANG


def test_the_traceback_of_a_move_s_error_is_in_the_players_output_and_its_detail_as_before():
    raises = spec('raises')
    with adopting_orphans():
        record = play(spec('first'), raises, 'process')
    with open(HOSTILE) as file:
        line = 1 + [text.strip() for text in file].index("raise ValueError('boom')")
    assert record.detail == f'ValueError: boom (hostile_players.py, line {line})'
    assert written(record, raises) == ('Traceback (most recent call last):\n'
                                       f'  File "hostile_players.py", line {line}, in raises\n'
                                       "    raise ValueError('boom')\n"
                                       'ValueError: boom\n')
    exits = spec('exits')
    with adopting_orphans():
        record = play(spec('first'), exits, 'process')
    assert record.detail.startswith('SystemExit: 3')
    assert written(record, exits) == ''  # as Python shows it


LOUD_GAME = '''\
import itertools

from games import TicTacToe

CALLS = itertools.count()


class LoudTicTacToe(TicTacToe):
    """Tic-tac-toe that says so each time it is asked for the moves, counting in its
    process."""

    def actions(self, state):
        print(f'call {next(CALLS)}')
        return super().actions(state)
'''


@pytest.mark.parametrize('level', LEVELS)
def test_a_shipped_players_kept_jail_gives_each_record_only_what_its_game_wrote(level, tmp_path):
    """A shipped player's jail is kept between games of a referee: the game of a
    file, run in it, prints there, and each game's record keeps its own lines."""
    (tmp_path / 'loud.py').write_text(LOUD_GAME)
    game = f'{tmp_path / "loud.py"}:LoudTicTacToe'
    first = spec('first')
    with adopting_orphans():
        records = [play('ab1', first, level, variant=game, index=index) for index in range(2)]
        kept = [jail for _, jail in jailed_player._idle]
    assert len(kept) == 1  # the second game had the first one's jail
    calls = []
    for record in records:
        assert record.termination == referee.NORMAL, record
        lines = written(record, 'ab1').splitlines()
        assert lines and all(line.startswith('call ') for line in lines)
        calls.append([int(line.split()[1]) for line in lines])
        assert written(record, first).startswith('call 0\n')  # a jail of its own each game
    assert calls[0][0] == 0 and calls[1][0] == calls[0][-1] + 1  # counted on, but not kept
