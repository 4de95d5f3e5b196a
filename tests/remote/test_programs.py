"""Players in any language: programs that speak JSON lines (players.remote.program), at
both jail levels, in tournaments, in play and in the grader; each game's STATE."""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
from functools import partial

import pytest
from places import ROOT
from jails import LEVELS, adopting_orphans, outcome

import players
import tournament
import variants
from games import referee
from players.sandbox import command_jail, jail
from players.remote import player_code, program
from players.remote.jailed_player import Setup, TimeControl, event
from players.tournaments.match import Rules, play_scheduled_game
from players.reports import replay
from players.tournaments.naming import name_players
from players.tournaments.runner import run
from players.tournaments.schedule import schedule
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store
from players.tournaments.workers import WorkerPool

pytestmark = pytest.mark.slow

CLIENT = os.path.join(ROOT, 'players', 'remote', 'program_client.py')
TIMEOUT = 0.5
LINGERING = 'sleep 1234.5'
"""The command line of the process the forking program hides, unique to this test."""

BOT = '''\
#!/usr/bin/env python3
"""Simple-Nim's winning rule, as a program and as a Python player."""


def choose(state, legal):
    """Leave a pile of 1 more than a multiple of 4, else take 1 (legal[0])."""
    take = [1, (state['piles'][0] - 1) % 4]
    return take if take in legal else legal[0]


def player(game, state):
    """The same function, for a Python player: the same picture, the same moves."""
    legal = [list(move) for move in game.actions(state)]
    return tuple(choose(game.state_json(state), legal))


if __name__ == '__main__':
    from program_client import serve
    serve(lambda state, legal, history, time_left, rng: choose(state, legal))
'''

RECORDER = '''\
#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    print(line.strip(), file=sys.stderr, flush=True)
    message = json.loads(line)
    if message['type'] == 'start':
        print(json.dumps({'type': 'ready'}), flush=True)
    elif message['type'] == 'move':
        print(json.dumps({'move': message['legal'][0]}), flush=True)
'''

FIRST_MOVE_C = r'''
#include <stdio.h>
#include <string.h>

static char line[1 << 20];

int main(void) {
    while (fgets(line, sizeof line, stdin)) {
        if (strstr(line, "\"type\":\"start\"")) {
            puts("{\"type\": \"ready\"}");
        } else if (strstr(line, "\"type\":\"move\"")) {
            char *move = strchr(strstr(line, "\"legal\":"), '[') + 1, *end = move;
            int depth = 0, quoted = 0;
            for (; *end; end++) {  /* the first move ends at a ',' or ']' outside it */
                if (quoted) { if (*end == '\\') end++; else if (*end == '"') quoted = 0; }
                else if (*end == '"') quoted = 1;
                else if (*end == '[' || *end == '{') depth++;
                else if ((*end == ']' || *end == '}') && depth-- == 0) break;
                else if (*end == ',' && depth == 0) break;
            }
            printf("{\"move\": %.*s}\n", (int)(end - move), move);
        }
        fflush(stdout);
    }
    return 0;
}
'''

READY = 'read -r line; echo \'{"type": "ready"}\'; read -r line'
"""The start of a hostile program in sh: answer the start, read the first move."""
HOSTILE = {
    'garbage': (f'{READY}; echo "this is not JSON"; sleep 5', referee.ERROR,
                'sent something that is not JSON'),
    'flood': (f'{READY}; head -c 2000000 /dev/zero | tr "\\0" x; sleep 5', referee.ERROR,
              'sent a message over 65536 bytes'),
    'silent': (f'{READY}; sleep 5', referee.TIMEOUT, f'no move within {TIMEOUT:g} s'),
    'illegal': (f'{READY}; echo \'{{"move": [9, 9]}}\'; sleep 5', referee.ILLEGAL,
                'illegal move (9, 9)'),
    'quitter': (f'{READY}; echo "giving up" >&2; exit 3', referee.ERROR,
                'its process exited with status 3; its standard error ends: giving up'),
    'forker': (f'{READY}; setsid {LINGERING} & sh -c "setsid {LINGERING} &"; exit 4',
               referee.ERROR, 'its process exited with status 4'),
    'noisy': (f'{READY}; while :; do echo "noise" >&2; done', referee.TIMEOUT,
              f'no move within {TIMEOUT:g} s'),
}
"""Hostile programs: (what they do after the start, their forfeit, its reason)."""


@pytest.fixture(scope='module')
def folder():
    """A folder of programs that every user may read, as the jail's own user (a
    process jail started by root) must: the bot, the recorder and the hostiles.
    (Not under pytest's folder, which another pytest may make private at any time.)"""
    made = pathlib.Path(tempfile.mkdtemp(prefix='aima-programs-'))
    os.chmod(made, 0o755)
    shutil.copy(CLIENT, made / 'program_client.py')
    files = {'bot.py': BOT, 'recorder': RECORDER,
             **{name: f'#!/bin/sh\n{body}\n' for name, (body, _, _) in HOSTILE.items()}}
    for name, text in files.items():
        (made / name).write_text(text)
        os.chmod(made / name, 0o755)
    yield made
    shutil.rmtree(made)


