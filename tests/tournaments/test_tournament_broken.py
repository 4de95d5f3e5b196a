"""A class's folder of submissions (--submissions) plays to the end: a submission
that cannot play (a syntax error, no player function, an exit as it loads, a
folder with a link out of it) is listed before play and forfeits every game it
would have played, unplayed, and changes no other game; --strict stops at it."""

import json
import os

import pytest
from jails import LEVELS

import variants
from command_line import run
from games import referee
from players.tournaments import entrants
from players.tournaments.match import Rules, play_scheduled_game
from players.tournaments.schedule import ScheduledGame

pytestmark = pytest.mark.slow

FIRST_MOVE = 'def player(game, state):\n    return game.actions(state)[0]\n'
CLASS = {
    'alice.py': FIRST_MOVE,
    'carol/player.py': 'import random\n\n\ndef player(game, state):\n'
                       '    return random.choice(game.actions(state))\n',
    'syntax.py': 'def player(game, state)\n    return 1\n',
    'nofunc.py': 'def other(game, state):\n    return game.actions(state)[0]\n',
    'exits.py': 'import sys\nsys.exit(3)\n' + FIRST_MOVE,
    'dave/player.py': FIRST_MOVE,
    '.hidden.py': FIRST_MOVE,
    '__pycache__/x.py': FIRST_MOVE,
    'notes.txt': 'not a player',
}
"""A class's folder: two submissions that play, four that cannot, and what is no submission."""
BROKEN = {
    'dave': 'dave: secret is a link that leads out of the folder',
    'exits': 'SystemExit: 3 (exits.py, line 2)',
    'nofunc': "LookupError: nofunc.py has no player function 'player'",
    'syntax': 'SyntaxError: ',
}
"""The submissions that cannot play, and what their reasons say."""
GOOD = {'random', 'alice', 'carol'}
OPTIONS = ['--variants', 'simple-nim', '--openings', '1', '--seed', '7', '--jobs', '2']


def write_class(folder):
    """Write the class's folder of CLASS into folder, dave's link out of it with it."""
    for path, text in CLASS.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    os.symlink('/etc/hostname', folder / 'dave' / 'secret')
    return folder


def play(*args):
    """Run the tournament command in this process; return what it did."""
    return run(*args, *OPTIONS)


@pytest.fixture(scope='module', params=LEVELS)
def class_run(request, tmp_path_factory):
    """A run of the class with random beside it, and one of its good players alone."""
    level, out = request.param, tmp_path_factory.mktemp(f'class-{request.param}')
    subs = write_class(out / 'subs')
    done = play('--submissions', str(subs), '--players', 'random', '--sandbox', level,
                '--json', str(out / 'run.json'), '--html', str(out / 'run.html'),
                '--db', str(out / 'run.sqlite'))
    clean = play('--players', f'random,{subs}/alice.py,{subs}/carol', '--sandbox', level,
                 '--json', str(out / 'clean.json'))
    assert done.returncode == 0 and clean.returncode == 0, done.stderr + clean.stderr
    return {'done': done, 'db': str(out / 'run.sqlite'),
            'json': json.loads((out / 'run.json').read_text()),
            'clean': json.loads((out / 'clean.json').read_text()),
            'html': (out / 'run.html').read_text()}


def test_the_class_plays_to_the_end_listing_who_cannot_play_before_play(class_run):
    data, out = class_run['json'], class_run['done'].stdout
    assert data['settings']['players'] == ['random', 'alice', 'carol', *sorted(BROKEN)]
    header = out[:out.index('\nVariants:')]
    for name, reason in BROKEN.items():
        line = next(line for line in header.splitlines() if line.startswith(f'{name}: '))
        assert line.startswith(f'{name}: cannot play: ') and len(line) <= 100
        assert reason in data['settings']['broken'][name]
    assert list(data['settings']['broken']) == sorted(BROKEN)
    assert [line for line in out.splitlines() if len(line) > 100] == []


def test_a_submission_that_cannot_play_forfeits_every_game_unplayed(class_run):
    broken = class_run['json']['settings']['broken']
    games = [game for game in class_run['json']['games']
             if game['first'] in BROKEN or game['second'] in BROKEN]
    assert len(games) == 36  # 18 of the 21 pairings of 7 players, 2 games each
    for game in games:
        assert game['termination'] == referee.CANNOT_LOAD and game['moves'] == []
        assert game['plies'] == 0 and game['moves_first'] == game['moves_second'] == 0
        first, second = game['first'], game['second']
        if first in BROKEN and second in BROKEN:  # a draw, charged to the first seat
            assert game['score'] == 0.5 and game['forfeit'] == first
            assert game['detail'] == f'{broken[first]}; {second} cannot play either: ' \
                                     f'{broken[second]}'
        else:
            loser = first if first in BROKEN else second
            assert game['forfeit'] == loser and game['detail'] == broken[loser]
            assert game['score'] == (0.0 if loser == first else 1.0)
    overall = {row['player']: row for row in class_run['json']['standings']['overall']}
    for name in BROKEN:
        assert overall[name]['wins'] == 0 and overall[name]['points'] == 3  # 6 draws
        assert overall[name]['elo'] < min(overall[good]['elo'] for good in GOOD)


def test_the_good_submissions_play_as_in_a_run_without_the_broken(class_run):
    def by_pairing(games):
        return {(game['first'], game['second'], game['pair'], game['leg']):
                (game['moves'], game['score'], game['termination']) for game in games
                if {game['first'], game['second']} <= GOOD}
    played = by_pairing(class_run['json']['games'])
    assert len(played) == 6 and played == by_pairing(class_run['clean']['games'])


