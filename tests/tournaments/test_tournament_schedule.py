"""The schedule: how many games, who plays whom, seats swapped within a pair, seeds."""

from collections import Counter

from players.tournaments.schedule import count_games, pairings, schedule

PLAYERS = ['a', 'b', 'c', 'd']


def test_a_round_robin_plays_every_pairing_in_game_pairs():
    """4 players give 6 pairings x N pairs x 2 games per variant."""
    games = list(schedule(PLAYERS, ['nim', 'tictactoe'], 3, seed=1))
    assert len(games) == 2 * 6 * 3 * 2 == count_games(PLAYERS, ['nim', 'tictactoe'], 3)
    assert [game.index for game in games] == list(range(len(games)))
    meetings = Counter(frozenset((game.first, game.second)) for game in games)
    assert len(meetings) == 6 and set(meetings.values()) == {2 * 3 * 2}


def test_each_pair_swaps_the_seats_and_shares_its_seed():
    games = list(schedule(PLAYERS, ['nim'], 2, seed=1))
    for one, other in zip(games[::2], games[1::2]):
        assert (one.first, one.second) == (other.second, other.first)
        assert (one.leg, other.leg) == (0, 1) and one.pair == other.pair
        assert one.seed == other.seed and one.game_seed != other.game_seed
    assert len({game.seed for game in games}) == len(games) // 2


def test_seeds_come_from_the_run_seed_alone():
    same = list(schedule(PLAYERS, ['nim'], 2, seed=5))
    assert list(schedule(PLAYERS, ['nim'], 2, seed=5)) == same
    other = list(schedule(PLAYERS, ['nim'], 2, seed=6))
    assert all(a.seed != b.seed for a, b in zip(schedule(PLAYERS, ['nim'], 2, seed=5), other))


def test_a_gauntlet_pairs_one_player_with_each_other():
    assert pairings(PLAYERS, gauntlet='c') == [('c', 'a'), ('c', 'b'), ('c', 'd')]
    assert count_games(PLAYERS, ['nim'], 2, gauntlet='c') == 3 * 2 * 2
    assert pairings(PLAYERS) == [('a', 'b'), ('a', 'c'), ('a', 'd'), ('b', 'c'), ('b', 'd'),
                                 ('c', 'd')]
