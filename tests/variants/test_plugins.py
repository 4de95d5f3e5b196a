"""Installed plugins: a course's package, built in a temporary folder and installed
into a venv of its own, gives a Konane-like game, a variant and a player through
entry points; `list`, the round robin at both jail levels, the HTML report and
replay use them, nothing of this project edited. A broken plugin (a game without
its utility among them) is one line and skipped, and a student's player cannot
reach the plugin's files or add a plugin."""

import json
import os
import subprocess
import sys
import sysconfig
import textwrap

import pytest
from places import ROOT
from jails import LEVELS

pytestmark = pytest.mark.slow



def documented_pyproject():
    """The plugin's pyproject.toml as docs/extending.md shows it."""
    with open(os.path.join(ROOT, 'docs', 'extending.md'), encoding='utf-8') as file:
        page = file.read()
    return page.split('### An installed plugin')[1].split('```toml\n')[1].split('```')[0]


KONANE = '''
"""Konane on a small board: jump an opponent's stone into the empty square behind it."""

from collections import namedtuple

from games import Game

State = namedtuple('State', 'to_move, board')
SIX = 'konane(size=6)'


class Konane(Game):
    """Konane: jump a stone of the other colour, in a line, into an empty square."""

    name = 'konane'
    players = ('B', 'W')

    def __init__(self, size: int = 4):
        self.size = size
        rows = [''.join('BW'[(x + y) % 2] for x in range(size)) for y in range(size)]
        rows[0] = '..' + rows[0][2:]  # the opening takes off two stones
        self.initial = State('B', tuple(rows))

    def params(self):
        return {'size': self.size}

    def actions(self, state):
        moves = []
        for y, row in enumerate(state.board):
            for x, stone in enumerate(row):
                if stone != state.to_move:
                    continue
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    over, to = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
                    if (self.at(state, over) not in ('.', None, stone)
                            and self.at(state, to) == '.'):
                        moves.append(((x, y), to))
        return moves

    def at(self, state, square):
        x, y = square
        return state.board[y][x] if 0 <= x < self.size and 0 <= y < self.size else None

    def result(self, state, move):
        (x, y), (x2, y2) = move
        board = [list(row) for row in state.board]
        board[y2][x2], board[y][x] = board[y][x], '.'
        board[(y + y2) // 2][(x + x2) // 2] = '.'
        return State('W' if state.to_move == 'B' else 'B', tuple(map(''.join, board)))

    def terminal_test(self, state):
        return not self.actions(state)

    def utility(self, state, player):
        if self.actions(state):
            return 0
        return -1 if player == state.to_move else 1  # who cannot move loses

    def board_text(self, state, last_move=None):
        return '\\n'.join(state.board)
'''
STAFF = '''
def staff_player(game, state):
    """The staff's player: the last legal move."""
    return game.actions(state)[-1]
'''
STUDENT = '''
def player(game, state):
    """A student's player: the first legal move."""
    return game.actions(state)[0]
'''
HOSTILE = '''
import json, os, sys

import variants
import variants.plugins

TARGETS = json.loads(@TARGETS@)
"""The plugin's module as installed and in its source folder, and the folders where
the trusted side looks for installed plugins: the venv's site-packages, the project's."""


def player(game, state):
    """Rewrite the plugin, install a plugin of its own for the next run and fake one in
    its jail; then play the first legal move, as the student's player does."""
    for path in TARGETS['modules']:
        try:
            with open(path, 'a') as file:
                file.write('\\nKonane.actions = lambda self, state: []\\n')
        except OSError:
            pass
    for sites in TARGETS['sites']:
        try:
            folder = os.path.join(sites, 'evil-1.0.dist-info')
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, 'METADATA'), 'w') as file:
                file.write('Metadata-Version: 2.1\\nName: evil\\nVersion: 1.0\\n')
            with open(os.path.join(folder, 'entry_points.txt'), 'w') as file:
                file.write('[aima_games.players]\\nevil = evil:player\\n')
        except OSError:
            pass
    os.environ[variants.plugins.HANDED] = '[["evil", "aima_games.games", "konane", "evil:Game"]]'
    variants.plugins.installed.cache_clear()
    variants.GAMES['konane'] = type('Konane', (variants.GAMES['konane'],), {'actions': list})
    return game.actions(state)[0]
'''
KAYLES = '''
from collections import namedtuple

from games import Game

State = namedtuple('State', 'to_move, pins')


class Kayles(Game):
    """Kayles: knock down one pin or two side by side; who knocks down the last wins."""

    players = ('A', 'B')

    def __init__(self, n=5):
        self.n = n
        self.initial = State('A', (1,) * n)

    def params(self):
        return {'n': self.n}

    def actions(self, state):
        return [(at, width) for width in (1, 2) for at in range(self.n - width + 1)
                if all(state.pins[at:at + width])]

    def result(self, state, move):
        at, width = move
        pins = state.pins[:at] + (0,) * width + state.pins[at + width:]
        return State('B' if state.to_move == 'A' else 'A', pins)

    def terminal_test(self, state):
        return not any(state.pins)

    def utility(self, state, player):
        if any(state.pins):
            return 0
        return -1 if player == state.to_move else 1
'''
"""A game as aima-python's users write one: a Game subclass without a name of its own."""
BROKEN = {  # module: (group, entry, the module's source)
    'missing': ('aima_games.games', 'missing = course_broken.missing:Game',
                'import no_such_module\n'),
    'notagame': ('aima_games.games', 'notagame = course_broken.notagame:NotAGame',
                 'NotAGame = 3\n'),
    'taken': ('aima_games.games', 'nim2 = course_broken.taken:Nim', 'from games import Nim\n'),
    'lazy': ('aima_games.games', 'lazy = course_broken.lazy:Lazy',
             'from games import Game\n\n\nclass Lazy(Game):\n'
             '    def actions(self, state):\n        return []\n'),
    'copycat': ('aima_games.players', 'ab2 = course_broken.copycat:player',
                'def player(game, state):\n    return game.actions(state)[0]\n'),
    'odd': ('aima_games.variants', 'odd = course_broken.odd:ODD', "ODD = 'nosuchgame(n=3)'\n"),
    'last': ('aima_games.players', 'last = course_broken.last:player',
             'def player(game, state):\n    return game.actions(state)[-1]\n'),
}
SKIPPED = [f'aima-games: skipped the entry "{entry}" ({group}) of the plugin course-broken: {why}'
           for entry, group, why in [
               ('missing = course_broken.missing:Game', 'aima_games.games',
                "ModuleNotFoundError: No module named 'no_such_module'"),
               ('notagame = course_broken.notagame:NotAGame', 'aima_games.games',
                'TypeError: course_broken.notagame:NotAGame is not a Game subclass'),
               ('nim2 = course_broken.taken:Nim', 'aima_games.games',
                'ValueError: cannot register Nim: nim already taken'),
               ('lazy = course_broken.lazy:Lazy', 'aima_games.games',
                'ValueError: Lazy has no result or utility of its own: Game.result and '
                'Game.utility are abstract, write them'),
               ('odd = course_broken.odd:ODD', 'aima_games.variants',
                "ValueError: its spec 'nosuchgame(n=3)' names no game known"),
               ('ab2 = course_broken.copycat:player', 'aima_games.players',
                "ValueError: the player name 'ab2' is already taken")]]