def play_all(tmp_path, codes, level, gauntlet=None, variant='simple-nim'):
    """Play a round robin (or gauntlet) of the players (name: code); return the records."""
    return play_runs(tmp_path, level, [(codes, gauntlet)], variant)[0]


def play_runs(tmp_path, level, runs, variant='simple-nim', timeout=TIMEOUT):
    """Play the round robin (or gauntlet) of each (players, gauntlet) in runs, one
    after the other on the same workers, each move within timeout seconds; return
    each one's records."""
    rules = Rules(move_timeout=timeout, sandbox=level)
    found = []
    with adopting_orphans():
        with WorkerPool(2, hard_timeout=30) as executor:
            for number, (codes, gauntlet) in enumerate(runs):
                job = partial(play_scheduled_game, rules=rules, players=codes,
                              make_game=variants.make, load_player=players.load_player)
                folder = tmp_path / str(number)
                folder.mkdir(parents=True)
                store = Store(str(folder / "games.sqlite"), RunSettings(players=()))
                run(schedule(list(codes), [variant], 1, seed=3, gauntlet=gauntlet), job,
                    executor, store, in_flight=4)
                found.append(list(store.records()))
                store.close()
    return found


@pytest.mark.parametrize('level', LEVELS)
def test_a_python_program_plays_the_games_of_the_same_function_as_a_python_player(
        folder, tmp_path, level):
    as_program = {'bot': player_code.read_code(f'exec:env -C {folder} ./bot.py'),
                  **{name: player_code.read_player(name) for name in ('random', 'ab1')}}
    as_function = {**as_program, 'bot': player_code.read_player(f'{folder}/bot.py:player')}
    records = play_runs(tmp_path, level, [(as_program, None), (as_function, None)],
                        timeout=5)  # no player hangs: a limit no busy machine runs out
    assert [outcome(record) for record in records[0]] == [outcome(r) for r in records[1]]
    assert len(records[0]) == 6 and all(r.termination == referee.NORMAL for r in records[0])
    bot_games = [record for record in records[0] if 'bot' in (record.first, record.second)]
    assert sum(record.score if record.first == 'bot' else 1 - record.score
               for record in bot_games) >= 3  # it wins as the first player from 12
    told = list(replay.lines(variants.make('simple-nim'), bot_games[0]))
    assert told[-1] == "\nbot's output:\ngame over: 1-0 (normal)"  # the client's


@pytest.mark.parametrize('level', LEVELS)
def test_hostile_programs_forfeit_and_change_nothing_else(folder, tmp_path, level):
    plain_codes = {'random': player_code.read_player('random'), 'ab1': player_code.read_player('ab1')}
    codes = {**plain_codes, **{name: player_code.read_code(f'{folder}/{name}') for name in HOSTILE}}
    plain, records = play_runs(tmp_path, level, [(plain_codes, None), (codes, 'random')])
    others = [outcome(r) for r in records if {r.first, r.second} == {'random', 'ab1'}]
    assert others == [outcome(r) for r in plain]
    for record in records:
        hostile = ({record.first, record.second} - {'random', 'ab1'} or {None}).pop()
        if hostile is None:
            continue
        _, termination, reason = HOSTILE[hostile]
        assert (record.forfeit, record.termination) == (hostile, termination), record
        assert reason in record.detail
        errors = record.stderr_first if record.first == hostile else record.stderr_second
        assert len(errors) <= jail.ERRORS_LIMIT + 1
        if hostile == 'noisy':
            assert errors.startswith('…') and errors.endswith('noise\n')
    assert not _processes(LINGERING)


def _processes(command):
    """Return the pids of the processes running command, anywhere on the machine."""
    found = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as file:
                if file.read().replace(b'\0', b' ').strip() == command.encode():
                    found.append(pid)
        except OSError:
            pass
    return found


