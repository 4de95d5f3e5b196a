"""The command line's play and list commands, and its usage errors."""

import os

import pytest
from places import ROOT

import games
import tournament
from command_line import run
from players import registry



def test_list_shows_players_and_variants():
    result = run('list')
    assert result.returncode == 0
    assert 'ab20' in result.stdout and 'misere-nim' in result.stdout and 'connect4' in result.stdout


def test_human_plays_from_stdin_and_retries_bad_input():
    """Simple-Nim from 5 against ab1: the human's junk and illegal input get new prompts."""
    result = run('play', 'nim(piles=(5,), misere=True, max_take=3)', 'human', 'ab3',
                 stdin='hello\n1 4\n2 1\n1 1\n1 3\n1 1\n')
    assert result.returncode == 0, result.stderr
    assert 'Not understood' in result.stdout and "'1 4' is not a legal move" in result.stdout
    assert "'2 1' is not a legal move" in result.stdout
    assert 'wins.' in result.stdout and 'Traceback' not in result.stderr


def test_end_of_input_leaves_cleanly():
    result = run('play', 'tictactoe', 'human', 'ab1', stdin='')
    assert result.returncode == 0 and 'Game abandoned' in result.stdout and not result.stderr


def test_leaving_at_the_prompt_is_said_on_a_line_of_its_own(monkeypatch):
    """A keyboard player that leaves at the end of input without a newline after its
    prompt, as Ctrl-D at a terminal does: the game is abandoned on a new line."""
    def keyboard(game, state):
        try:
            return input('Your move? ')
        except EOFError:
            raise games.PlayerQuit('the player left the game') from None
    monkeypatch.setitem(registry.REGISTRY, 'keyboard',
                        registry.Entry('keyboard', keyboard, interactive=True))
    result = run('play', 'tictactoe', 'keyboard', 'ab1', stdin='')
    assert result.returncode == 0 and 'Game abandoned.' in result.stdout.splitlines()


def test_q_leaves_cleanly():
    result = run('play', 'nim', 'ab1', 'human', stdin='q\n')
    assert result.returncode == 0 and 'Game abandoned' in result.stdout


@pytest.mark.parametrize('args, message', [
    (('play', 'chess', 'ab1', 'ab2'), "unknown variant 'chess'"),
    (('play', 'nim(piles=(-1,))', 'ab1', 'ab2'), 'pile'),
    (('play', 'nim', 'nobody', 'ab2'), "unknown player 'nobody'"),
    (('play', 'nim', 'missing.py:player', 'ab2'), "no player file 'missing.py'"),
    (('play', 'nim'), 'required'),
    (('play', 'nim', 'ab1', 'ab2', '--max-plies', '-1'), 'expected at least 1'),
    (('frobnicate',), 'invalid choice'),
])
def test_bad_arguments_are_one_line_errors_with_status_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert 'Traceback' not in result.stderr


def test_a_file_player_plays_from_its_jail():
    hostile = os.path.join(ROOT, 'tests', 'hostile_players.py')
    result = run('play', 'nim(piles=(2, 3))', f'{hostile}:first', 'ab1', '--sandbox', 'process')
    assert result.returncode == 0 and 'wins.' in result.stdout
    result = run('play', 'nim(piles=(2, 3))', f'{hostile}:raises', 'ab1')
    assert result.returncode == 0 and 'forfeits: error: ValueError: boom' in result.stdout


def test_jailed_players_are_told_the_rolls_of_a_game_of_chance(capsys):
    assert tournament.main(['play', 'dice-nim', 'ab1', 'ab2']) == 0
    out = capsys.readouterr().out
    assert 'rolled' in out and 'forfeits' not in out and 'wins.' in out
