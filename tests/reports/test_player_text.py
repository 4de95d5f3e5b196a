"""Text a player wrote, shown safely: its control characters and bidi overrides escaped
as repr escapes them on a terminal (the tables of a run, games, replay, play, sprt,
check and usage errors), in the HTML report and in every CSV file, where no cell is
read as a formula either (--csv and check's summary.csv), whatever a hostile
student's file, folder's name or program writes."""

import csv
import json
import os
import pathlib
import re
import shutil
import tempfile

import pytest
from command_line import run
from jails import LEVELS

from players.reports.player_text import FORMULA_STARTS, for_csv, for_terminal

pytestmark = pytest.mark.slow

SCREEN = '\x1b[2J\x1b[H'
"""What clears a terminal's screen and puts the cursor at its top."""
FAKE_TABLE = 'Standings\n\nRank  Player   Elo\n   1  mallory  +999'
"""What a player draws on the cleared screen."""
FORMULA = '=HYPERLINK("http://x","y")'
"""What a spreadsheet evaluates, in a cell that starts with it."""
FORMULA_NAME = '=HYPERLINK("x","y")'
"""A formula that can be a file's name (which holds no /)."""
RAW = ('\x1b', '\r', '\b', '\x07', '\u202e')
"""What no player may put on the terminal: ESC, CR, backspace, BEL and a bidi override."""
SHOWN_RAW = re.compile('[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]')
"""What no web page or CSV cell holds raw: a C0 or C1 control character but newline,
a bidi override or isolate."""
EVE = f'{SCREEN}eve\x07\u202egnp'
"""A submission folder's name that clears the screen, rings the bell and reads backwards."""
EVE_SHOWN = '\\x1b[2J\\x1b[Heve\\x07\\u202egnp'
"""EVE, escaped."""
EVE_SAYS = f'{SCREEN}\x07\u202eevil\u2066\x85\nnext line\n'
"""What EVE's player writes on its standard error at each move."""
NOISE = f'{FORMULA}{SCREEN}{FAKE_TABLE}\r\b\x07\u202e'
"""What the noisy program writes on its standard error."""
HOSTILE = SCREEN + FAKE_TABLE + '\r\b\u202e' + FORMULA
"""The message of the hostile student's exception."""
RANDOM = ('import random\n\n\ndef player(game, state):\n'
          '    return random.choice(game.actions(state))\n')
SUBMISSIONS = {
    'mallory.py': f'def player(game, state):\n    raise ValueError({HOSTILE!r})\n',
    'loader.py': f'raise ValueError({HOSTILE!r})\n',
    f'{EVE}/player.py': ('import random\nimport sys\n\n\ndef player(game, state):\n'
                         f'    sys.stderr.write({EVE_SAYS!r})\n'
                         '    return random.choice(game.actions(state))\n'),
    f'{FORMULA_NAME}.py': RANDOM}
"""A class: a player that raises HOSTILE, a file that raises it as it loads, and
two random players, the folder EVE, which writes EVE_SAYS, and a file named by a formula."""
NOISY = ("#!/bin/sh\nread -r line; echo '{\"type\": \"ready\"}'; read -r line\n"
         f"printf '%s' '{NOISE}' >&2\nexit 3\n")
"""A program that answers the start, then writes a formula, escapes and a fake table
on standard error and exits at its first move."""
VARIANT = 'nim(piles=(2, 3))'
CHECK = ['--functions', 'player', '--variants', 'simple-nim', '--move-timeout', '2',
         '--jobs', '1']
"""check's options: the player's checks alone, on a small game."""


@pytest.mark.parametrize('char', ['\x1b', '\r', '\b', '\x07', '\x00', '\x7f', '\x85', '\x9b',
                                  '\u202e', '\u2066', '\u200f', '\n', '\t'])
def test_for_terminal_writes_a_control_character_as_repr_does(char):
    shown = for_terminal(f'a{char}b')
    assert shown == f'a{repr(char)[1:-1]}b' and char not in shown
    assert shown.isprintable()


def test_for_terminal_keeps_printable_text_as_it_is():
    text = 'Zoë Ærøskøbing, 中文, Ελληνικά, עברית, 😀: a\\b "quoted" it\'s ±½'
    assert for_terminal(text) == text
    assert for_terminal(text + '\x1b[2J') == text + '\\x1b[2J'


def test_for_terminal_with_lines_keeps_newlines_alone():
    assert for_terminal('one\ntwo\r\x1b[K\t', lines=True) == 'one\ntwo\\r\\x1b[K\\t'
    assert for_terminal('one\ntwo') == 'one\\ntwo'


def test_for_terminal_escapes_once():
    once = for_terminal(HOSTILE)
    assert for_terminal(once) == once and not any(char in once for char in RAW)


