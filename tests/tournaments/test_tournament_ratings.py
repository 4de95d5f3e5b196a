"""Ratings: the Bradley–Terry fit, checked against the model's own equations."""

import math

import pytest

from players.tournaments.ratings import PRIOR_GAMES, fit


def expected_scores(elos, games):
    """Each player's expected points under Bradley–Terry at these Elo ratings,
    the prior's games against a player of Elo 0 (before centring) included."""
    return {i: sum(n / (1 + 10 ** ((elos[j] - elos[i]) / 400))
                   for (a, b), n in games.items() for i_, j in ((a, b), (b, a)) if i_ == i)
            for i in elos}


def test_the_fit_solves_the_likelihood_equations():
    """At the maximum, each player's expected points equal its points (prior included)."""
    games = {('a', 'b'): 10, ('b', 'c'): 6, ('a', 'c'): 4, ('c', 'd'): 8}
    points = {('a', 'b'): 7, ('b', 'a'): 3, ('b', 'c'): 2.5, ('c', 'b'): 3.5, ('a', 'c'): 4,
              ('c', 'a'): 0, ('c', 'd'): 5, ('d', 'c'): 3}
    ratings = fit('abcd', games, points)
    assert abs(sum(elo for elo, _ in ratings.values())) < 1e-6
    # Undo the centring: the prior's opponent sits where the fit's raw scale has 0.
    shift = _prior_offset(ratings, games)
    elos = {player: elo - shift for player, (elo, _) in ratings.items()}
    expected = expected_scores(elos, games)
    for player in 'abcd':
        prior = PRIOR_GAMES / (1 + 10 ** (-elos[player] / 400))
        won = sum(p for (x, _), p in points.items() if x == player) + PRIOR_GAMES / 2
        assert expected[player] + prior == pytest.approx(won, abs=1e-6)


def _prior_offset(ratings, games):
    """Find the shift that puts the prior's opponent at Elo 0, by bisection on
    the sum of the likelihood equations (which only the prior terms unbalance)."""
    def imbalance(shift):
        return sum(PRIOR_GAMES * (1 / (1 + 10 ** (-(elo - shift) / 400)) - 0.5)
                   for elo, _ in ratings.values())
    low, high = -2000.0, 2000.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if imbalance(middle) > 0 else (low, middle)
    return (low + high) / 2


def test_two_players_approach_the_logistic_difference():
    """With many games the prior fades: 75% is 400 log10(3) = 190.8 Elo apart."""
    ratings = fit('ab', {('a', 'b'): 4000}, {('a', 'b'): 3000, ('b', 'a'): 1000})
    assert ratings['a'][0] - ratings['b'][0] == pytest.approx(400 * math.log10(3), abs=1)
    margin = 1.96 / math.sqrt(4000 * 0.75 * 0.25) * 400 / math.log(10)  # of the difference
    assert ratings['a'][1] == pytest.approx(margin / 2, rel=0.01)


def test_equal_scores_give_equal_ratings_and_more_games_narrower_margins():
    few = fit('ab', {('a', 'b'): 4}, {('a', 'b'): 2, ('b', 'a'): 2})
    many = fit('ab', {('a', 'b'): 400}, {('a', 'b'): 200, ('b', 'a'): 200})
    assert few['a'][0] == pytest.approx(0, abs=1e-6) == many['b'][0]
    assert many['a'][1] < few['a'][1]


def test_an_unbeaten_player_stays_finite_and_the_order_is_transitive():
    games = {('a', 'b'): 10, ('b', 'c'): 10, ('a', 'c'): 10}
    points = {('a', 'b'): 10, ('b', 'c'): 10, ('a', 'c'): 10}
    ratings = fit('abc', games, points)
    assert ratings['a'][0] > ratings['b'][0] > ratings['c'][0]
    assert all(math.isfinite(elo) and math.isfinite(margin) for elo, margin in ratings.values())
