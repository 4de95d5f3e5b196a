"""OpenSpiel's games as variants: move counts against pyspiel's own, the games and
parameters refused, moves as people type them, and a tournament, a replay, a
student's file in both jails and the grader's player checks on one of them."""

import json
import os
import random
import sqlite3
import subprocess
import sys

import pytest
from jails import LEVELS
from places import ROOT

pyspiel = pytest.importorskip('pyspiel', reason="OpenSpiel's games need pyspiel: "
                              "pip install -e '.[rl]'")

import variants  # noqa: E402 (after the skip)
from command_line import run  # noqa: E402
from games import IllegalMoveError, game_files  # noqa: E402
from games.openspiel_game import OpenSpielState  # noqa: E402

pytestmark = pytest.mark.slow

SMALL = 'openspiel:breakthrough(rows=5,columns=5)'
"""The variant of the tournaments here: short games."""
PLAYER = '''
def player(game, state):
    """Take the first move, read back from its text as a person would type it."""
    first = game.actions(state)[0]
    assert game.parse_move(game.typed_move(first), state) == first
    return first
'''
"""A student's file, which asks the game in its jail for OpenSpiel's texts."""


def tournament(*args, timeout=120):
    """Run python tournament.py with args; return what it printed, having checked
    that it succeeded."""
    done = subprocess.run([sys.executable, os.path.join(ROOT, 'tournament.py'), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    return done.stdout


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
    assert {game.typed_move(move) for move in moves} >= {'e4', 'Nf3', 'a3'}
    assert all(game.parse_move(game.typed_move(move), start) == move for move in moves)
    assert game.parse_move(' nf3 ', start) == game.parse_move('Nf3', start)
    assert game.parse_move(str(moves[0]), start) == moves[0]
    with pytest.raises(ValueError, match="OpenSpiel's moves"):
        game.parse_move('Ke9', start)
    after = game.result(start, game.parse_move('e4', start))
    assert game.board_text(after, after.history[-1]).endswith('last move: e4')
    assert game.describe_state(after).startswith('P0 rnbqkbnr/pppppppp/8/8/4P3/')


def test_a_move_is_named_where_it_was_listed_or_played_else_by_its_number():
    game = variants.make('openspiel:chess')
    start = game.initial
    e4, a3 = game.parse_move('e4', start), game.parse_move('a3', start)
    after = game.result(start, e4)
    assert game.typed_move(e4) == game.describe_move(e4) == 'e4'  # as a move is announced
    assert a3 in game.actions(after) and game.typed_move(a3) == 'a6'  # one number, two texts
    game.board_text(after)
    assert game.typed_move(a3) == str(a3)  # a replay's list of moves: which position is unsaid


def test_moves_are_their_own_action_numbers_and_observations_are_openspiels():
    game = variants.make('openspiel:tic_tac_toe')
    state = game.result(game.initial, 4)
    assert game.action_count() == 9 and [game.action_number(move) for move in game.actions(state)] \
        == [0, 1, 2, 3, 5, 6, 7, 8]
    planes = game.observation(state, 'P1')  # OpenSpiel's: empty, o and x planes of 3 x 3
    assert planes[2][1][1] == 1.0 and planes[0][1][1] == 0.0 and len(planes) == 3


def test_an_illegal_move_or_a_forged_history_is_refused():
    game = variants.make('openspiel:tic_tac_toe')
    state = game.result(game.initial, 4)
    with pytest.raises(IllegalMoveError):
        game.result(state, 4)
    with pytest.raises(IllegalMoveError):
        game.actions(OpenSpielState('P0', (4, 4)))


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
    assert ('play here: amazons, antichess, breakthrough, ' in message) == lists


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
    """A tournament of random and ab2 on an OpenSpiel variant: its results file and
    what it printed."""
    db = str(tmp_path_factory.mktemp('openspiel') / 'run.sqlite')
    printed = tournament('--players', 'random,ab2', '--variants', SMALL, '--db', db,
                         '--html', db.replace('.sqlite', '.html'))
    return db, printed


def test_a_tournament_plays_and_reports(played):
    db, printed = played
    assert f'Standings: {SMALL}' in printed and 'All 2 games ended on the board.' in printed
    assert os.path.getsize(db.replace('.sqlite', '.html')) > 0


def test_a_recorded_game_replays(played):
    db, _ = played
    shown = tournament('replay', '--db', db, '0')
    assert shown.count('last move: ') >= 5 and ('random wins' in shown or 'ab2 wins' in shown)


@pytest.mark.parametrize('level', LEVELS)
def test_a_students_file_plays_in_a_jail(tmp_path, level):
    mine, db = tmp_path / 'mine.py', str(tmp_path / 'run.sqlite')
    mine.write_text(PLAYER)
    tournament('--players', f'{mine},random', '--variants', SMALL, '--sandbox', level, '--db', db)
    with sqlite3.connect(db) as connection:
        endings = connection.execute('SELECT termination FROM games').fetchall()
    assert endings == [('normal',), ('normal',)]


def test_the_graders_player_checks_play_it(tmp_path):
    mine = tmp_path / 'mine.py'
    mine.write_text(PLAYER)
    done = subprocess.run([sys.executable, os.path.join(ROOT, 'tournament.py'), 'check', str(mine),
                           '--functions', 'player', '--variants', SMALL, '--sandbox', 'process'],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert f'PASS 2/2 player: legal moves: legal moves in 2 games against random on {SMALL}' \
        in ' '.join(done.stdout.split()), done.stdout + done.stderr
