"""The trained agent of docs/learning.md: the example's script trains a tic-tac-toe
agent from scratch that beats random, the same seed giving the same weights; the
committed agent folder refuses a game it has no weights for, plays a round robin as
a submission in its jail with numpy allowed, and cannot play without it."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest
from places import ROOT

np = pytest.importorskip('numpy', reason='the trained agent needs numpy')

import variants  # noqa: E402
from command_line import run  # noqa: E402
from games import referee  # noqa: E402
from jails import LEVELS, adopting_orphans  # noqa: E402
from players import load_player  # noqa: E402

pytestmark = pytest.mark.slow

EXAMPLE = os.path.join(ROOT, 'docs', 'examples', 'learning')
"""The example: its training script, and the agent folder it trained."""
AGENT = os.path.join(EXAMPLE, 'agent')
"""The committed submission folder: player.py and a weights file for each game."""
NEEDS_PETTINGZOO = pytest.mark.skipif(
    importlib.util.find_spec('pettingzoo') is None,
    reason="training needs the learning environment: pip install -e '.[rl]'")


def wins_against_random(folder, variant, games=100):
    """Return how many of a number of games the player of folder wins against random,
    playing first and second in turn, each game played by the project's referee."""
    game, agent, other = variants.make(variant), load_player(folder), load_player('random(seed=1)')
    won = 0
    for number in range(games):
        seat = number % 2
        record = referee.play(game, [agent, other] if seat == 0 else [other, agent])
        assert record.termination == referee.NORMAL, record.detail
        won += record.winner == seat
    return won


def example_module():
    """Return the training script as a module."""
    spec = importlib.util.spec_from_file_location('train', os.path.join(EXAMPLE, 'train.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@NEEDS_PETTINGZOO
def test_an_agent_trained_from_scratch_beats_random(tmp_path):
    done = subprocess.run(
        [sys.executable, os.path.join(EXAMPLE, 'train.py'), 'tictactoe', '--self-play',
         '--episodes', '3000', '--seed', '1', '--out', str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={**os.environ, 'PYTHONPATH': ROOT})
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(tmp_path)) == ['player.py', 'tictactoe.npz']
    assert wins_against_random(str(tmp_path), 'tictactoe') >= 90


@NEEDS_PETTINGZOO
def test_the_same_seed_gives_the_same_weights():
    train = example_module()
    for spec, episodes in (('tictactoe', 200), ('connect4', 20)):
        first, second = (train.train(spec, episodes, seed=3)[1].weights() for _ in range(2))
        assert first.keys() == second.keys()
        assert all(np.array_equal(first[name], second[name]) for name in first), spec


def test_the_agent_refuses_a_game_it_has_no_weights_for():
    game = variants.make('nim')
    trained = r'it was trained on connect4\(h=7, v=6, k=4\), tictactoe\(h=3, v=3, k=3\)$'
    with pytest.raises(ValueError, match=r'^this agent has no weights for nim\(.*\); ' + trained):
        load_player(AGENT)(game, game.initial)


def tournament(out, *options):
    """Play random, ab2 and the agent folder at tic-tac-toe and Connect Four with
    options; return what the command printed and its results."""
    with adopting_orphans():
        done = run('--players', f'random,ab2,{AGENT}', '--variants', 'tictactoe', 'connect4',
                   '--jobs', '2', '--json', str(out), *options)
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(out.read_text())


@pytest.mark.parametrize('level', LEVELS)
def test_the_agent_plays_a_round_robin_in_its_jail(tmp_path, level):
    _, results = tournament(tmp_path / 'run.json', '--allow', 'numpy', '--sandbox', level)
    played = [game for game in results['games'] if 'agent' in (game['first'], game['second'])]
    assert results['settings']['broken'] == {} and len(results['games']) == 12
    assert len(played) == 8 and all(game['forfeit'] is None for game in results['games'])
    assert {game['termination'] for game in results['games']} == {referee.NORMAL}


def test_without_numpy_allowed_the_agent_cannot_play_and_says_why(tmp_path):
    out, results = tournament(tmp_path / 'run.json', '--sandbox', 'process')
    line = next(line for line in out.splitlines() if line.startswith('agent: cannot play: '))
    assert "No module named 'numpy' (installed? --allow numpy)" in line
    lost = [game for game in results['games'] if game['forfeit'] == 'agent']
    assert len(lost) == 8 and {game['termination'] for game in lost} == {referee.CANNOT_LOAD}
