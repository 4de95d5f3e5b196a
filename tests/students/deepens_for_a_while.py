"""A correct player that deepens its minimax search one ply at a time and stops after a
twenty-fifth of its time for the move (0.4 s of a 10 s limit), keeping the move of
its deepest finished search: far inside the limit, at every move."""
import math
import time

from games import clock

infinity = math.inf


class OutOfTime(Exception):
    pass


def search(game, state, player, depth, deadline):
    """The value of state for player, looking depth plies ahead."""
    if time.monotonic() > deadline:
        raise OutOfTime
    if game.terminal_test(state):
        return game.utility(state, player)
    if depth == 0:
        return game.evaluate(state, player)
    if not game.actions(state):  # dice to roll, in a game of chance
        return sum(game.probability(roll) * search(game, game.outcome(state, roll), player,
                                                   depth, deadline)
                   for roll in game.chances(state))
    values = (search(game, game.result(state, move), player, depth - 1, deadline)
              for move in game.actions(state))
    return max(values) if game.to_move(state) == player else min(values)


def player(game, state):
    deadline = time.monotonic() + (clock.time_left() or 10) / 25
    player = game.to_move(state)
    moves = game.actions(state)
    best = moves[0]
    for depth in range(1, 100):
        try:  # the first plies whatever the clock says, for a steady strength
            values = [search(game, game.result(state, move), player, depth - 1,
                             deadline if depth > 4 else infinity)
                      for move in moves]
        except OutOfTime:
            break
        best = moves[values.index(max(values))]
    while time.monotonic() < deadline:  # it thinks on, as a student's player may
        time.sleep(0.005)
    return best
