"""Every game as a PettingZoo environment: PettingZoo's own api_test and seed_test on
every registered variant and on game files, the action numbers against the legal
moves, the rewards against the game's own utility, and the messages for a game that
cannot be one."""

import warnings
from pathlib import Path

import pytest

INSTALL = "the learning environment needs the rl extra: pip install -e '.[rl]'"
np = pytest.importorskip('numpy', reason=INSTALL)
pytest.importorskip('pettingzoo', reason=INSTALL)
with warnings.catch_warnings():  # importing PettingZoo's checks warns of its deprecated ways
    warnings.simplefilter('ignore', DeprecationWarning)
    from pettingzoo.test import api_test, seed_test

import variants  # noqa: E402
from games import textbook  # noqa: E402
from games.learning import numbering  # noqa: E402
from games.learning.environment import environment  # noqa: E402

TAKE_AWAY = Path(__file__).with_name('take_away.py')
HOMEWORK = Path(__file__).parent.parent / 'homework'


@pytest.fixture
def take_away():
    """The spec of a game file with no action numbers or observation of its own."""
    return f'{TAKE_AWAY}:TakeAway(heap=7)'


def quiet(check, *args, **kwargs):
    """Run one of PettingZoo's checks without its printing and its warnings of style."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        check(*args, **kwargs)


@pytest.mark.parametrize('name', list(variants.VARIANTS))
def test_pettingzoos_own_checks_pass_on_every_variant(name, capsys):
    quiet(api_test, variants.environment(name), num_cycles=200)
    quiet(seed_test, lambda: variants.environment(name), num_cycles=100)
    assert 'Passed API test' in capsys.readouterr().out


@pytest.mark.parametrize('make', [textbook.TicTacToe, textbook.ConnectFour, textbook.Gomoku,
                                  textbook.Fig52Game], ids=lambda make: make.__name__)
def test_pettingzoos_own_checks_pass_on_aimas_own_classes(make, capsys):
    quiet(api_test, environment(make()), num_cycles=100)
    quiet(seed_test, lambda: environment(make()), num_cycles=50)
    assert 'Passed API test' in capsys.readouterr().out


def test_aimas_connect_four_numbers_the_lines_its_pieces_fall_along():
    # AIMA's pieces fall along x to line h: a move's y is its column
    env = environment(textbook.ConnectFour())
    env.reset()
    assert env.action_space('player_0').n == 6
    env.step(2)
    assert env.unwrapped.state.board == {(7, 3): 'X'}


def test_pettingzoos_own_checks_pass_on_a_game_file_without_numbers(take_away, capsys):
    quiet(api_test, variants.environment(take_away), num_cycles=100)
    quiet(seed_test, lambda: variants.environment(take_away), num_cycles=50)
    assert 'Passed API test' in capsys.readouterr().out
    env = variants.environment(take_away)
    env.reset()
    # the walk found both moves, and observes each position (who moves, what is left)
    positions, frontier = set(), [('A', 7)]
    while frontier:
        mover, left = frontier.pop()
        if (mover, left) not in positions:
            positions.add((mover, left))
            frontier += [('B' if mover == 'A' else 'A', left - take)
                         for take in (1, 2) if take <= left]
    assert env.action_space('player_0').n == 2
    assert env.last()[0]['observation'].shape == (len(positions),)


def random_game(env, rng):
    """Play a game of random legal actions; return the final rewards by agent and the
    actions taken."""
    env.reset(seed=int(rng.integers(1 << 30)))
    totals = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation['action_mask'])
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize('name', ['tictactoe', 'connect4', 'othello-6x6', 'kalah', 'hex',
                                  'breakthrough-6x6', 'backgammon', 'dice-nim', 'split-nim'])
def test_the_mask_is_the_legal_moves_and_the_rewards_the_utilities(name):
    env = variants.environment(name)
    game, inner = env.unwrapped.game, env.unwrapped
    rng = np.random.default_rng(7)
    for _ in range(5):
        env.reset(seed=int(rng.integers(1000)))
        while not inner.terminations[env.agent_selection]:
            agent = env.agent_selection
            state = inner.state
            assert game.to_move(state) == inner.seats[agent]
            mask = env.observe(agent)['action_mask']
            firsts = {steps[0] for steps in map(inner.numbering.steps, game.actions(state))}
            if not inner.made:  # the mask at a move's start: each legal move's first step
                assert set(np.flatnonzero(mask)) == firsts
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)['action_mask'].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        for agent, seat in inner.seats.items():
            assert env.rewards[agent] == game.utility(inner.state, seat)


def test_a_backgammon_move_is_its_steps_in_a_row():
    env = variants.environment('backgammon')
    env.reset(seed=3)
    inner = env.unwrapped
    state, agent = inner.state, env.agent_selection
    move = inner.game.actions(state)[0]
    steps = inner.numbering.steps(move)
    for done, number in enumerate(steps[:-1], 1):
        env.step(number)
        assert env.agent_selection == agent and inner.state == state  # still its turn
        assert env.infos[agent]['steps'] == list(steps[:done])
    env.step(steps[-1])
    assert env.infos[agent]['steps'] == []
    assert inner.state.board == inner.game.result(state, move).board
    assert env.agent_selection != agent


def test_an_illegal_action_loses_and_one_out_of_range_raises():
    env = variants.environment('tictactoe')
    env.reset()
    env.step(4)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        env.step(4)  # taken: O loses
    assert env.rewards == {'player_0': 0.0, 'player_1': -1.0}
    assert all(env.terminations.values())
    env.reset()
    with pytest.raises(ValueError, match='from 0 to 8, got 9'):
        env.step(9)


def test_the_observation_is_from_the_agents_side():
    env = variants.environment('tictactoe')
    env.reset()
    env.step(0)  # X at (1, 1)
    assert env.observe('player_0')['observation'][0, 0].tolist() == [1, 0]
    assert env.observe('player_1')['observation'][0, 0].tolist() == [0, 1]


def test_the_same_seed_rolls_the_same_dice():
    def rolls(seed):
        env = variants.environment('backgammon')
        env.reset(seed=seed)
        return [env.unwrapped.state.chance] + [
            env.reset() or env.unwrapped.state.chance for _ in range(5)]
    assert rolls(11) == rolls(11)
    assert rolls(11) != rolls(12)


def test_render_shows_the_games_own_board():
    env = variants.environment('nim', render_mode='ansi')
    env.reset()
    assert env.render() == variants.make('nim').board_text(variants.make('nim').initial)
    with pytest.raises(ValueError, match="render_mode must be one of human, ansi"):
        variants.environment('nim', render_mode='rgb_array')


def test_max_plies_truncates():
    env = variants.environment('kalah', max_plies=4)
    env.reset(seed=0)
    for _ in range(4):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)['action_mask'])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def lists_take_away(tmp_path, kind):
    """The spec of Take Away with its positions as kind (list or bytearray) of the
    mover and what is left, as aima-python's games keep lists in theirs."""
    source = TAKE_AWAY.read_text().replace("State('A', heap)", f"{kind}([65, heap])").replace(
        "return State('B' if state.to_move == 'A' else 'A', state.left - move)",
        f"return {kind}([131 - state[0], state[1] - move])").replace(
        'state.left', 'state[1]').replace('state.to_move', 'state[0]')
    path = tmp_path / f'{kind}_take_away.py'
    path.write_text(source + '\n    def to_move(self, state):\n        return state[0]\n')
    return f'{path}:TakeAway'