def write_files(folder, files):
    """Write files ({path in folder: text}) in folder."""
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
        with open(os.path.join(folder, path), 'w') as file:
            file.write(textwrap.dedent(text))


@pytest.fixture(scope='module')
def venv(tmp_path_factory):
    """A venv that sees this Python's packages (this project's among them) and has the
    course's plugin installed from its folder, as pip installs it: (its python, the
    plugin's module as installed and in its folder, the venv's site-packages)."""
    top = tmp_path_factory.mktemp('plugins')
    subprocess.run([sys.executable, '-m', 'venv', '--without-pip', str(top / 'venv')],
                   check=True)
    python = str(top / 'venv' / 'bin' / 'python')
    sites = subprocess.run([python, '-c', 'import sysconfig; print(sysconfig.get_path("purelib"))'],
                           check=True, capture_output=True, text=True).stdout.strip()
    with open(os.path.join(sites, 'parent.pth'), 'w') as file:  # pip, setuptools, this project
        file.write(f'import site; site.addsitedir({sysconfig.get_path("purelib")!r})\n')
    write_files(str(top / 'course'), {
        'pyproject.toml': documented_pyproject(), 'course_games/__init__.py': '',
        'course_games/konane.py': KONANE, 'course_games/staff.py': STAFF})
    subprocess.run([python, '-m', 'pip', 'install', '-q', '--no-build-isolation', '--no-deps',
                    '--no-index', str(top / 'course')], check=True, capture_output=True)
    modules = [os.path.join(sites, 'course_games', 'konane.py'),
               str(top / 'course' / 'course_games' / 'konane.py')]
    return python, modules, sites


