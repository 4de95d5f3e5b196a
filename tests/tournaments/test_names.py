"""Player names (file stems, unique, NAME=SPEC; a class's submissions by their
paths alone, never read as specs, never taking an anchor's name) and registry
players with options."""

import json
import os

import pytest

import players
from games import Nim, TreeGame
from players.cli.inputs import tournament_players
from players.tournaments.naming import name_players, split_specs
from players import registry
from command_line import run
from theory import chain

def test_commas_inside_brackets_do_not_split_players():
    assert split_specs('ab2, mcts(N=9),x=subs/a.py:player,,') == [
        'ab2', 'mcts(N=9)', 'x=subs/a.py:player']
    assert split_specs("f(a=(1, 2), b='x,y'),ab1") == ["f(a=(1, 2), b='x,y')", 'ab1']


def test_a_file_player_is_named_by_its_stem():
    assert name_players(['subs/alice.py:player', 'subs/bob.py', 'ab2', 'mcts(N=200)']) == {
        'alice': 'subs/alice.py:player', 'bob': 'subs/bob.py', 'ab2': 'ab2',
        'mcts(N=200)': 'mcts(N=200)'}
    assert name_players(['pkg.module:player']) == {'module': 'pkg.module:player'}


def test_colliding_stems_get_more_of_their_spec():
    names = name_players(['a/alice.py:player', 'b/alice.py:player', 'a/alice.py:other',
                          'bob.py', 'bob.py'])
    assert names == {'a/alice': 'a/alice.py:player', 'b/alice': 'b/alice.py:player',
                     'alice.other': 'a/alice.py:other', 'bob': 'bob.py'}
    same = name_players(['x/alice.py', 'x/alice.py:player'])  # one file, two spellings
    assert sorted(same) == ['x/alice', 'x/alice-2']


def test_an_explicit_name_wins_and_others_make_way():
    names = name_players(['alice=subs/carol.py', 'subs/alice.py', 'ab1'])
    assert names == {'alice': 'subs/carol.py', 'subs/alice': 'subs/alice.py', 'ab1': 'ab1'}
    assert name_players(['ab(depth=3)']) == {'ab(depth=3)': 'ab(depth=3)'}  # '=' of an option


def test_a_submissions_path_is_its_own_name_and_takes_no_anchors(tmp_path):
    """A class's file named as an anchor (ab2.py), with a space, an '=' or a ':' in
    its name (read as NAME=SPEC or FOLDER:FILE, they stopped the run or played
    alice's folder): each is named by its path, and the anchors are the registry's."""
    paths = [str(tmp_path / name) for name in ('ab2.py', 'my bot.py', 'x=y.py',
                                               'alice:player.py', 'alice')]
    for path in paths[:-1]:
        open(path, 'w').close()
    os.mkdir(paths[-1])
    specs, _ = tournament_players(None, None, ['random', 'ab2'], paths)
    names = [f'{tmp_path.name}/ab2', 'my bot', 'x=y', 'alice:player', 'alice']
    assert specs == {**dict(zip(names, paths)), 'random': 'random', 'ab2': 'ab2'}
    assert tournament_players(None, 'ab2', [], paths) == ({'ab2': 'ab2', **dict(zip(
        names, paths))}, 'ab2')
    assert tournament_players(None, paths[3], [], paths)[1] == 'alice:player'


@pytest.mark.parametrize('entries, message', [
    (['a=ab1', 'a=ab2'], "the name 'a' is given to two players"),
    (['ab2=subs/x.py', 'ab2'], "'ab2' is given to 'subs/x.py' and is also a player"),
    (['=ab2'], 'NAME=SPEC'),
    (['alice='], 'NAME=SPEC'),
])
def test_bad_names_are_errors(entries, message):
    with pytest.raises(ValueError, match=message):
        name_players(entries)


def test_ab_with_a_depth_looks_exactly_that_far():
    """The lost line lies 4 plies deep: ab(depth=3) cannot see it, ab(depth=4) can."""
    lost = TreeGame({'A': {'a': 'N1', 'b': 'Z'}, 'N1': {'m': 'N2'}, 'N2': {'m': 'N3'},
                     'N3': {'m': 'N4'}}, {'N4': -1, 'Z': 0})
    assert players.load_player('ab(depth=3)')(lost, lost.initial) == 'a'
    assert players.load_player('ab(depth=4)')(lost, lost.initial) == 'b'
    assert players.load_player('ab(depth=5)')(chain(5), chain(5).initial) == 'a'


