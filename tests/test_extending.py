"""docs/extending.md, followed as written. Each recipe's code is read out of the page
(so that a change to the page is tested) and put where the page says: Race in
games/race.py and its lines in variants/catalog.py, greedy in players/greedy.py and
its lines in players/registry.py, all in a copy of the project; Race again as a
course's game file, outside it. Then what the page says to run is run, and what a
user would see is checked: `list`, round robins in jails, `play`, `tree`, the
project's own tests that every game must pass, and a jail's import still light.
(The installed plugin's pyproject.toml is followed by tests/variants/test_plugins.py.)"""

import ast
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

import browser
import tournament
import variants
from players import PLAYER, load_player, solve
from players.grading.jailed.plain import describe
from players.reports import html_report
from players.tournaments.ranking import standings_by_variant
from players.tournaments.record import GameRecord
from players.tournaments.results import Results
from players.tournaments.run_settings import RunSettings
from places import copy_project

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, 'docs', 'extending.md'), encoding='utf-8') as _file:
    PAGE = _file.read()


def section(heading: str) -> str:
    """The text of the page under a heading, up to the next heading (## or ###; a
    line of a code block that starts with # is a comment)."""
    text = PAGE[PAGE.index(heading + '\n'):]
    end = re.search(r'\n##+ ', text[len(heading):])
    return text[:len(heading) + end.start()] if end else text


def python_blocks(heading: str) -> list[str]:
    """The Python blocks of a section of the page."""
    return re.findall(r'```python\n(.*?)```', section(heading), re.DOTALL)


def commands(text: str) -> list[list[str]]:
    """The `python tournament.py ...` commands of a text, in code spans or indented
    lines, as argument lists after the script's name."""
    found = re.findall(r'`(python tournament\.py[^`]*)`', text)
    found += re.findall(r'^    (python tournament\.py.*)$', text, re.MULTILINE)
    return [shlex.split(' '.join(command.split()))[2:] for command in found]


ADD_A_GAME = '## Add a game and a variant'
GAME_MODULE, CATALOG_LINES = python_blocks(ADD_A_GAME)
PLAYER_FUNCTION, PLAYER_NAMED, REGISTRY_LINES = python_blocks('## Write and register a player')


def put_lines(path: str, block: str) -> None:
    """Put a block's lines into a module where its comments say: '# at the top'
    after the module's imports, '# at the end' after its last line, '# ... before
    the last line' before its last statement."""
    with open(path, encoding='utf-8') as file:
        lines = file.read().split('\n')
    body = ast.parse('\n'.join(lines)).body
    places = {'at the top': max(node.end_lineno for node in body
                                if isinstance(node, (ast.Import, ast.ImportFrom))),
              'at the end': len(lines), 'before the last line': body[-1].lineno - 1}
    parts = re.findall(r'^# (.*)\n((?:[^#\n].*\n)+)', block, re.MULTILINE)
    assert ''.join(code for _, code in parts) == re.sub('^#.*\n', '', block, flags=re.M)
    for where, code in sorted(parts, key=lambda part: -places[_place(part[0])]):
        line = places[_place(where)]  # the lowest place first: the others stay put
        lines[line:line] = code.rstrip('\n').split('\n')
    with open(path, 'w', encoding='utf-8') as file:
        file.write('\n'.join(lines))


def _place(comment: str) -> str:
    """Which place a comment of the page names (a new wording fails here)."""
    found = [place for place in ('at the top', 'at the end', 'before the last line')
             if place in comment]
    assert len(found) == 1, f'where is {comment!r}?'
    return found[0]


def run(arguments: list[str], folder, typed: str = '', script: str = 'tournament.py',
        timeout: int = 300) -> subprocess.CompletedProcess:
    """Run a command of the page in folder, typing typed."""
    return subprocess.run([sys.executable, script, *arguments], cwd=folder, input=typed,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope='module')
