"""Code written for aima-python runs unchanged and prints the same.

tests/homework/ holds homework-shaped files of our own, each written as students of
aima-python write them (a GameOfNim with its own display, a Mancala searched by the
course slides' alpha_beta_search(state, game, d=N), a tic-tac-toe subclass, a
game of dice that does `from utils import *`; a checkers game that uses what AIMA's
games.py imports without importing it (copy, itertools, namedtuple, np, vector_add),
a Connect Four heuristic beside the book's own games, a Kalah whose to_move gives a
second move in a row played by play_game, and a card game whose player types Python,
such as state.moves[0]), with the keys a person typed (.in) and what each printed
when run beside aima-python's games.py and utils.py (.out; the last four print the
same beside its games.py of 2020, whose query_player asked once, and of 2026, which
asks again after an illegal move). Each is run here as a script against this
project, its output compared byte for byte.
Before the run beside aima-python, the slides' older calls were spelled as that
games.py names them: alpha_beta_search(..., d=N) as alpha_beta_cutoff_search, as
aima-python's alphabeta_search(d=4, ...) was until 2017, and alphabeta_search(state,
game) as alpha_beta_search, the full search it named from 2017 to 2018.

Then a game whose every method takes exactly aima-python's arguments, positional
only, plays a round robin, a game of `play` and the HTML report in a copy of the project."""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from places import copy_project

pytestmark = pytest.mark.slow

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HOMEWORK = os.path.join(HERE, 'homework')


@pytest.mark.parametrize('name', ['game_of_nim', 'mancala', 'ttt_homework', 'dice_nim',
                                  'checkers', 'connect_four', 'kalah', 'cards'])
def test_a_homework_file_prints_what_it_prints_with_aima_python(name, tmp_path):
    if name == 'checkers':
        pytest.importorskip('numpy')  # it uses np, which AIMA's games.py imports
    shutil.copy(os.path.join(HOMEWORK, f'{name}.py'), tmp_path)
    shutil.copy(os.path.join(HOMEWORK, 'utils.py'), tmp_path)  # the student's own helpers
    with open(os.path.join(HOMEWORK, f'{name}.in'), encoding='utf-8') as typed:
        keys = typed.read()
    env = {**os.environ, 'PYTHONPATH': ROOT}
    run = subprocess.run([sys.executable, f'{name}.py'], cwd=tmp_path, input=keys,
                         capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 0, run.stderr
    with open(os.path.join(HOMEWORK, f'{name}.out'), encoding='utf-8', newline='') as expected:
        assert run.stdout == expected.read()


def test_query_player_passes_where_there_is_no_legal_move(capsys):
    from games import TicTacToe, query_player
    game = TicTacToe()
    state = game.initial._replace(moves=[])
    assert query_player(game, state) is None
    assert capsys.readouterr().out.endswith(
        'available moves: []\n\nno legal moves: passing turn to next player\n')


STRICT_GAMES = '''
"""Games whose methods take exactly aima-python's arguments, positional only."""

from games import Game, StochasticGame
from games.stochastic import StochasticGameState


class Takeaway(Game):
    """A pile of counters; take 1 or 2; whoever takes the last wins. Shown only by display."""

    name = 'takeaway'

    def __init__(self, pile=5):
        self.pile = pile
        self.initial = (pile, 'MAX')

    def params(self):
        return {'pile': self.pile}

    def actions(self, state, /):
        return [take for take in (1, 2) if take <= state[0]]

    def result(self, state, move, /):
        return (state[0] - move, 'MIN' if state[1] == 'MAX' else 'MAX')

    def utility(self, state, player, /):
        won = state[1] == 'MIN'  # MAX took the last counter
        return (1 if won else -1) * (1 if player == 'MAX' else -1)

    def terminal_test(self, state, /):
        return state[0] == 0

    def to_move(self, state, /):
        return state[1]

    def display(self, state, /):
        print('pile', state[0], '|' * state[0])

    def play_game(self, *players):
        return Game.play_game(self, *players)


class DiceTakeaway(StochasticGame):
    """Takeaway where a roll of 1 or 2 caps the take."""

    name = 'dicetakeaway'

    def __init__(self, pile=5):
        self.pile = pile
        self.initial = StochasticGameState('MAX', 0, pile, (), None)

    def params(self):
        return {'pile': self.pile}

    def actions(self, state, /):
        return [take for take in (1, 2) if take <= min(state.board, state.chance or 2)]

    def result(self, state, move, /):
        board = state.board - move
        won = (1 if state.to_move == 'MAX' else -1) if board == 0 else 0
        return StochasticGameState('MIN' if state.to_move == 'MAX' else 'MAX', won, board,
                                   (), None)

    def utility(self, state, player, /):
        return state.utility if player == 'MAX' else -state.utility

    def terminal_test(self, state, /):
        return state.board == 0

    def to_move(self, state, /):
        return state.to_move

    def display(self, state, /):
        print('pile', state.board, 'roll', state.chance)

    def chances(self, state, /):
        return [1, 2]

    def outcome(self, state, chance, /):
        return state._replace(chance=chance)

    def probability(self, chance, /):
        return 1 / 2

    def play_game(self, *players):
        return StochasticGame.play_game(self, *players)
'''


def test_a_game_with_aimas_signatures_plays_everywhere(tmp_path):
    """A round robin (searching players, MCTS, random), a game of `play`, the HTML
    report and play_game, on a game and a game of chance whose methods take only
    aima-python's arguments: any other call would be a TypeError, a forfeit."""
    project = copy_project(tmp_path / 'project')
    with open(os.path.join(project, 'games', 'strict.py'), 'w') as file:
        file.write(STRICT_GAMES)
    with open(os.path.join(project, 'variants', 'catalog.py'), 'a') as file:
        file.write('\nfrom games.strict import DiceTakeaway, Takeaway  # noqa: E402\n\n'
                   "register_game(Takeaway, Variant('takeaway', 'takeaway', 'take 1 or 2'))\n"
                   "register_game(DiceTakeaway, Variant('dice-takeaway', 'dicetakeaway', "
                   "'take what the roll allows'))\n")
    out, page = tmp_path / 'out.json', tmp_path / 'out.html'
    script = textwrap.dedent(f'''
        import sys, tournament
        from games import alpha_beta_player, random_player
        from games.strict import Takeaway
        print('play_game:', Takeaway().play_game(alpha_beta_player, random_player))
        sys.exit(tournament.main(['--players', 'ab2,minimax,mcts(N=20),random',
                                  '--variants', 'takeaway', 'dice-takeaway', '--jobs', '1',
                                  '--json', {str(out)!r}, '--html', {str(page)!r}])
                 or tournament.main(['play', 'takeaway', 'ab1', 'random']))''')
    run = subprocess.run([sys.executable, '-c', script], cwd=project, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert 'pile 0 \nplay_game: 1' in run.stdout  # display(state) shows the end; MAX won
    games = json.loads(out.read_text())['games']
    assert {game['variant'] for game in games} == {'takeaway', 'dice-takeaway'}
    assert [game for game in games if game['termination'] != 'normal'] == []
    assert 'pile 5 |||||' in page.read_text()  # the report draws it with display
    assert run.stdout.rstrip().endswith('wins.') and '\npile 0 \n' in run.stdout
