"""Players that use their clock: the share of time a move gets, answers within
it, the deepest finished search's move, exact play once it fits in the time."""

import random
import time

import pytest

from games import Nim, clock
from games.grid import ConnectFour, TicTacToe
from games.clock import MoveClock
from players import PLAYER, REGISTRY, solve
from players.search import shared
from players.clocked import make_clocked_mcts_player
from players.search.timing import LEAST_SECONDS, MARGIN_SECONDS, MARGIN_SHARE, move_seconds


@pytest.fixture(autouse=True)
def no_clock_after():
    yield
    clock.set_current(MoveClock())


SCHEDULING = 0.3
"""Slack for a busy machine, where a process may wait this long to run again. The
tests bound the time a player computes (its thread's processor time), which no
other process takes from it. A player that ignored its clock would compute far
longer: a search of Connect Four runs for minutes, and mcts-clock without a clock
spends a whole second."""


def give(seconds, remaining=None, increment=0.0):
    """Set the clock of the next move: seconds until its deadline."""
    clock.set_current(MoveClock(time.monotonic() + seconds, remaining, increment))


def test_a_move_gets_its_share_of_the_clock_and_a_margin_inside_the_limit():
    assert move_seconds(0.7) == 0.7  # no clock at all: the player's own default
    give(2.0)
    assert 2.0 * (1 - MARGIN_SHARE) - MARGIN_SECONDS - 0.01 < move_seconds(0.7) < 1.8
    give(60.0, remaining=60.0, increment=1.0)
    assert move_seconds(0.7) == pytest.approx(60 / 20 + 1)
    give(0.01, remaining=0.01)
    assert move_seconds(0.7) == LEAST_SECONDS


def test_ab_clock_answers_in_time_with_the_move_of_the_deepest_search_it_finished():
    game = ConnectFour()
    state = game.result(game.initial, (4, 1))
    shared.clear_tables()
    give(0.3)
    computed = time.thread_time()
    move = PLAYER['ab-clock'](game, state)
    assert time.thread_time() - computed < 0.3 + SCHEDULING
    depth = PLAYER['ab-clock'].stats['depth']
    assert depth >= 4 and not PLAYER['ab-clock'].stats['exact']
    assert move == PLAYER[f'ab{depth}'](game, state)


@pytest.mark.parametrize('game', [TicTacToe(), Nim((3, 4, 5)), Nim((2, 3), misere=True)])
def test_ab_clock_stops_once_its_value_is_exact_and_plays_perfectly(game):
    give(5.0)
    start = time.monotonic()
    move = PLAYER['ab-clock'](game, game.initial)
    assert time.monotonic() - start < 1 and PLAYER['ab-clock'].stats['exact']
    best = solve(game).value
    assert -solve(game, game.result(game.initial, move)).value == best


def test_mcts_clock_plays_until_its_time_is_spent_or_its_playouts_are_done():
    game = TicTacToe()
    give(0.2)
    start, computed = time.monotonic(), time.thread_time()
    assert PLAYER['mcts-clock'](game, game.initial) in game.actions(game.initial)
    assert time.monotonic() - start > 0.1 and time.thread_time() - computed < 0.2 + SCHEDULING
    assert PLAYER['mcts-clock'].stats['playouts'] > 10
    capped = make_clocked_mcts_player(N=50)
    clock.set_current(MoveClock())  # no clock: a second, but 50 play-outs come first
    capped(game, game.initial)
    assert capped.stats == {'playouts': 50}
    assert REGISTRY['mcts-clock'].on_request and REGISTRY['ab-clock'].on_request
    assert not REGISTRY['perfect'].on_request


def test_perfect_connect_four_plays_exactly_once_it_fits_in_its_time():
    game = ConnectFour()
    rng = random.Random(11)
    state = game.initial
    while len(state.board) < 30:
        after = game.result(state, rng.choice(game.actions(state)))
        state = state if game.terminal_test(after) else after
    give(1.0)
    move = PLAYER['perfect'](game, state)
    assert PLAYER['perfect'].stats['exact'] and move == solve(game, state).move
    give(0.2)
    start = time.monotonic()
    move = PLAYER['perfect'](game, game.initial)
    assert time.monotonic() - start < 0.2 + SCHEDULING and move in game.actions(game.initial)
    stats = PLAYER['perfect'].stats
    assert not stats['exact'] and move == PLAYER[f'ab{stats["depth"]}'](game, game.initial)