def project(tmp_path_factory) -> str:
    """A copy of the project with the page's game and player added as it says, and
    the tests every game must pass."""
    project = copy_project(tmp_path_factory.mktemp('extending') / 'project')
    with open(os.path.join(project, 'games', 'race.py'), 'w', encoding='utf-8') as file:
        file.write(GAME_MODULE)
    put_lines(os.path.join(project, 'variants', 'catalog.py'), CATALOG_LINES)
    with open(os.path.join(project, 'players', 'greedy.py'), 'w', encoding='utf-8') as file:
        file.write(PLAYER_FUNCTION)
    put_lines(os.path.join(project, 'players', 'registry.py'), REGISTRY_LINES)
    os.makedirs(os.path.join(project, 'tests', 'games'))
    for test in ('conftest.py', 'test_layout.py', os.path.join('games', 'test_pictures.py')):
        shutil.copy(os.path.join(ROOT, 'tests', test), os.path.join(project, 'tests', test))
    return project


def test_a_new_game_and_player_are_listed(project):
    listed = run(['list'], project)
    assert listed.returncode == 0, listed.stderr
    assert re.search(r'^\s*race\b.*Race to 10, by 1 to 3', listed.stdout, re.MULTILINE)
    assert re.search(r'^\s*greedy\b.*Take the most counters', listed.stdout, re.MULTILINE)


@pytest.fixture(scope='module')
def round_robin(project) -> dict:
    """The page's round robin of the new game, in jails, one game at a time: its JSON."""
    robin, = [command for command in commands(section(ADD_A_GAME)) if '--players' in command]
    out = os.path.join(project, 'race.json')
    done = run([*robin, '--jobs', '1', '--json', out], project)
    assert done.returncode == 0, done.stderr
    with open(out, encoding='utf-8') as file:
        return json.load(file)


def test_the_new_game_plays_a_round_robin_and_a_game_at_the_keyboard(project, round_robin):
    assert {game['variant'] for game in round_robin['games']} == {'race', 'race(goal=21)'}
    assert all(game['termination'] == 'normal' and game['score'] in (0, 1)  # no draws
               for game in round_robin['games'])
    play, = [command for command in commands(section(ADD_A_GAME)) if 'play' in command]
    assert play[-1] == 'human'  # ab4 moves first: race to 10, it wins
    done = run(play, project, typed='1\n' * 10)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ['10', 'ab4 (A) wins.']


def test_the_new_game_passes_the_tests_every_game_must_pass(project):
    tests = re.search(r'`python -m pytest -q ([^`]*)`', section(ADD_A_GAME)).group(1).split()
    assert 'tests/games/test_pictures.py' in tests
    # in one process (-n 0): the suite's own workers have the cores already
    done = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                           '-n', '0', '--rootdir', project, *tests], cwd=project,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ' passed' in done.stdout and 'skipped' not in done.stdout