@pytest.mark.parametrize('level', LEVELS)
def test_the_program_is_told_the_game_its_seat_each_position_and_the_result(folder, level):
    game = variants.make('simple-nim')
    history = []
    recorder = program.ProgramPlayer(
        player_code.read_program(f'{folder}/recorder'),
        Setup('simple-nim', variants.make, players.load_player, level),
        '5:1', history, TimeControl(2.0, 60.0, 0.5), game=game, seat=1)
    take_three = lambda game, state: (1, 3)  # noqa: E731
    played = referee.play(game, [take_three, recorder], isolate=False,
                          on_move=lambda s, move, t: history.append(event('move', move)))
    recorder.end(played)
    messages = [json.loads(line) for line in recorder.errors().splitlines()]
    assert messages[0] == {'type': 'start', 'protocol': 1, 'game': repr(game), 'seat': 1,
                           'player': 'P2', 'time': {'move': 2.0, 'base': 60.0, 'increment': 0.5},
                           'seed': program.seed_number('5:1')}
    first_move = messages[1]
    assert first_move['type'] == 'move' and first_move['history'] == [['move', [1, 3]]]
    assert first_move['state'] == {'to_move': 'P2', 'piles': [9]}
    assert first_move['legal'] == [[1, 1], [1, 2], [1, 3]] and 0 < first_move['time_left'] <= 2
    # P1 takes 3, P2 takes 1: 12, 9, 8, 5, 4, 1, 0; P2 took the last counter and loses
    assert played.moves == [(1, 3), (1, 1)] * 3 and played.score(0) == 1
    assert messages[-1] == {'type': 'end', 'result': '1-0', 'reason': 'normal'}
    assert len(messages) == 5 and recorder.jail.status == 0  # it ended by itself


@pytest.mark.skipif(shutil.which('gcc') is None, reason='gcc is not installed')
def test_a_c_program_compiled_here_plays_legal_games(folder, tmp_path, capsys):
    (tmp_path / 'first.c').write_text(FIRST_MOVE_C)
    subprocess.run(['gcc', '-O1', '-o', str(folder / 'first'), str(tmp_path / 'first.c')],
                   check=True)
    report = tmp_path / 'run.json'
    assert tournament.main(['--players', f'c=exec:{folder}/first,random', '--variants',
                            'simple-nim', 'tictactoe', '--sandbox', 'process', '--jobs', '2',
                            '--json', str(report)]) == 0
    games = json.loads(report.read_text())['games']
    assert len(games) == 4 and all(game['termination'] == 'normal' for game in games)
    c_first = [game for game in games if game['first'] == 'c' and game['variant'] == 'tictactoe']
    assert c_first[0]['moves'][0] == [1, 1]  # the first legal square, as the program chose


def test_play_and_the_grader_take_a_program(folder, capsys):
    bot = f'exec:env -C {folder} python3 ./bot.py'  # its folder shown, for program_client
    assert tournament.main(['play', 'simple-nim', bot, 'ab1', '--sandbox', 'process']) == 0
    assert f'{bot} (P1) wins' in capsys.readouterr().out.split('\n')[-2]  # the bot wins
    status = tournament.main(['check', f'{folder}/bot.py', f'exec:{folder}/illegal',
                              '--variants', 'simple-nim', '--sandbox', 'process',
                              '--move-timeout', '2', '--jobs', '1'])
    out = capsys.readouterr().out
    assert status == 1 and 'bot: 5/29 points' in out and 'illegal: 0/5 points' in out


def test_the_grader_says_a_program_gets_its_players_checks_only(folder, capsys):
    assert tournament.main(['check', f'exec:env -C {folder} ./bot.py', '--variants', 'simple-nim',
                            '--sandbox', 'process', '--move-timeout', '2']) == 0
    lines = capsys.readouterr().out.replace('\n  ', ' ').splitlines()  # wrapped lines joined
    assert 'only its player is checked (the search checks need Python functions)' in lines[1]
    assert lines[2].startswith('PASS 2/2 player: legal moves') and lines[-1].startswith(
        'Total: 5/5 points')


@pytest.mark.parametrize('spec, error', [
    ('exec:./no-such-bot', "no program file './no-such-bot'"),
    ('exec:no-such-command --flag', "cannot find the command 'no-such-command'"),
    ('exec:"unclosed', 'cannot read the command'),
    ('exec:', 'names no command'),
])
def test_a_program_that_cannot_be_run_is_a_usage_error(spec, error, capsys):
    with pytest.raises(SystemExit) as stop:
        tournament.main(['--players', f'{spec},random', '--variants', 'simple-nim'])
    assert stop.value.code == 2 and error in capsys.readouterr().err


def test_a_program_that_fails_to_start_is_refused_before_play_if_strict(folder, tmp_path,
                                                                       capsys):
    broken = folder / 'broken'
    broken.write_text('#!/bin/sh\necho "missing library" >&2\nexit 1\n')
    os.chmod(broken, 0o755)
    with pytest.raises(SystemExit) as stop:
        tournament.main(['--players', f'{broken},random', '--variants', 'simple-nim',
                         '--sandbox', 'process', '--db', str(tmp_path / 'run.sqlite'),
                         '--strict'])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "player 'broken' cannot play: cannot start: its process " \
        'exited with status 1; its standard error ends: missing library' in err
    assert not (tmp_path / 'run.sqlite').exists()