@pytest.mark.parametrize('start', ['=', '+', '-', '@'])
def test_for_csv_quotes_a_text_that_starts_as_a_formula(start):
    assert for_csv(f'{start}HYPERLINK("http://x")') == f"'{start}HYPERLINK(\"http://x\")"


def test_for_csv_escapes_control_characters_but_newlines():
    assert for_csv('\t=1') == '\\t=1' and for_csv('\r=1') == '\\r=1'  # no formula either
    assert for_csv(EVE_SAYS) == '\\x1b[2J\\x1b[H\\x07\\u202eevil\\u2066\\x85\nnext line\n'


@pytest.mark.parametrize('value', ['alice', 'a=b', 'x-1', '', "'=quoted", -314, 2.5, None])
def test_for_csv_keeps_other_values_as_they_are(value):
    assert for_csv(value) == value


def assert_escaped(*texts):
    """Check that no text holds a character of RAW: nothing a player wrote reached the
    terminal raw."""
    for text in texts:
        assert not [char for char in RAW if char in text], text


def assert_no_formula(path):
    """Check that no text cell of a CSV file starts as a formula (a number may be
    negative); return its rows."""
    with open(path, newline='', encoding='utf-8') as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        for column, cell in row.items():
            assert not cell.startswith(FORMULA_STARTS) or number(cell), (column, cell)
    return rows


def number(text):
    """Is text a number?"""
    try:
        float(text)
    except ValueError:
        return False
    return True


@pytest.fixture(scope='module')
def folder():
    """A folder every user may read (as a process jail started by root must), holding
    the class's submissions in subs and the noisy program; not under pytest's folder,
    which another pytest may make private at any time."""
    made = pathlib.Path(tempfile.mkdtemp(prefix='aima-player-text-'))
    (made / 'subs').mkdir()
    (made / 'subs' / EVE).mkdir()
    for name, text in SUBMISSIONS.items():
        (made / 'subs' / name).write_text(text)
    (made / 'noisy').write_text(NOISY)
    for path in (made, made / 'subs', made / 'subs' / EVE, made / 'noisy'):
        os.chmod(path, 0o755)
    yield made
    shutil.rmtree(made)


@pytest.fixture(scope='module')
def runs(folder):
    """The round robin of the class, the noisy program and random, played once at
    each level: level -> (what it did, its --db, its --csv); its --html is the
    --csv's name ending in .html."""
    played = {}

    def at(level):
        if level not in played:
            db, games = folder / f'{level}.sqlite', folder / f'{level}.csv'
            done = run('--submissions', str(folder / 'subs'), '--players',
                       f'noisy=exec:{folder}/noisy,random', '--variants', VARIANT,
                       '--sandbox', level, '--move-timeout', '5', '--jobs', '2',
                       '--tables', 'all', '--db', str(db), '--csv', str(games),
                       '--html', str(games.with_suffix('.html')))
            assert done.returncode == 0, done.stderr
            played[level] = done, str(db), str(games)
        return played[level]
    return at


@pytest.mark.parametrize('level', LEVELS)
def test_a_run_prints_what_players_wrote_escaped(runs, level):
    done, _, _ = runs(level)
    assert_escaped(done.stdout, done.stderr)
    out = done.stdout
    assert 'Players: ' in out and '\\x1b[2J\\x1b[Heve' in out  # a name from a file's name
    assert 'loader: cannot play: ValueError: \\x1b[2J\\x1b[HStandings' in out
    assert 'ValueError: \\x1b[2J\\x1b[HStandings\\n\\nRank' in out  # the forfeits table


@pytest.mark.parametrize('level', LEVELS)
def test_no_csv_cell_is_a_formula(runs, level):
    _, _, games = runs(level)
    rows = assert_no_formula(games)
    noisy = [row for row in rows if row['forfeit'] == 'noisy']
    errors = [row['stderr_first'] if row['first'] == 'noisy' else row['stderr_second']
              for row in noisy]
    shown = f"'{FORMULA}\\x1b[2J\\x1b[H{FAKE_TABLE}\\r\\x08\\x07\\u202e"  # its lines kept
    assert noisy and set(errors) == {shown}
    assert f"'{FORMULA_NAME}" in {row['first'] for row in rows}  # a name from a file's name
    standings = assert_no_formula(games.replace('.csv', '-standings.csv'))
    assert {f"'{FORMULA_NAME}", EVE_SHOWN, 'mallory'} <= {row['player'] for row in standings}