def run(python, *args, env=None):
    """Run tournament.py with python; return what it did."""
    return subprocess.run([python, os.path.join(ROOT, 'tournament.py'), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env)


def test_list_shows_the_plugins_game_variant_and_player(venv):
    python, _, _ = venv
    done = run(python, 'list')
    assert done.returncode == 0 and done.stderr == ''
    assert '  staff        The staff\'s player: the last legal move.' in done.stdout
    assert '  konane       Konane: jump a stone of the other colour' in done.stdout
    assert '  konane-6     konane(size=6) (from course-games)  [konane(size=6)]' in done.stdout


@pytest.mark.parametrize('level', LEVELS)
def test_a_round_robin_on_the_plugins_game_is_reported_and_replayed(venv, tmp_path, level):
    """The shipped players, the plugin's player and two students' files (one hostile,
    except in a process jail run by an ordinary user, which may write what that user
    may) play the plugin's game; the hostile one changes nothing outside its jail."""
    python, modules, sites = venv
    before = [open(path).read() for path in modules]
    hostile = level == 'bwrap' or os.geteuid() == 0
    (tmp_path / 'student.py').write_text(STUDENT)
    (tmp_path / 'hostile.py').write_text(HOSTILE.replace('@TARGETS@', repr(json.dumps(
        {'modules': modules, 'sites': [sites, ROOT]}))))
    players = f'random,ab2,mcts(N=30),staff,student={tmp_path / "student.py"}'
    players += f',hostile={tmp_path / "hostile.py"}' if hostile else ''
    page, db, out = tmp_path / 'run.html', tmp_path / 'run.sqlite', tmp_path / 'run.json'
    done = run(python, '--players', players, '--variants', 'konane', '--sandbox', level,
               '--jobs', '2', '--html', str(page), '--db', str(db), '--json', str(out))
    assert done.returncode == 0, done.stderr
    games = json.loads(out.read_text())['games']
    assert len(games) == (30 if hostile else 20)
    assert [game for game in games if game['termination'] != 'normal'] == []
    assert '{"text":"..BW\\nWBWB\\nBWBW\\nWBWB"}' in page.read_text()  # the start, drawn
    longest = max(games, key=lambda game: game['plies'])
    replayed = run(python, 'replay', '--db', str(db), str(longest['index']))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.count('\n') > 3 * longest['plies']
    if hostile:
        moves = {(game['first'], game['second']): game['moves'] for game in games}
        for other in ('ab2', 'staff'):
            assert moves['hostile', other] == moves['student', other]
            assert moves[other, 'hostile'] == moves[other, 'student']
        assert [open(path).read() for path in modules] == before
        assert not any(os.path.exists(os.path.join(folder, 'evil-1.0.dist-info'))
                       for folder in (sites, ROOT))


def test_a_broken_plugin_is_one_line_and_the_rest_plays(tmp_path):
    """Entries that do not import, name what their group does not hold, take a name
    already taken, or name a game that leaves a method it must write to Game, are
    each one line, skipped; list and a tournament go on, with the
    plugin's good player, jailed, from a folder on PYTHONPATH."""
    entries = {}
    for module, (group, entry, source) in BROKEN.items():
        entries.setdefault(group, []).append(entry)
        write_files(str(tmp_path), {f'course_broken/{module}.py': source})
    write_files(str(tmp_path), {
        'course_broken/__init__.py': '',
        'course_broken-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: course-broken\n'
                                                'Version: 1.0\n',
        'course_broken-1.0.dist-info/entry_points.txt': ''.join(
            f'[{group}]\n' + ''.join(f'{entry}\n' for entry in listed)
            for group, listed in entries.items())})
    env = {**os.environ, 'PYTHONPATH': str(tmp_path)}
    listed = run(sys.executable, 'list', env=env)
    assert listed.returncode == 0
    assert listed.stderr.splitlines() == SKIPPED
    assert '  last ' in listed.stdout and '  nim2 ' not in listed.stdout
    out = tmp_path / 'run.json'
    done = run(sys.executable, '--players', 'last,ab1', '--variants', 'nim', '--sandbox',
               'process', '--json', str(out), env=env)
    assert done.returncode == 0 and done.stderr.splitlines() == SKIPPED
    games = json.loads(out.read_text())['games']
    assert [game['termination'] for game in games] == ['normal', 'normal']


def test_a_plugins_game_without_a_name_is_known_by_its_entrys(tmp_path):
    """A Game subclass with no `name` attribute, named by its entry point, is listed,
    made by specs and played in jails under the entry's name."""
    write_files(str(tmp_path), {
        'course_kayles/__init__.py': '', 'course_kayles/kayles.py': KAYLES,
        'course_kayles-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: course-kayles\n'
                                                'Version: 1.0\n',
        'course_kayles-1.0.dist-info/entry_points.txt': '[aima_games.games]\n'
                                                        'kayles = course_kayles.kayles:Kayles\n'})
    env = {**os.environ, 'PYTHONPATH': str(tmp_path)}
    listed = run(sys.executable, 'list', env=env)
    assert listed.returncode == 0 and listed.stderr == ''
    assert '  kayles       Kayles: knock down one pin or two side by side' in listed.stdout
    out = tmp_path / 'run.json'
    done = run(sys.executable, '--players', 'random,ab2', '--variants', 'kayles', 'kayles(n=4)',
               '--sandbox', 'process', '--json', str(out), env=env)
    assert done.returncode == 0 and done.stderr == '', done.stderr
    games = json.loads(out.read_text())['games']
    assert {game['variant'] for game in games} == {'kayles', 'kayles(n=4)'}
    assert {game['termination'] for game in games} == {'normal'}