def test_programs_are_named_by_the_file_or_folder_they_name(folder, monkeypatch):
    tmp_path = folder / 'named'  # every user may read it, as a program's jail must
    tmp_path.mkdir()
    monkeypatch.chdir(tmp_path)
    for path in ('subs/alice', 'subs/bob', 'other/alice'):
        os.makedirs(path)
    (tmp_path / 'bot').write_text('')
    os.chmod(tmp_path / 'bot', 0o755)
    names = name_players(['exec:java -cp subs/alice Bot', 'exec:java -cp other/alice Bot',
                          'exec:java -cp subs/bob Bot', './bot', 'exec:python3 -u'])
    assert list(names) == ['subs/alice', 'other/alice', 'bob', 'bot', 'python3']
    code = player_code.read_program('exec:java -Xmx64m -cp subs/bob:bot Bot')
    bob, bot = str(tmp_path / 'subs/bob'), str(tmp_path / 'bot')
    assert code.argv == ('java', '-Xmx64m', '-cp', f'{bob}:{bot}', 'Bot')
    assert code.paths == (bob, bot) and code.workdir == bob


def test_a_program_its_jail_cannot_read_is_refused_saying_what_to_do(folder):
    private = folder / 'private'
    private.mkdir(mode=0o700)
    shutil.copy(folder / 'bot.py', private / 'bot.py')
    spec = f'exec:python3 {private}/bot.py'
    if os.geteuid() != 0:
        assert player_code.read_program(spec).paths == (f'{private}/bot.py',)
        return
    with pytest.raises(player_code.SubmissionError, match=f'runs as a user of its own, which '
                       f'cannot read {private}: let every user read it .chmod -R a.rX'):
        player_code.read_program(spec)
    os.chmod(private, 0o755)
    os.chmod(private / 'bot.py', 0o600)
    with pytest.raises(player_code.SubmissionError, match=f'cannot read {private}/bot.py'):
        player_code.read_program(spec)


def test_every_game_pictures_its_state_as_json():
    """Each game's STATE, built by playing moves from the start, checked square by square."""
    ttt = variants.make('tictactoe')
    state = ttt.result(ttt.result(ttt.initial, (1, 1)), (3, 2))
    assert ttt.state_json(state) == {'to_move': 'X', 'rows': ['X..', '..O', '...']}
    four = variants.make('connect4')
    state = four.result(four.result(four.initial, (4, 1)), (4, 2))
    assert four.state_json(state)['rows'][:3] == ['...X...', '...O...', '.......']
    grundy = variants.make('split-nim')
    assert grundy.state_json(grundy.result(grundy.initial, (1, 2))) == {'to_move': 'P2',
                                                                        'piles': [5, 2]}
    dice = variants.make('dice-nim')
    rolled = dice.outcome(dice.initial, 2)
    assert dice.state_json(rolled) == {'to_move': 'P1', 'piles': [2, 3], 'roll': 2}
    gammon = variants.make('backgammon')
    start = gammon.state_json(gammon.outcome(gammon.initial, (3, 5)))
    assert start['roll'] == [3, 5] and start['bar'] == start['off'] == [0, 0]
    assert start['points'][23] == 2 and start['points'][0] == -2  # W's back checkers on 24
    assert sum(n for n in start['points'] if n > 0) == 15
    assert variants.make('fig52').state_json(variants.make('fig52').initial) == {
        'to_move': 'MAX', 'node': 'A'}
    for name in variants.VARIANTS:
        json.dumps(variants.make(name).state_json(variants.make(name).initial))


def test_a_program_that_does_not_read_its_input_cannot_block_the_referee():
    """Messages wait on the trusted side until the program reads them; past a
    limit, it is garbled."""
    quiet = command_jail.CommandJail(['sleep', '5'])
    try:
        quiet.send({'padding': 'x' * 100_000})  # more than a pipe holds, at once
        with pytest.raises(jail.JailGarbled):
            for _ in range(20):
                quiet.send({'padding': 'x' * 100_000})
    finally:
        quiet.close()


def test_a_run_stored_before_programs_came_resumes(tmp_path):
    """A --db whose games table has no stderr columns takes new games, the columns
    added (and what each player wrote with them)."""
    path = str(tmp_path / 'old.sqlite')
    store = Store(path, RunSettings(players=()))
    store.connection.execute('ALTER TABLE games DROP COLUMN stderr_first')
    store.connection.execute('ALTER TABLE games DROP COLUMN stderr_second')
    store.close()
    record = play_all(tmp_path / 'new', {'random': player_code.read_player('random'),
                                         'ab1': player_code.read_player('ab1')}, 'process')[0]
    store = Store(path, RunSettings(players=()), resume=True)
    store.add(record)
    assert record.stderr_first == record.stderr_second == ''  # shipped players print nothing
    assert list(store.records()) == [record]
    store.close()