def test_the_new_games_types_are_those_mypy_strict_asks_of_games(project):
    """Only the new module is checked: the rest of games/ is the project's to clear."""
    pytest.importorskip('mypy')
    shutil.copy(os.path.join(ROOT, 'setup.cfg'), project)
    done = subprocess.run([sys.executable, '-m', 'mypy', '--follow-imports=silent',
                           '--cache-dir', os.path.join(project, '.mypy_cache'),
                           'games/race.py'], cwd=project, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_shipped_player_plays_by_name_and_a_jail_still_imports_little(project):
    assert '`--players greedy,random`' in section('## Write and register a player')
    done = run(['--players', 'greedy,random', '--variants', 'nim', '--jobs', '1'], project)
    assert done.returncode == 0, done.stderr
    assert 'Players: greedy, random' in done.stdout
    code = ('import sys, players.sandbox; print(*sorted(name for name in sys.modules '
            'if name.split(".")[0] in ("games", "players", "variants")))')
    done = subprocess.run([sys.executable, '-c', code], cwd=project, capture_output=True,
                          text=True)
    assert done.stdout.split() == ['players', 'players.sandbox'], done.stderr


def report_page(result: dict, make_game) -> str:
    """The HTML report of a run's JSON, its boards drawn by make_game's games."""
    settings = RunSettings.from_json(result['settings'])
    records = [GameRecord(**game) for game in result['games']]
    results = Results(settings.players, settings.variants).add_all(records)
    return html_report.render(settings, results, standings_by_variant(results), records,
                              make_game)


def load_module(path, name: str):
    """Import a file as a module of its own."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def race(tmp_path):
    """The page's Race, from a module of its own, registered by the page's line in this
    process (the registry is put back afterwards)."""
    path = tmp_path / 'race.py'
    path.write_text(GAME_MODULE)
    module = load_module(path, 'documented_race')
    tables = (variants.GAMES, variants.registry.ALIASES, variants.VARIANTS)
    saved, defaults = [dict(table) for table in tables], list(variants.DEFAULT_VARIANTS)
    registration, = [line for line in CATALOG_LINES.splitlines()
                     if line.startswith('register_game(')]
    exec(registration, {'register_game': variants.register_game, 'Race': module.Race,
                        'Variant': variants.Variant})
    yield module.Race
    for table, entries in zip(tables, saved):
        table.clear()
        table.update(entries)
    variants.DEFAULT_VARIANTS[:] = defaults


def test_a_new_game_is_made_from_its_spec_and_its_variant(race):
    assert isinstance(variants.make('race'), race)
    assert repr(variants.make('race(goal=7)')) == 'race(goal=7)'
    assert 'race' not in variants.DEFAULT_VARIANTS
    with pytest.raises(ValueError, match='already taken'):
        variants.register_game(race)


def test_the_engine_searches_a_new_game_through_its_own_methods(race):
    """Race to goal by 1 to 3: the player to move loses exactly when the distance
    to the goal is a multiple of 4 (whatever they add, the other makes it one again)."""
    game = race(goal=9)
    for total in range(9):
        state = game.initial._replace(board=total)
        solution = solve(game, state)
        assert solution.value == (-1 if (9 - total) % 4 == 0 else 1)
        if (9 - total) % 4:
            assert (9 - total - solution.move) % 4 == 0
    assert PLAYER['ab4'](game, game.initial) == 1


def test_the_engine_keys_its_tables_by_the_games_table_key(race):
    """Without table entries (table_key None) the same values take more nodes:
    the totals reached by different sums are searched again."""
    class Untabled(race):
        def table_key(self, state):
            return None
    keyed, untabled = race(goal=14), Untabled(goal=14)
    with_table, without = solve(keyed, keyed.initial), solve(untabled, untabled.initial)
    assert with_table.value == without.value == 1 and with_table.move == without.move == 2
    assert with_table.nodes < without.nodes


def test_a_new_game_is_shown_by_the_defaults_and_its_picture(race, capsys):
    game = race(goal=5)
    state = game.result(game.initial, 2)
    game.show(state)
    assert capsys.readouterr().out == '2\nB to move\n'
    game.display(state)  # AIMA's: the state itself
    assert capsys.readouterr().out == "RaceState(to_move='B', board=2)\n"
    assert game.drawing(state, 2) == {'kind': 'text', 'text': '2'}
    assert describe(game, state) == "RaceState(to_move='B', board=2)"
    assert state._repr_svg_().count('<circle') == 2 and 'B to move' in state._repr_svg_()


def test_the_report_draws_a_new_game_as_text_or_as_its_own_letters(race, round_robin, tmp_path):
    """Race is drawn as the text of its state; a game whose drawing is a grid of
    other letters than X, O, B and W is drawn with those letters."""
    data = html_report.game_data([GameRecord(**game) for game in round_robin['games']],
                                 RunSettings.from_json(round_robin['settings']), variants.make)
    assert data['boards'][data['games'][0]['variant']] == {'kind': 'text'}  # once a variant
    assert data['games'][0]['frames'][0] == {'text': '0'}
    assert data['games'][0]['frames'][-1] == {'text': '10'}

    class Lettered(race):
        def drawing(self, state, last_move=None):
            cells = 'A' * state.board + '.' * (self.goal - state.board)
            return {'kind': 'grid', 'style': 'xo', 'columns': self.goal, 'rows': 1,
                    'cells': [cells], 'marks': []}
    pages = {'text': report_page(round_robin, variants.make),
             'letters': report_page(round_robin,
                                    lambda spec: Lettered(**variants.make(spec).params()))}
    if browser.find() is None:
        pytest.skip('Chromium is not installed (apt-get install chromium)')
    with browser.Browser() as chromium:
        for kind, page in pages.items():
            path = tmp_path / f'{kind}.html'
            path.write_text(page)
            chromium.open(path.as_uri())
            chromium.evaluate('location.hash = "#game-0"')
            chromium.evaluate('document.getElementById("last").click()')
            board = chromium.evaluate('document.getElementById("board").innerHTML')
            if kind == 'text':
                assert board == '<pre>10</pre>'
            else:
                letters = chromium.evaluate('[...document.querySelectorAll("#board .piece-A")]'
                                            '.map(piece => piece.textContent).join("")')
                assert letters == 'A' * 10
        assert chromium.errors() == []


def test_a_players_file_plays_unregistered_and_register_names_it(tmp_path, capsys):
    """greedy.py, as the page saves it, plays by its path; the page's register names it
    in this process only."""
    path = tmp_path / 'greedy.py'
    path.write_text(PLAYER_FUNCTION)
    spec = re.search(r'`--players (greedy=greedy\.py:greedy_player),random`',
                     section('## Write and register a player')).group(1)
    with pytest.raises(ValueError, match='unknown player'):
        load_player('greedy')
    assert tournament.main(['--players', f'{spec.replace("greedy.py", str(path))},random',
                            '--variants', 'nim', '--jobs', '1']) == 0
    assert 'greedy' in capsys.readouterr().out
    namespace: dict = {}
    try:
        exec(PLAYER_FUNCTION + PLAYER_NAMED, namespace)
        nim = variants.make('nim')
        assert load_player('greedy')(nim, nim.initial) == (3, 5)
    finally:
        PLAYER.pop('greedy', None)


@pytest.fixture(scope='module')
def course(tmp_path_factory) -> str:
    """A course's folder, outside the project, with the page's Race as course/race.py."""
    folder = tmp_path_factory.mktemp('course')
    (folder / 'course').mkdir()
    (folder / 'course' / 'race.py').write_text(GAME_MODULE)
    return str(folder)


A_GAME_FILE = section('### A game file')
TOURNAMENT = os.path.join(ROOT, 'tournament.py')


def test_a_game_file_plays_a_round_robin_in_jails(course):
    robin, = [command for command in commands(A_GAME_FILE) if '--players' in command]
    out = os.path.join(course, 'race.json')
    done = run([*robin, '--jobs', '1', '--json', out], course, script=TOURNAMENT)
    assert done.returncode == 0, done.stderr
    with open(out, encoding='utf-8') as file:
        games = json.load(file)['games']
    assert {game['variant'] for game in games} == {'course/race.py:Race(goal=21)'}
    assert {game['termination'] for game in games} == {'normal'} and len(games) >= 3


def test_a_game_file_plays_at_the_keyboard_and_draws_its_tree(course):
    play, = [command for command in commands(A_GAME_FILE) if command[0] == 'play']
    done = run(play, course, typed='1\n' * 10, script=TOURNAMENT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ['7', 'ab4 (B) wins.']  # A to move at 0 loses
    tree, = [command for command in commands(A_GAME_FILE) if command[0] == 'tree']
    done = run(tree, course, script=TOURNAMENT)
    assert done.returncode == 0 and done.stdout.startswith('digraph tree {'), done.stderr


def test_a_game_file_with_a_wrong_argument_is_refused_as_the_page_says(course):
    said = re.search(r'^    tournament: error: (course/race\.py:Race) has no parameter '
                     r"'(\w+)'.*$", A_GAME_FILE, re.MULTILINE)
    spec, parameter = said.groups()
    done = run(['tree', f'{spec}({parameter}=3)'], course, script=TOURNAMENT)
    assert done.returncode == 2 and done.stdout == ''
    assert done.stderr.strip() == said.group(0).strip()