@pytest.mark.parametrize('level', LEVELS)
def test_the_html_report_and_the_csv_files_show_what_players_wrote_escaped(runs, level):
    _, _, games = runs(level)
    page = pathlib.Path(games).with_suffix('.html').read_text(encoding='utf-8')
    assert not SHOWN_RAW.findall(page)
    assert f'>{EVE_SHOWN}<' in page  # a name from a folder's name, in the tables
    assert 'ValueError: \\x1b[2J\\x1b[HStandings\\n\\nRank' in page  # the forfeits table
    data = json.loads(page.split('id="report-data">')[1].split('</script>')[0])
    outcomes = [game['outcome'] for game in data['games']]  # as the page's script shows them
    assert EVE_SHOWN in data['players'] and any('ValueError: \\x1b[2J' in text for text in outcomes)
    assert not SHOWN_RAW.findall(''.join(data['players'] + outcomes))
    for path in (games, games.replace('.csv', '-standings.csv')):
        with open(path, newline='', encoding='utf-8') as file:
            assert not [cell for row in csv.reader(file) for cell in row if SHOWN_RAW.search(cell)]
    rows = assert_no_formula(games)
    said = [row['stderr_first'] if row['first'] == EVE_SHOWN else row['stderr_second']
            for row in rows if EVE_SHOWN in (row['first'], row['second'])]
    lines = '\\x1b[2J\\x1b[H\\x07\\u202eevil\\u2066\\x85\nnext line\n'  # its lines kept
    assert any(said) and all(text.startswith(lines) for text in said if text)


@pytest.mark.parametrize('level', LEVELS)
def test_games_and_replay_print_what_players_wrote_escaped(runs, level):
    _, db, games = runs(level)
    listed = run('games', '--db', db)
    assert listed.returncode == 0 and '\\x1b[2J\\x1b[Heve' in listed.stdout
    assert 'ValueError: \\x1b[2J' in listed.stdout
    assert_escaped(listed.stdout, listed.stderr)
    rows = assert_no_formula(games)
    chosen = {name: next(row['index'] for row in rows if name in (row['first'], row['second']))
              for name in ('mallory', 'noisy', 'loader', EVE_SHOWN)}
    for index in chosen.values():
        shown = run('replay', '--db', db, index)
        assert shown.returncode == 0, shown.stderr
        assert_escaped(shown.stdout, shown.stderr)
    noisy = run('replay', '--db', db, chosen['noisy']).stdout
    assert f"noisy's output:\n{FORMULA}\\x1b[2J\\x1b[HStandings\n" in noisy
    assert '+999\\r\\x08\\x07\\u202e' in noisy


@pytest.mark.parametrize('level', LEVELS)
def test_check_prints_what_a_student_wrote_escaped(folder, level, tmp_path):
    one = run('check', str(folder / 'subs' / 'mallory.py'), *CHECK, '--sandbox', level)
    assert one.returncode == 1 and 'FAIL 0/2 player: legal moves' in one.stdout
    unwrapped = one.stdout.replace('\n  ', ' ')  # its lines wrapped within 100 columns
    assert 'ValueError: \\x1b[2J\\x1b[HStandings\\n\\nRank' in unwrapped
    assert_escaped(one.stdout, one.stderr)
    out = tmp_path / 'grades'
    graded = run('check', str(folder / 'subs'), f'exec:{folder}/noisy', *CHECK,
                 '--sandbox', level, '--out', str(out))
    assert graded.returncode == 1 and f'{EVE_SHOWN}: ' in graded.stdout
    assert_escaped(graded.stdout, graded.stderr)
    rows = assert_no_formula(out / 'summary.csv')
    assert f"'{FORMULA_NAME}" in {row['student'] for row in rows}
    assert_escaped(*(path.read_text() for path in (out / 'reports').glob('*.txt')))


@pytest.mark.parametrize('level', LEVELS)
def test_play_sprt_and_usage_errors_print_what_players_wrote_escaped(folder, level):
    subs = folder / 'subs'
    played = run('play', 'simple-nim', str(subs / 'mallory.py'), 'random', '--sandbox', level)
    assert played.returncode == 0 and ('forfeits: error: ValueError: \\x1b[2J'
                                       in played.stdout.replace('\n  ', ' '))  # wrapped lines
    shown = run('play', 'simple-nim', f'exec:{folder}/noisy', 'random', '--sandbox', level)
    assert shown.returncode == 0 and 'standard error ends: =HYPERLINK' in shown.stdout
    tested = run('sprt', str(subs / EVE), 'random', '--variants', 'simple-nim',
                 '--max-games', '2', '--sandbox', level)
    assert tested.returncode == 0 and f'SPRT: {EVE_SHOWN} against random' in tested.stdout
    refused = run('sprt', str(subs / 'loader.py'), 'random', '--variants', 'simple-nim',
                  '--sandbox', level)
    strict = run('--players', f'{subs / "loader.py"},random', '--variants', 'simple-nim',
                 '--sandbox', level, '--strict')
    for stopped in (refused, strict):
        assert stopped.returncode == 2
        assert "player 'loader' cannot play: ValueError: \\x1b[2J" in stopped.stderr
    assert_escaped(*(done.stdout + done.stderr for done in (played, shown, tested, refused,
                                                            strict)))
