"""OpenSpiel's games as variants: move counts against pyspiel's own, the games and
parameters refused, moves as pairs of an action number and its text, and a
tournament with its reports, a replay against pyspiel's texts, a student's file in
both jails, a program over the protocol, the grader's player checks and PettingZoo's
api_test on some of them."""

import json
import os
import pathlib
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import warnings

import pytest
from jails import LEVELS
from places import ROOT

pyspiel = pytest.importorskip('pyspiel', reason="OpenSpiel's games need pyspiel: "
                              "pip install -e '.[rl]'")

import variants  # noqa: E402 (after the skip)
from command_line import run  # noqa: E402
from games import IllegalMoveError, game_files  # noqa: E402
from games.openspiel_game import OpenSpielState, accepted  # noqa: E402

pytestmark = pytest.mark.slow

SMALL = 'openspiel:breakthrough(rows=5,columns=5)'
"""The variant of the jails' games: short ones."""
PLAYER = '''
def player(game, state):
    """Take the first move, read back from its text as a person would type it."""
    first = game.actions(state)[0]
    action, text = first
    assert game.parse_move(text, state) == first == (action, game.typed_move(first))
    return first
'''
"""A student's file, which asks the game in its jail for OpenSpiel's texts."""
PROGRAM = '''#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message['type'] == 'start':
        print(json.dumps({'type': 'ready'}), flush=True)
    elif message['type'] == 'move':
        legal = message['legal']
        print(json.dumps(legal), file=sys.stderr, flush=True)
        centre = [move for move in legal if move[1].endswith('(1,1)')]
        print(json.dumps({'move': (centre or legal)[0]}), flush=True)
'''
"""A program over the protocol: it takes the centre, found by its text, if it can."""


