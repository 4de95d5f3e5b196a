"""A course folder: tournament.toml (or pyproject.toml's [tool.aima-games]) in the
working folder gives the round robin's and check's options their defaults; the
command line wins; a bad key or value is one line naming it and the file."""

import argparse
import os
import shutil

import pytest
from places import TESTS

import tournament
from command_line import run
from players.cli import course
from players.cli.tournament_options import ArgumentParser

pytestmark = pytest.mark.slow

STUDENTS = os.path.join(TESTS, 'students')
FIRST_MOVE = 'def player(game, state):\n    return game.actions(state)[0]\n'
LAST_MOVE = 'def player(game, state):\n    return game.actions(state)[-1]\n'
COURSE = '''\
variants = ["nim(piles=(2, 3))"]
players = ["random", "ab1"]
submissions = "class"
games = 1
jobs = 2
move-timeout = 5
sandbox = "process"

[check]
functions = ["alpha_beta_search"]
variants = ["simple-nim"]
timeout = 2
move-timeout = 2
sandbox = "process"
'''


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A course's folder, the working folder: its class of two students' files."""
    (tmp_path / 'class').mkdir()
    (tmp_path / 'class' / 'alice.py').write_text(FIRST_MOVE)
    (tmp_path / 'class' / 'bob.py').write_text(LAST_MOVE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def course_line(header: str) -> str:
    """The header's line that names the course file, checked to fit 100 columns."""
    [line] = [line for line in header.splitlines() if line.startswith('Course settings: ')]
    assert len(line) <= 100
    return line


def played(done) -> str:
    """The header of a tournament that ran and ended well."""
    assert done.returncode == 0, done.stderr
    return done.stdout.split('\n\n')[0]


def test_a_course_folder_plays_its_tournament_with_no_options(folder):
    (folder / 'tournament.toml').write_text(COURSE)
    header = played(run())
    assert header.startswith('Round robin: 4 players, 1 variant, 12 games')
    assert course_line(header).endswith(f'{os.sep}tournament.toml')
    assert 'Players: random, ab1, alice, bob' in header
    assert 'Variants: nim(piles=(2, 3))' in header and 'Time: 5 s a move' in header
    assert 'cannot play' not in header


def test_the_command_line_wins_over_the_course_file(folder):
    (folder / 'tournament.toml').write_text(COURSE)
    header = played(run('--variants', 'simple-nim', '--players', 'ab2', '--move-timeout', '3'))
    assert 'Players: ab2, alice, bob' in header
    assert 'Variants: simple-nim' in header and 'Time: 3 s a move' in header


def test_pyproject_toml_holds_a_course_in_its_tool_table(folder):
    table = COURSE.replace('[check]', '[tool.aima-games.check]')
    (folder / 'pyproject.toml').write_text('[project]\nname = "course"\n\n[tool.aima-games]\n'
                                           + table)
    header = played(run('--games', '2'))
    assert header.startswith('Round robin: 4 players, 1 variant, 24 games')
    assert course_line(header).endswith(f'{os.sep}pyproject.toml')
    (folder / 'tournament.toml').write_text('players = ["random", "ab2"]\n')
    assert 'Players: random, ab2\n' in played(run())  # tournament.toml comes first


def test_a_folder_without_a_course_file_has_no_course(folder):
    (folder / 'pyproject.toml').write_text('[project]\nname = "other"\n')
    assert tournament.build_parser().parse_args([]).course is None


def test_check_takes_the_course_files_check_table(folder):
    (folder / 'tournament.toml').write_text(COURSE)
    shutil.copy(os.path.join(STUDENTS, 'only_alpha_beta.py'), folder / 'mine.py')
    done = run('check', 'mine.py')
    assert done.returncode == 0, done.stdout + done.stderr  # only alpha_beta_search asked for
    first = done.stdout.splitlines()[0]
    assert '2 s for each search check' in first and '2 s for each move' in first
    assert 'simple-nim' in done.stdout and 'minmax_decision' not in done.stdout
    done = run('check', 'mine.py', '--functions', 'alpha_beta_search,minmax_decision')
    assert done.returncode == 1 and 'minmax_decision' in done.stdout


def test_paths_in_a_course_file_are_relative_to_its_folder(tmp_path):
    (tmp_path / 'tournament.toml').write_text('submissions = "class"\ndb = "/runs/r.sqlite"\n'
                                              '[check]\ncases = "cases.json"\n')
    parser, check = argparse.ArgumentParser(), ArgumentParser()
    parser.add_argument('--submissions')
    parser.add_argument('--db')
    check.add_argument('--cases')
    course.apply(parser, check, str(tmp_path))
    assert parser.parse_args([]).submissions == str(tmp_path / 'class')
    assert parser.parse_args([]).db == '/runs/r.sqlite'
    assert parser.parse_args([]).course == str(tmp_path / 'tournament.toml')
    assert check.parse_args([]).cases == str(tmp_path / 'cases.json')


@pytest.mark.parametrize('name, text, error', [
    ('tournament.toml', 'games = -1\n',
     'tournament.toml: games: expected at least 1, got -1'),
    ('tournament.toml', 'players = ["random"]\ngamez = 2\n', 'tournament.toml: gamez: unknown key'),
    ('tournament.toml', 'players = "random,ab2"\n',
     'tournament.toml: players: expected a list of strings'),
    ('tournament.toml', 'strict = "yes"\n', 'tournament.toml: strict: expected true or false'),
    ('tournament.toml', 'sandbox = "none"\n', "tournament.toml: sandbox: invalid choice: 'none'"),
    ('tournament.toml', 'anchors = ["random"]\n', 'tournament.toml: anchors: expected a table'),
    ('tournament.toml', 'seed = 1.5\n', "tournament.toml: seed: invalid int value: '1.5'"),
    ('tournament.toml', '[check]\ngames = 2\n', 'tournament.toml: check.games: unknown key'),
    ('tournament.toml', '[check]\ntimeout = "soon"\n',
     "tournament.toml: check.timeout: expected seconds, got 'soon'"),
    ('tournament.toml', 'games = 1\nseed = \n',
     'tournament.toml: not a readable TOML file: Invalid value (at line 2'),
    ('pyproject.toml', '[tool.aima-games]\nmove-timeout = 0\n',
     'pyproject.toml: tool.aima-games.move-timeout: expected a positive number of seconds'),
])
def test_a_bad_course_file_is_one_line_naming_the_key_and_the_file(folder, name, text, error):
    (folder / name).write_text(text)
    for command in ([], ['check', 'mine.py']):
        done = run(*command)
        assert done.returncode == 2 and done.stdout == ''
        assert done.stderr.startswith(f'tournament: error: {error}')
        assert done.stderr.count('\n') == 1


def test_a_bad_value_fails_as_the_same_option_on_the_command_line(folder):
    (folder / 'tournament.toml').write_text('games = -1\n')
    in_file = run().stderr.partition('games: ')[2]
    (folder / 'tournament.toml').unlink()
    assert run('--games', '-1').stderr.partition('--games: ')[2] == in_file
