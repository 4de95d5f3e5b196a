"""Every game as an OpenSpiel game: OpenSpiel's own random_sim_test on every registered
variant and on a game file's; OpenSpiel's alpha-beta, CFR, MCTS and Q-learning run on
them and find the values and moves theory gives (worked out here, not read from this
project)."""

import functools
import operator
from pathlib import Path

import pytest

INSTALL = "the OpenSpiel bridge needs the rl extra: pip install -e '.[rl]'"
np = pytest.importorskip('numpy', reason=INSTALL)
pyspiel = pytest.importorskip('pyspiel', reason=INSTALL)
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr, expected_game_score, mcts, minimax, tabular_qlearner)

import variants  # noqa: E402
from games.learning.to_openspiel import openspiel_game  # noqa: E402


HEAVY = {'gomoku', 'backgammon', 'hex-11', 'othello'}
"""Variants whose random games are long: one simulation each."""


@pytest.mark.parametrize('name', list(variants.VARIANTS))
def test_openspiels_own_random_simulation_test_passes_on_every_variant(name):
    game = openspiel_game(variants.make(name))
    pyspiel.random_sim_test(game, num_sims=1 if name in HEAVY else 3, serialize=False,
                            verbose=False)


def test_it_passes_on_a_game_file_without_action_numbers():
    take_away = Path(__file__).with_name('take_away.py')
    game = openspiel_game(variants.make(f'{take_away}:TakeAway(heap=7)'), 'take_away_test')
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    assert pyspiel.load_game('take_away_test').num_distinct_actions() == 2


def test_an_aima_python_homework_game_is_an_openspiel_game_alpha_beta_solves():
    # Nim on rows of 2 and 3 where whoever is left to move at the end wins (misère):
    # with a row of two or more, whoever faces a nonzero nim-sum (2 ^ 3 = 1) wins
    homework = Path(__file__).parent.parent / 'homework' / 'game_of_nim.py'
    game = openspiel_game(variants.make(f'{homework}:GameOfNim(board=[2, 3])'))
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    assert minimax.alpha_beta_search(game)[0] == nim_value((2, 3), misere=True)


def nim_value(piles, misere=False):
    """The value of Nim to the player to move, by Bouton's theorem: normal play is won
    with a nonzero nim-sum; misère play likewise while some pile holds two or more, and
    with an even number of piles of one counter otherwise."""
    nim_sum = functools.reduce(operator.xor, piles, 0)
    if misere and all(pile <= 1 for pile in piles):
        return 1.0 if sum(piles) % 2 == 0 else -1.0
    return 1.0 if nim_sum else -1.0


@pytest.mark.parametrize('piles, misere', [((1, 2, 3), False), ((1, 2, 4), False),
                                           ((1, 1, 1), True), ((2, 2, 1), True)])
def test_openspiels_alpha_beta_finds_the_value_of_nim(piles, misere):
    game = openspiel_game(variants.make(f'nim(piles={piles}, misere={misere})'))
    value, _ = minimax.alpha_beta_search(game)
    assert value == nim_value(piles, misere)


def test_openspiels_alpha_beta_finds_figure_5_2s_value_and_move():
    # MAX's best move a1 leads to B, worth min(3, 12, 8) = 3; C and D are worth 2
    game = openspiel_game(variants.make('fig52'))
    value, action = minimax.alpha_beta_search(game)
    assert value == 3.0
    assert game.new_initial_state().action_to_string(0, action) == 'a1'


def test_openspiels_cfr_comes_near_figure_5_2s_value():
    game = openspiel_game(variants.make('fig52'))
    solver = cfr.CFRSolver(game)
    for _ in range(200):
        solver.evaluate_and_update_policy()
    values = expected_game_score.policy_value(game.new_initial_state(),
                                              [solver.average_policy()] * 2)
    assert values[0] == pytest.approx(3.0, abs=0.1)


def test_openspiels_mcts_bot_takes_a_win_in_one_at_connect_four():
    game = openspiel_game(variants.make('connect4'))
    state = game.new_initial_state()
    for column in (0, 6, 0, 6, 0, 5):  # X has three in column 1; O could block next
        state.apply_action(column)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2, 300, mcts.RandomRolloutEvaluator(1, rng), random_state=rng,
                       solve=True)
    assert bot.step(state) == 0


def test_openspiels_q_learner_in_its_rl_environment_learns_simple_nims_winning_move():
    # one pile of 12, take 1 to 3, who takes the last loses: leave a pile of 4k + 1,
    # so the first player's winning move takes 3 (action 2) to leave 9
    game = openspiel_game(variants.make('simple-nim'))
    np.random.seed(0)  # the learner explores with numpy's own generator
    env = rl_environment.Environment(game, seed=0)
    learners = [tabular_qlearner.QLearner(player_id=seat, num_actions=3) for seat in (0, 1)]
    for _ in range(1000):
        step = env.reset()
        while not step.last():
            step = env.step([learners[step.observations['current_player']].step(step).action])
        for learner in learners:
            learner.step(step)
    assert learners[0].step(env.reset(), is_evaluation=True).action == 2


def test_dice_are_chance_nodes_with_the_games_probabilities():
    game = openspiel_game(variants.make('backgammon'))
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 21 and sum(outcomes.values()) == pytest.approx(1.0)
    assert sorted(set(outcomes.values())) == pytest.approx([1 / 36, 1 / 18])


def test_a_name_taken_by_another_game_is_refused():
    openspiel_game(variants.make('nim'), 'aima_test_taken')
    with pytest.raises(ValueError, match='aima_test_taken is taken by another game'):
        openspiel_game(variants.make('misere-nim'), 'aima_test_taken')
    with pytest.raises(ValueError, match='tic_tac_toe is taken'):
        openspiel_game(variants.make('tictactoe'), 'tic_tac_toe')
