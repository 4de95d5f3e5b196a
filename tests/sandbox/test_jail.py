"""The jails: what a player inside can and cannot do, at each level, and how the
trusted side hears it (only JSON, within limits and in time)."""

import os
import sqlite3
import textwrap

import pytest
from places import ROOT

import variants
from games import clock, referee
from players import load_player
from players.sandbox import jail, jail_server, level_choice
from players.remote.jailed_player import JailedPlayer, Setup, TimeControl, event
from players.remote.player_code import read_player

OTHER_PLAYER = os.path.join(ROOT, 'tests', 'hostile_players.py')
"""Another player's file, readable by everyone on the machine."""
NIM = 'nim(piles=(2, 3))'
BWRAP = pytest.mark.skipif(level_choice.problem('bwrap') is not None,
                           reason=f'bubblewrap cannot jail here: {level_choice.problem("bwrap")}')


def jailed(tmp_path, body, level='process', timing=TimeControl(5.0), name='probe'):
    """Return a JailedPlayer whose player function has the given body."""
    path = tmp_path / f'{name}.py'
    path.write_text('import os, sys, time\n\ndef player(game, state):\n'
                    + textwrap.indent(textwrap.dedent(body), '    '))
    return JailedPlayer(read_player(str(path)), Setup(NIM, variants.make, load_player, level),
                        '0', [], timing)


def following(player):
    """Return an on_move for referee.play that keeps a jailed player's history."""
    return lambda state, move, new_state: player.history.append(event('move', move))


def answer(tmp_path, body, level='process', **options):
    """Ask a probe player for its move once; return its move or its forfeit's detail."""
    player = jailed(tmp_path, body, level, **options)
    game = variants.make(NIM)
    try:
        return player(game, game.initial)
    except referee.Forfeit as forfeit:
        return forfeit.detail
    finally:
        player.close()


def test_a_jailed_player_moves_and_its_move_becomes_the_referees_own(tmp_path):
    game = variants.make(NIM)
    move = answer(tmp_path, 'return [1, 2]')
    assert move == (1, 2) and move in game.actions(game.initial) and type(move) is tuple


@pytest.mark.parametrize('body, detail', [
    ('raise KeyError("B")', "KeyError: 'B' (probe.py, line 4)"),
    ('return object()', 'TypeError: a move must be plain data'),
    ('return (7, 7)', 'illegal move (7, 7)'),
    ('time.sleep(5)', 'no move within 0.3 s'),
    ('os._exit(3)', 'its process exited with status 3'),
    ('os.write(4, b"{not json\\n"); time.sleep(5)', 'sent something that is not JSON'),
    ('os.write(4, b"[1, 2]\\n"); time.sleep(5)', 'answered [1,2], not {"move": ...}'),
    ('os.write(4, b\'{"error": "forged"}\\n\'); time.sleep(5)', 'forged'),
    ('os.write(4, b\'{"move": \' + b"[" * 700 + b"]" * 700 + b"}\\n"); time.sleep(5)',
     'sent a message nested deeper than 64 lists or objects'),
])
def test_every_fault_is_a_forfeit_with_its_reason(tmp_path, body, detail):
    """The hang waits out a short limit; the other faults show at once, so a long limit,
    which a busy machine cannot run out, costs them nothing."""
    seconds = 0.3 if detail.startswith('no move within') else 5.0
    assert detail in answer(tmp_path, body, timing=TimeControl(seconds))


def test_a_message_nested_too_deep_is_garbage_before_it_is_parsed():
    """Brackets within strings nest nothing; a message is refused, not parsed, one
    level past the limit, however long or short."""
    limit = jail.DEPTH_LIMIT
    deepest = b'[' * limit + b']' * limit
    assert jail.nesting(deepest) == limit and jail.parse(deepest) is not None
    assert jail.nesting(b'{"a": [1, {"b": "]]}[[{{\\"[["}], "c": [[]]}') == 3
    wide = b'[' + b','.join([b'[["[[[[", [1, 2]]]'] * 5000) + b']'
    assert jail.nesting(wide) == 4 and len(jail.parse(wide)) == 5000
    for line in (b'[' + deepest + b']', b'[' * 50_000, b'{"a":' * 700 + b'1' + b'}' * 700):
        with pytest.raises(jail.JailGarbled, match=f'nested deeper than {limit} lists'):
            jail.parse(line)