def test_positions_in_lists_are_walked_as_aimas_games_need(tmp_path, capsys):
    quiet(api_test, variants.environment(lists_take_away(tmp_path, 'list')), num_cycles=50)
    assert 'Passed API test' in capsys.readouterr().out


def test_an_aima_python_homework_game_is_an_environment(capsys):
    spec = f'{HOMEWORK / "game_of_nim.py"}:GameOfNim(board=[2, 3])'
    quiet(api_test, variants.environment(spec), num_cycles=50)
    quiet(seed_test, lambda: variants.environment(spec), num_cycles=50)
    assert 'Passed API test' in capsys.readouterr().out


def test_a_game_that_cannot_be_numbered_says_what_to_add(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="cannot be hashed.*give its class action_count, "
                                         "action_number and observation"):
        variants.environment(lists_take_away(tmp_path, 'bytearray'))
    monkeypatch.setattr(numbering, 'MOST_POSITIONS', 500)
    with pytest.raises(ValueError, match='more than 500 positions, too many to number its '
                                         'moves.*give its class action_count'):
        environment(_big_game())


def _big_game():
    """Tic-tac-toe on 4 x 4 without the registry's action numbers: too many positions to walk."""
    from games.grid import TicTacToe

    class Unnumbered(TicTacToe):
        def action_count(self):
            return None

        def observation(self, state, player):
            return None
    return Unnumbered(4, 4, 4)


def test_a_game_whose_numbers_collide_is_refused():
    from games.grid import TicTacToe

    class Colliding(TicTacToe):
        def action_number(self, move):
            return 0
    env = environment(Colliding())
    with pytest.raises(ValueError, match='have the same action numbers'):
        env.reset()