def tournament(*args, timeout=120):
    """Run python tournament.py with args; return what it printed, having checked
    that it succeeded."""
    done = subprocess.run([sys.executable, os.path.join(ROOT, 'tournament.py'), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    return done.stdout


def pyspiel_texts(name, actions):
    """OpenSpiel's texts of a game's actions, each for the player to move where it was
    played, replayed in pyspiel from the start."""
    state, texts = pyspiel.load_game(name).new_initial_state(), []
    for action in actions:
        texts.append(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    return texts


def pyspiel_count(state, depth):
    """The move sequences of length depth from a pyspiel state, walked in pyspiel."""
    if depth == 0 or state.is_terminal():
        return 1 if depth == 0 else 0
    return sum(pyspiel_count(state.child(action), depth - 1) for action in state.legal_actions())


def game_count(game, state, depth):
    """The same count through the Game API."""
    if depth == 0 or game.terminal_test(state):
        return 1 if depth == 0 else 0
    return sum(game_count(game, game.result(state, move), depth - 1)
               for move in game.actions(state))


@pytest.mark.parametrize('spec, name, params, depth', [
    ('openspiel:tic_tac_toe', 'tic_tac_toe', {}, 4),
    ('openspiel:breakthrough(rows=6,columns=6)', 'breakthrough', {'rows': 6, 'columns': 6}, 3),
    ('openspiel:clobber(rows=4, columns=4)', 'clobber', {'rows': 4, 'columns': 4}, 3),
    ('openspiel:dots_and_boxes(num_rows=2,num_cols=2)', 'dots_and_boxes',
     {'num_rows': 2, 'num_cols': 2}, 4),
    ('openspiel:amazons(board_size=6)', 'amazons', {'board_size': 6}, 3),
    ('openspiel:go(board_size=5)', 'go', {'board_size': 5}, 2),
    ('openspiel:checkers', 'checkers', {}, 4),
    ('openspiel:chess', 'chess', {}, 2),
])
def test_perft_from_the_start_is_pyspiels(spec, name, params, depth):
    game = variants.make(spec)
    expected = pyspiel_count(pyspiel.load_game(name, params).new_initial_state(), depth)
    assert game_count(game, game.initial, depth) == expected > 0


def test_states_are_plain_data_and_the_spec_is_canonical():
    game = variants.make('openspiel:breakthrough( rows=8, columns=6 )')
    assert repr(game) == 'openspiel:breakthrough(columns=6)'  # rows=8 is the default
    assert repr(variants.make(repr(game))) == repr(game)
    state = game.result(game.initial, game.actions(game.initial)[0])
    assert json.loads(json.dumps(state)) == [state.to_move, list(state.history)] and hash(state)
    assert json.loads(json.dumps(game.state_json(state)))['history'] == list(state.history)
    assert not game_files.is_file_spec('openspiel:chess')
    assert not game_files.is_file_spec('openspiel:go(board_size=5)')


def test_a_random_game_of_chess_ends_and_its_seats_follow_openspiel():
    game, rng = variants.make('openspiel:chess'), random.Random(3)
    assert game.players == ('P1', 'P0')  # OpenSpiel's White is player 1, and moves first
    state = game.initial
    while not game.terminal_test(state):
        state = game.result(state, rng.choice(game.actions(state)))
    assert game.utility(state, 'P0') == -game.utility(state, 'P1')
    assert game.to_move(state) == game.players[len(state.history) % 2]  # who would move next


def test_moves_are_typed_as_openspiel_writes_them():
    game = variants.make('openspiel:chess')
    start = game.initial
    moves = game.actions(start)
    assert moves[0] == (89, 'a3') and {game.typed_move(move) for move in moves} >= {'e4', 'Nf3'}
    assert all(game.parse_move(game.typed_move(move), start) == move for move in moves)
    assert game.parse_move(' nf3 ', start) == game.parse_move('Nf3', start)
    assert game.parse_move(' 89', start) == (89, 'a3')
    with pytest.raises(ValueError, match="OpenSpiel's moves"):
        game.parse_move('Ke9', start)
    with pytest.raises(ValueError, match='action 0 is not legal here'):
        game.parse_move('0', start)
    after = game.result(start, game.parse_move('e4', start))
    assert game.board_text(after, after.history[-1]).endswith('last move: e4')
    assert game.describe_state(after).startswith('P0 rnbqkbnr/pppppppp/8/8/4P3/')


def test_a_move_carries_its_text_where_it_is_legal_and_a_bare_number_is_no_move():
    game = variants.make('openspiel:chess')
    start = game.initial
    a3 = game.parse_move('a3', start)
    after = game.result(start, game.parse_move('e4', start))
    a6 = game.parse_move('a6', after)
    assert a3 == (89, 'a3') and a6 == (89, 'a6') and a6 in game.actions(after)  # one number
    game.board_text(game.initial)  # another position shown: a move still names itself
    assert [game.typed_move(move) for move in (a3, a6)] == ['a3', 'a6']
    assert [game.describe_move(move) for move in (a3, a6)] == ['a3', 'a6']
    assert game.action_number(a6) == 89
    assert game.result(after, (89.0, 'a6')).history == after.history + (89,)
    for wrong in (a3, 89, [89, 'a6']):  # White's a3 in Black's turn, a bare number, a list
        with pytest.raises(IllegalMoveError, match=r"a move is one of actions\(state\), such as"):
            game.result(after, wrong)


def test_action_numbers_are_the_moves_numbers_and_observations_are_openspiels():
    game = variants.make('openspiel:tic_tac_toe')
    state = game.result(game.initial, game.parse_move('4', game.initial))
    assert game.actions(state)[0] == (0, 'o(0,0)')
    assert game.action_count() == 9 and [game.action_number(move) for move in game.actions(state)] \
        == [0, 1, 2, 3, 5, 6, 7, 8]
    planes = game.observation(state, 'P1')  # OpenSpiel's: empty, o and x planes of 3 x 3
    assert planes[2][1][1] == 1.0 and planes[0][1][1] == 0.0 and len(planes) == 3


def test_an_illegal_move_or_a_forged_history_is_refused():
    game = variants.make('openspiel:tic_tac_toe')
    state = game.result(game.initial, (4, 'x(1,1)'))
    with pytest.raises(IllegalMoveError):
        game.result(state, (4, 'o(1,1)'))
    with pytest.raises(IllegalMoveError):
        game.actions(OpenSpielState('P0', (4, 4)))


def test_pettingzoos_api_test_passes_on_an_openspiel_variant(capsys):
    pytest.importorskip('pettingzoo', reason="PettingZoo comes with pip install -e '.[rl]'")
    with warnings.catch_warnings():  # PettingZoo's checks warn of style and of its old ways
        warnings.simplefilter('ignore')
        from pettingzoo.test import api_test
        api_test(variants.environment('openspiel:tic_tac_toe'), num_cycles=200)
    assert 'Passed API test' in capsys.readouterr().out


@pytest.mark.parametrize('spec, said, lists', [
    ('openspiel:kuhn_poker', "OpenSpiel's kuhn_poker has chance and imperfect information; ",
     True),
    ('openspiel:goofspiel', "OpenSpiel's goofspiel has simultaneous moves and chance; ", True),
    ('openspiel:backgammon', "OpenSpiel's backgammon has chance; ", True),
    ('openspiel:no_such_game', "OpenSpiel has no game 'no_such_game'; ", True),
    ('openspiel:chinese_checkers(players=3)', 'has 3 players: only two-player games', False),
    ('openspiel:breakthrough(size=5)', "has no parameter 'size'; its parameters: columns, rows",
     False),
    ("openspiel:breakthrough(rows='6')", 'openspiel:breakthrough: rows must be a whole number',
     False),
    ('openspiel:go(board_size=0)', 'OpenSpiel refuses openspiel:go(board_size=0): ', False),
    ('openspiel:go(board_size=', "malformed game spec 'openspiel:go(board_size='", False),
])
def test_refused_games_and_parameters_are_one_line_errors(spec, said, lists):
    with pytest.raises(ValueError) as refused:
        variants.make(spec)
    message = str(refused.value)
    assert said in message and '\n' not in message
    listed = f"; {len(accepted())} of OpenSpiel's games play here (see docs/openspiel.md)"
    assert message.endswith(listed) == lists and len(message) < 120


def test_the_command_line_refuses_in_one_line():
    done = run('play', 'openspiel:kuhn_poker', 'random', 'random')
    assert done.returncode == 2 and 'Traceback' not in done.stderr
    assert done.stderr.count('\n') == 1 and "OpenSpiel's kuhn_poker has chance" in done.stderr


def test_without_pyspiel_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, 'pyspiel', None)  # import pyspiel raises ImportError
    done = run('play', 'openspiel:chess', 'random', 'random')
    assert done.returncode == 2 and done.stderr.count('\n') == 1
    assert "pip install -e '.[rl]'" in done.stderr


@pytest.fixture(scope='module')
def played(tmp_path_factory):
    """A tournament of random and ab1 on chess and tic-tac-toe: its results file, its
    HTML report and what it printed. Its seed makes the games of chess short (229 and
    78 plies with open-spiel 2.0.2; 863 and 292 with seed 0)."""
    db = str(tmp_path_factory.mktemp('openspiel') / 'run.sqlite')
    html = db.replace('.sqlite', '.html')
    printed = tournament('--players', 'random,ab1', '--variants', 'openspiel:chess',
                         'openspiel:tic_tac_toe', '--seed', '4', '--db', db, '--html', html)
    return db, html, printed


def records(db):
    """Each stored game's number, OpenSpiel's name of its game and its moves, as JSON."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute('SELECT "index", variant, moves FROM games').fetchall()
    return [(index, variant.removeprefix('openspiel:'), json.loads(moves))
            for index, variant, moves in rows]


def test_a_tournament_plays_and_reports_moves_by_their_texts(played):
    db, html, printed = played
    assert 'Standings: openspiel:chess' in printed and 'Standings: openspiel:tic_tac_toe' \
        in printed and 'All 4 games ended on the board.' in printed
    page = open(html, encoding='utf-8').read()
    data = re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1)
    listed = {game['index']: [text for _, text in game['moves']]
              for game in json.loads(data.replace('<\\/', '</'))['games']}
    for index, name, moves in records(db):
        assert all(type(action) is int and type(text) is str for action, text in moves)
        assert listed[index] == [text for _, text in moves] \
            == pyspiel_texts(name, [action for action, _ in moves])


def test_a_recorded_game_of_chess_replays_with_openspiels_texts(played):
    db, _, _ = played
    index, name, moves = next(record for record in records(db) if record[1] == 'chess')
    shown = tournament('replay', '--db', db, str(index))
    expected = pyspiel_texts(name, [action for action, _ in moves])
    assert re.findall(r'^\d+\. \S+ \(P[01]\): (.+)$', shown, re.M) == expected
    assert re.findall(r'^last move: (.+)$', shown, re.M) == expected
    assert len(expected) >= 5


PROBE = '''
def player(game, state):
    """Play the first move, having found pyspiel importable only in OpenSpiel's games."""
    try:
        import pyspiel  # noqa: F401
        found = True
    except ImportError:
        found = False
    if found != repr(game).startswith('openspiel:'):
        raise RuntimeError(f'pyspiel importable: {found}, in {game!r}')
    first = game.actions(state)[0]
    if found:  # a move read back from its text, as a person would type it
        assert game.parse_move(first[1], state) == first == (first[0], game.typed_move(first))
    return first
'''
"""A student's file that forfeits where pyspiel can be imported in a game not
OpenSpiel's (its C++ bots would play for it), or cannot in one that is; in
OpenSpiel's, it asks the game in its jail for OpenSpiel's texts."""


@pytest.mark.parametrize('level', LEVELS)
def test_a_students_file_plays_in_a_jail_and_pyspiel_reaches_only_openspiels(tmp_path, level):
    probe, db = tmp_path / 'probe.py', str(tmp_path / 'run.sqlite')
    probe.write_text(PROBE)
    tournament('--players', f'{probe},random', '--variants', SMALL, 'simple-nim',
               '--sandbox', level, '--db', db)
    with sqlite3.connect(db) as connection:
        endings = connection.execute('SELECT variant, termination, detail FROM games').fetchall()
    assert sorted(endings) == sorted([(SMALL, 'normal', '')] * 2
                                     + [('simple-nim', 'normal', '')] * 2), endings


@pytest.fixture
def programs(tmp_path):
    """The program centre, and number, which answers the first legal move's number
    alone, in a folder every user may read, as a process jail's own user must (not
    under pytest's folder, which is private); and a results file."""
    made = pathlib.Path(tempfile.mkdtemp(prefix='aima-openspiel-'))
    os.chmod(made, 0o755)
    for name, text in (('centre', PROGRAM),
                       ('number', PROGRAM.replace('(centre or legal)[0]', 'legal[0][0]'))):
        (made / name).write_text(text)
        os.chmod(made / name, 0o755)
    yield made / 'centre', made / 'number', str(tmp_path / 'run.sqlite')
    shutil.rmtree(made)


def test_a_program_gets_and_answers_pairs_as_lists_and_a_bare_number_forfeits(programs):
    centre, number, db = programs
    tournament('--players', f'exec:{centre},exec:{number}', '--variants', 'openspiel:tic_tac_toe',
               '--sandbox', 'process', '--db', db)
    with sqlite3.connect(db) as connection:
        rows = connection.execute('SELECT first, termination, forfeit, detail, moves, '
                                  'stderr_first FROM games ORDER BY "index"').fetchall()
    assert [(first, termination, forfeit) for first, termination, forfeit, *_ in rows] \
        == [('centre', 'illegal move', 'number'), ('number', 'illegal move', 'number')]
    (_, _, _, detail, moves, offered), (_, _, _, other, _, _) = rows
    assert json.loads(moves) == [[4, 'x(1,1)']] and json.loads(offered)[4] == [4, 'x(1,1)']
    assert detail.startswith("illegal move 0; legal moves are [(0, 'o(0,0)'), ")
    assert other.startswith("illegal move 0; legal moves are [(0, 'x(0,0)'), ")


def test_the_graders_player_checks_play_it(tmp_path):
    mine = tmp_path / 'mine.py'
    mine.write_text(PLAYER)
    done = subprocess.run([sys.executable, os.path.join(ROOT, 'tournament.py'), 'check', str(mine),
                           '--functions', 'player', '--variants', SMALL, '--sandbox', 'process'],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert f'PASS 2/2 player: legal moves: legal moves in 2 games against random on {SMALL}' \
        in ' '.join(done.stdout.split()), done.stdout + done.stderr