def test_the_player_reads_its_time_from_the_clock(tmp_path):
    told = answer(tmp_path, '''
        from games import clock
        raise RuntimeError(f"{clock.time_left():.1f} {clock.current().remaining} "
                           f"{clock.current().increment}")''',
                  timing=TimeControl(2.0, 60.0, 0.5))
    assert told.startswith('RuntimeError: 2.0 60.0 0.5') or told.startswith('RuntimeError: 1.9')


def test_a_game_clock_that_runs_out_forfeits_on_time(tmp_path):
    player = jailed(tmp_path, 'time.sleep(0.3)\nreturn game.actions(state)[0]',
                    timing=TimeControl(5.0, 0.5, 0.0))
    game = variants.make('nim')
    record = referee.play(game, [player, lambda game, state: game.actions(state)[0]],
                          isolate=False, on_move=following(player))
    player.close()
    assert record.termination == referee.TIMEOUT and record.offender == 0
    assert record.detail == 'clock ran out (0.5+0)' and record.plies == 2
    assert clock.time_left() is None  # the trusted side's own clock is never set


def test_operating_system_limits_hold_and_the_environment_is_private(tmp_path):
    told = answer(tmp_path, '''
        import resource
        limits = [resource.getrlimit(kind)[0] for kind in
                  (resource.RLIMIT_AS, resource.RLIMIT_CORE, resource.RLIMIT_FSIZE)]
        raise RuntimeError(f"{limits} {os.getsid(0) == os.getpid()} {sorted(os.environ)}")''')
    mib = 1 << 20
    assert told.startswith(f'RuntimeError: [{jail.Limits.memory_mb * mib}, 0, '
                           f"{jail.Limits.file_mb * mib}] True ['HOME', 'PATH', 'TMPDIR']")


@pytest.mark.skipif(os.geteuid() != 0, reason='only a jail started by root changes its user')
def test_a_jail_started_by_root_has_a_user_of_its_own(tmp_path):
    told = answer(tmp_path, '''
        try:
            os.kill(os.getppid(), 0)
            signalled = 'signalled its parent'
        except PermissionError:
            signalled = 'cannot signal its parent'
        raise RuntimeError(f"uid {os.getuid()}, {signalled}")''')
    uid = int(told.split()[2].rstrip(','))
    assert uid >= jail_server.UID_BASE and 'cannot signal its parent' in told


@BWRAP
def test_under_bwrap_a_player_sees_no_other_file_no_network_no_process(tmp_path):
    db = tmp_path / 'run.sqlite'
    sqlite3.connect(db).execute('CREATE TABLE games (x)').connection.close()
    before = db.read_bytes()
    told = answer(tmp_path, f'''
        import socket
        seen = []
        for path in ({OTHER_PLAYER!r}, {str(db)!r}, {os.path.dirname(OTHER_PLAYER)!r}, '/home'):
            if os.path.exists(path):
                seen.append(path)
        try:
            open({str(db)!r}, 'wb').write(b'gone')
            seen.append('wrote the db')
        except OSError:
            pass
        try:
            socket.create_connection(('127.0.0.1', 22), timeout=1)
            seen.append('network')
        except OSError:
            pass
        pids = [name for name in os.listdir('/proc') if name.isdigit()]
        raise RuntimeError(f"saw {{seen}}, {{len(pids)}} processes")''',
                  level='bwrap')
    assert told.startswith('RuntimeError: saw [], ') and db.read_bytes() == before
    processes = int(told.split('], ')[1].split()[0])
    assert processes <= 3, told


@BWRAP
def test_under_bwrap_a_player_plays_a_whole_game(tmp_path):
    player = jailed(tmp_path, 'return game.actions(state)[-1]', level='bwrap')
    record = referee.play(variants.make(NIM), [player, player], isolate=False,
                          on_move=following(player))
    player.close()
    assert record.termination == referee.NORMAL and record.plies >= 2