def test_random_with_a_seed_repeats_itself_and_without_one_uses_the_game_seed():
    game = Nim(piles=(5, 5, 5))
    loaded = [players.load_player('random(seed=3)') for _ in range(2)]
    moves = [[player(game, game.initial) for _ in range(12)] for player in loaded]
    assert moves[0] == moves[1] and len(set(moves[0])) > 1
    assert players.load_player('random()') is players.PLAYER['random']


def test_mcts_gets_its_number_of_play_outs(monkeypatch):
    asked = []
    monkeypatch.setattr(registry, 'monte_carlo_tree_search',
                        lambda state, game, N: asked.append(N) or game.actions(state)[0])
    game = Nim(piles=(2,))
    players.load_player('mcts(N=7)')(game, game.initial)
    assert asked == [7]


@pytest.mark.parametrize('spec, message', [
    ('mcts(n=3)', "mcts has no parameter 'n'; its parameters: N"),
    ('mcts(N="many")', 'mcts: N must be a whole number'),
    ('mcts(N=0)', 'mcts: N must be at least 1'),
    ('ab', 'ab needs depth'),
    ('ab(depth=2.5)', 'ab: depth must be a whole number'),
    ('random(seed=1, seed=2)', 'seed is given twice'),
    ('chess(level=3)', "unknown player 'chess'"),
    ('mcts(N=__import__("os").getpid())', 'must be a literal'),
])
def test_bad_options_are_errors_naming_them(spec, message):
    with pytest.raises(players.PlayerLoadError, match=message.replace('(', r'\(')):
        players.load_player(spec)


def test_list_shows_each_players_options():
    out = run('list').stdout
    assert '[N=1000]' in out.split('\n  mcts ')[1].splitlines()[0]
    assert '[seed=None]' in out.split('\n  random ')[1].splitlines()[0]
    assert '\n  ab(depth) ' in out


def test_a_bad_option_stops_the_tournament_before_any_game(tmp_path):
    db = tmp_path / 'run.sqlite'
    done = run('--players', 'ab1,mcts(N=-5)', '--variants', 'nim', '--db', str(db))
    assert done.returncode == 2 and 'mcts: N must be at least 1' in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not db.exists()


def test_the_tables_and_records_show_names_and_keep_specs(tmp_path):
    first = tmp_path / 'subs' / 'alice.py'
    first.parent.mkdir()
    first.write_text('def player(game, state):\n    return game.actions(state)[0]\n')
    path = tmp_path / 'run.json'
    done = run('--players', f'{first},bob={first}:player,mcts(N=20)', '--variants', 'nim',
               '--json', str(path), '--csv', str(tmp_path / 'run.csv'))
    assert done.returncode == 0, done.stderr
    assert 'Players: alice, bob, mcts(N=20)' in done.stdout and str(tmp_path) not in done.stdout
    data = json.loads(path.read_text())
    assert data['settings']['specs'] == {'alice': str(first), 'bob': f'{first}:player',
                                         'mcts(N=20)': 'mcts(N=20)'}
    for game in data['games']:
        assert data['settings']['specs'][game['first']] == game['first_spec']
        assert data['settings']['specs'][game['second']] == game['second_spec']
    overall = data['standings']['overall']
    assert {row['player'] for row in overall} == {'alice', 'bob', 'mcts(N=20)'}
    assert 'first_spec' in (tmp_path / 'run.csv').read_text().splitlines()[0]


def test_a_factory_of_ones_own_takes_typed_options():
    @players.register_factory('test_greedy')
    def greedy(most: int = 3) -> 'NotAName':  # noqa: F821 (a return type is never resolved)
        """Take up to most counters at once."""
        return lambda game, state: max(game.actions(state), key=lambda m: min(m[1], most))
    try:
        game = Nim(piles=(5, 4))
        assert players.load_player('test_greedy(most=2)')(game, game.initial) == (1, 2)
        with pytest.raises(players.PlayerLoadError, match='most must be a whole number'):
            players.load_player('test_greedy(most=2.5)')
        assert registry.options('test_greedy') == 'most=3'
    finally:
        del players.REGISTRY['test_greedy']
    with pytest.raises(ValueError, match='needs a name such as'):
        players.register_factory('my-player')