def test_the_reports_show_who_cannot_play_and_why(class_run):
    out, page = class_run['done'].stdout, class_run['html']
    assert 'Cannot load' in out and 'cannot load' in out  # how games ended, the forfeits
    assert 'Cannot play' in page and 'nofunc.py has no player function' in page
    assert 'SystemExit: 3 (exits.py, line 2)' in page
    listed = run('games', '--db', class_run['db'], '--ending', 'cannot load')
    assert listed.returncode == 0 and '36 games' in listed.stdout
    shown = run('replay', '--db', class_run['db'], '0')  # random against alice: played
    assert shown.returncode == 0 and '1. ' in shown.stdout
    game = next(game['index'] for game in class_run['json']['games'] if game['first'] == 'exits')
    shown = run('replay', '--db', class_run['db'], str(game)).stdout
    assert 'exits cannot play, so no move was played (SystemExit: 3' in shown and '1. ' not in shown


def test_strict_stops_at_the_first_that_cannot_play(tmp_path):
    subs = write_class(tmp_path / 'subs')
    done = play('--submissions', str(subs), '--players', 'random', '--sandbox', 'process',
                '--strict')
    assert done.returncode == 2 and done.stdout == '' and done.stderr.count('\n') == 1
    assert 'leads out of the folder' in done.stderr  # dave, read before any is loaded
    (subs / 'dave' / 'secret').unlink()
    done = play('--submissions', str(subs), '--sandbox', 'process', '--strict')
    assert done.returncode == 2 and done.stdout == '' and done.stderr.count('\n') == 1
    assert "player 'exits' cannot play: SystemExit: 3" in done.stderr


@pytest.mark.parametrize('strict', [[], ['--strict']])
@pytest.mark.parametrize('players, message', [
    ('random,nobody', "unknown player 'nobody'"),
    ('random,no/such/file.py', "no player file 'no/such/file.py'"),
    ('random,no/such/folder', "no player folder 'no/such/folder'"),
])
def test_a_name_typed_wrong_is_a_usage_error_strict_or_not(tmp_path, players, message, strict):
    (tmp_path / 'alice.py').write_text(FIRST_MOVE)
    done = play('--submissions', str(tmp_path), '--players', players, *strict)
    assert done.returncode == 2 and done.stdout == '' and message in done.stderr
    assert done.stderr.count('\n') == 1


def test_a_missing_or_empty_class_folder_is_a_usage_error(tmp_path):
    (tmp_path / '.hidden.py').write_text(FIRST_MOVE)
    (tmp_path / 'notes.txt').write_text('')
    for folder, message in ((tmp_path / 'none', 'no folder'), (tmp_path, 'holds no submission')):
        done = play('--submissions', str(folder), '--players', 'random')
        assert done.returncode == 2 and done.stdout == '' and message in done.stderr
        assert done.stderr.count('\n') == 1


def test_a_submission_alone_needs_another_player(tmp_path):
    (tmp_path / 'alice.py').write_text(FIRST_MOVE)
    done = play('--submissions', str(tmp_path))
    assert done.returncode == 2 and 'at least two players, got alice' in done.stderr


def test_a_game_of_a_player_that_cannot_play_starts_no_jail():
    """The players' code is not even given: any jail started would fail."""
    spec = ScheduledGame(0, 'simple-nim', 'a', 'b', 0, 0, 1)
    record = play_scheduled_game(spec, Rules(openings=2), {}, variants.make, None,
                                 broken={'b': 'SyntaxError: x'})
    assert (record.score, record.forfeit, record.termination, record.detail,
            record.moves, record.opening) == (1.0, 'b', 'cannot load', 'SyntaxError: x',
                                                    [], 0)
    record = play_scheduled_game(spec, Rules(), {}, variants.make, None,
                                 broken={'a': 'one', 'b': 'two'})
    assert (record.score, record.forfeit, record.detail) == (
        0.5, 'a', 'one; b cannot play either: two')


def test_the_ladder_plays_a_fixed_submission_again_and_nothing_else(tmp_path):
    subs, db = tmp_path / 'subs', str(tmp_path / 'run.sqlite')
    subs.mkdir()
    (subs / 'alice.py').write_text(FIRST_MOVE)
    (subs / 'bob.py').write_text('def player(game, state)\n')
    ladder = ['--submissions', str(subs), '--players', 'random', '--sandbox', 'process',
              '--db', db]
    first = play(*ladder)
    assert first.returncode == 0 and 'bob: cannot play: SyntaxError' in first.stdout
    assert 'Games: 0 to play now, 6 reused' in play(*ladder).stdout
    (subs / 'bob.py').write_text(FIRST_MOVE)
    fixed = play(*ladder)
    assert 'Games: 4 to play now, 2 reused' in fixed.stdout and 'cannot play' not in fixed.stdout
    assert 'Cannot load' not in fixed.stdout


@pytest.mark.parametrize('in_a_file, jailed', [
    (False, ['alice']),            # a registry player is loaded in this process
    (True, ['random', 'alice'])])  # but a jail loads a game's file too
def test_only_what_a_jail_must_load_is_checked_in_a_jail(tmp_path, monkeypatch, in_a_file, jailed):
    asked: list = []

    def check_players(codes, *args, **kwargs):
        asked.extend(codes)
        return {}
    monkeypatch.setattr(entrants, 'check_players', check_players)
    (tmp_path / 'alice.py').write_text(FIRST_MOVE)
    (tmp_path / 'piles.py').write_text('from games import Nim\n\n\nclass Piles(Nim):\n    pass\n')
    variant = f'{tmp_path / "piles.py"}:Piles' if in_a_file else 'simple-nim'
    specs = {'random': 'random', 'alice': str(tmp_path / 'alice.py')}
    assert entrants.check(specs, variant, Rules()).broken == {} and asked == jailed
