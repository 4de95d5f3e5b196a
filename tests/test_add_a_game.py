"""docs/extending.md's "Add a game" and "Write and register a player", followed as written:
a game in one module plus one register_game line, played by abN and random in
jails, shown by play and the report through the defaults any game has; a player
registered with @register, known once its module is imported."""

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

import browser
import tournament
import variants
from games import Game
from players import PLAYER, load_player, solve
from players.reports import html_report, standings
from players.tournaments.results import Results
from players.tournaments.record import GameRecord
from players.grading.jailed.plain import describe

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def page_blocks(page: str, heading: str) -> list[str]:
    """The Python blocks of the section under heading of a page of docs/."""
    with open(os.path.join(ROOT, 'docs', page), encoding='utf-8') as file:
        text = file.read()
    section = text[text.index(heading):]
    section = section[:section.find('\n#', len(heading))]
    return re.findall(r'```python\n(.*?)```', section, re.DOTALL)


GAME_MODULE, REGISTRATION = page_blocks('extending.md', '## Add a game and a variant')
PLAYER_MODULE, = page_blocks('extending.md', '## Write and register a player')


def load_module(path, name: str):
    """Import a file as a module of its own."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def race(tmp_path):
    """The documented Race, from a module of its own, registered by the documented line
    in this process (the registry is put back afterwards)."""
    path = tmp_path / 'race.py'
    path.write_text(GAME_MODULE)
    module = load_module(path, 'documented_race')
    tables = (variants.GAMES, variants.registry.ALIASES, variants.VARIANTS)
    saved, defaults = [dict(table) for table in tables], list(variants.DEFAULT_VARIANTS)
    exec(REGISTRATION, {'register_game': variants.register_game, 'Race': module.Race,
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


def test_a_new_game_is_shown_by_the_defaults(race, capsys):
    game = race(goal=5)
    state = game.result(game.initial, 2)
    game.show(state)
    assert capsys.readouterr().out == '2\nB to move\n'
    game.display(state)  # AIMA's: the state itself
    assert capsys.readouterr().out == "RaceState(to_move='B', board=2)\n"
    assert game.drawing(state, 2) == {'kind': 'text', 'text': '2'}
    assert describe(game, state) == "RaceState(to_move='B', board=2)"


def copy_project(folder) -> str:
    """Copy the packages and the command line to folder, as a clone has them."""
    for package in ('games', 'players', 'variants'):
        shutil.copytree(os.path.join(ROOT, package), os.path.join(folder, package),
                        ignore=shutil.ignore_patterns('__pycache__'))
    shutil.copy(os.path.join(ROOT, 'tournament.py'), folder)
    return str(folder)


@pytest.fixture(scope='module')
def copied_run(tmp_path_factory):
    """The documented steps in a copy of the project: games/race.py and the line at the
    end of variants/catalog.py, a round robin of ab3 and random and a `play`; and
    greedy.py in players/, imported at the end of players/__init__.py, played by its
    name. All run by tournament.main in a fresh Python in the copy (every jail makes
    the game from its spec and imports players: what they need must be in the files).
    Return (what it printed, its JSON)."""
    folder = tmp_path_factory.mktemp('add-a-game')
    project = copy_project(folder / 'project')
    with open(os.path.join(project, 'games', 'race.py'), 'w') as file:
        file.write(GAME_MODULE)
    with open(os.path.join(project, 'variants', 'catalog.py'), 'a') as file:
        file.write('\nfrom games.race import Race  # noqa: E402\n\n' + REGISTRATION)
    with open(os.path.join(project, 'players', 'greedy.py'), 'w') as file:
        file.write(PLAYER_MODULE)
    with open(os.path.join(project, 'players', '__init__.py'), 'a') as file:
        file.write('\nfrom . import greedy  # noqa: E402\n')
    out = folder / 'out.json'
    script = textwrap.dedent(f'''
        import sys, tournament
        sys.exit(tournament.main(['--players', 'ab3,random', '--variants', 'race',
                                  'race(goal=7)', '--jobs', '1', '--json', {str(out)!r}])
                 or tournament.main(['--players', 'greedy,random', '--variants', 'nim',
                                     '--jobs', '1'])
                 or tournament.main(['play', 'race', 'ab1', 'random']))''')
    run = subprocess.run([sys.executable, '-c', script], cwd=project, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout, json.loads(out.read_text())


def test_the_documented_game_and_player_play_in_jails_in_a_copy_of_the_project(copied_run):
    printed, result = copied_run
    assert 'Variants: race, race(goal=7)' in printed
    assert 'Players: greedy, random' in printed
    assert '\n10\n' in printed and 'wins.' in printed.splitlines()[-1]  # play's last board
    assert {game['variant'] for game in result['games']} == {'race', 'race(goal=7)'}
    assert all(game['termination'] == 'normal' and game['score'] in (0, 1)  # no draws
               for game in result['games'])


def report_page(result: dict, make_game) -> str:
    """The HTML report of a run's JSON, its boards drawn by make_game's games."""
    settings = result['settings']
    records = [GameRecord(**game) for game in result['games']]
    results = Results(settings['players'], settings['variants']).add_all(records)
    return html_report.render(settings, results, standings.all_standings(results, None), records,
                              make_game)


def test_the_report_draws_a_new_game_as_text_or_as_its_own_letters(race, copied_run, tmp_path):
    """Race is drawn as the text of its state; a game whose drawing is a grid of
    other letters than X, O, B and W is drawn with those letters."""
    _, result = copied_run
    data = html_report.game_data([GameRecord(**game) for game in result['games']],
                                 result['settings'], variants.make)
    assert data['boards'][data['games'][0]['variant']] == {'kind': 'text'}  # once a variant
    assert data['games'][0]['frames'][0] == {'text': '0'}
    assert data['games'][0]['frames'][-1] == {'text': '10'}

    class Lettered(race):
        def drawing(self, state, last_move=None):
            cells = 'A' * state.board + '.' * (self.goal - state.board)
            return {'kind': 'grid', 'style': 'xo', 'columns': self.goal, 'rows': 1,
                    'cells': [cells], 'marks': []}
    pages = {'text': report_page(result, variants.make),
             'letters': report_page(result, lambda spec: Lettered(**variants.make(spec).params()))}
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


def test_the_documented_player_is_known_once_its_module_is_imported(tmp_path, capsys):
    path = tmp_path / 'greedy.py'
    path.write_text(PLAYER_MODULE)
    with pytest.raises(ValueError, match='unknown player'):
        load_player('greedy')
    try:
        load_module(path, 'greedy')
        nim = variants.make('nim')
        assert load_player('greedy')(nim, nim.initial) == (3, 5)
    finally:
        PLAYER.pop('greedy', None)
    assert tournament.main(['--players', f'greedy={path}:greedy_player,random',
                            '--variants', 'nim', '--jobs', '1']) == 0
    assert 'greedy' in capsys.readouterr().out
