"""The SPRT: its statistics against values worked out by hand, and the command's
verdicts on players whose strength is known (ab4 beats random; random is random)."""

import json
import math
import os

import pytest
from places import TESTS

import tournament
from games import referee
from players.sandbox import level_choice
from players.tournaments import sprt
from players.tournaments.record import GameRecord

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(TESTS, 'hostile_players.py')

# A small table of results: 12 pairs, by the player's points in the pair (0, ½, 1, 1½, 2).
COUNTS = [1, 2, 4, 3, 2]
# The prior adds a fifth of a pair to each result: weights 1.2, 2.2, 4.2, 3.2, 2.2 (13).
# The pairs' scores per game are 0, 1/4, 1/2, 3/4 and 1, so the mean is
# (0.25 * 2.2 + 0.5 * 4.2 + 0.75 * 3.2 + 2.2) / 13 = 7.25 / 13 = 0.5576923.
MEAN = 7.25 / 13
# Its variance: (1.2 m² + 2.2 (1/4 - m)² + 4.2 (1/2 - m)² + 3.2 (3/4 - m)² + 2.2 (1 - m)²) / 13
VARIANCE = (1.2 * MEAN ** 2 + 2.2 * (0.25 - MEAN) ** 2 + 4.2 * (0.5 - MEAN) ** 2
            + 3.2 * (0.75 - MEAN) ** 2 + 2.2 * (1 - MEAN) ** 2) / 13  # 0.0880178
S_10 = 0.5143872  # 1 / (1 + 10 ** (-10 / 400)), the score of 10 Elo
S_50 = 0.5714631  # 1 / (1 + 10 ** (-50 / 400))


def tally(counts):
    """A Pentanomial holding counts."""
    return sprt.Pentanomial(list(counts))


def test_the_mean_and_variance_are_those_of_the_pairs_and_the_prior():
    assert abs(VARIANCE - 0.0880178) < 1e-6
    assert tally(COUNTS).mean() == pytest.approx(MEAN)
    assert tally(COUNTS).variance() == pytest.approx(VARIANCE)
    assert tally(COUNTS).pairs == 12 and tally(COUNTS).points == 13.5


@pytest.mark.parametrize('elo0, elo1, expected', [
    # 12 (s1 - s0) (2 m - s0 - s1) / (2 v), s0 = 1/2:
    (0, 10, 12 * (S_10 - 0.5) * (2 * MEAN - 0.5 - S_10) / (2 * VARIANCE)),  # 0.09905
    (0, 50, 12 * (S_50 - 0.5) * (2 * MEAN - 0.5 - S_50) / (2 * VARIANCE)),  # 0.21396
    # s0 = S_10, s1 = S_50: the mean lies a little above their midpoint 0.5429
    (10, 50, 12 * (S_50 - S_10) * (2 * MEAN - S_10 - S_50) / (2 * VARIANCE)),  # 0.11491
])
def test_llr_against_a_hand_computation(elo0, elo1, expected):
    assert tally(COUNTS).llr(sprt.Hypotheses(elo0, elo1)) == pytest.approx(expected, abs=1e-5)


def test_the_llr_of_hand_values_written_out():
    assert tally(COUNTS).llr(sprt.Hypotheses(0, 10)) == pytest.approx(0.0990529, abs=1e-6)
    assert tally(COUNTS).llr(sprt.Hypotheses(10, 50)) == pytest.approx(0.1149108, abs=1e-6)
    # H0: 80 Elo, s0 = 0.6131; H1: 100 Elo, s1 = 0.6401; the mean is below both: for H0
    assert tally(COUNTS).llr(sprt.Hypotheses(80, 100)) == pytest.approx(
        12 * (0.6400650 - 0.6131368) * (2 * MEAN - 0.6131368 - 0.6400650) / (2 * VARIANCE),
        abs=1e-5)
    assert tally(COUNTS).llr(sprt.Hypotheses(80, 100)) < 0


def test_bounds_los_and_elo_by_hand():
    lower, upper = sprt.Hypotheses(alpha=0.05, beta=0.05).bounds()
    assert lower == pytest.approx(-2.944439, abs=1e-6) and upper == pytest.approx(2.944439)
    assert sprt.Hypotheses(alpha=0.05, beta=0.1).bounds() == pytest.approx(
        (math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    # LOS: Phi((m - 1/2) / sqrt(v / 12)) = Phi(0.6724) = 0.7497
    assert tally(COUNTS).los() == pytest.approx(0.7497277, abs=1e-6)
    # Elo: -400 log10(1 / m - 1) = -400 log10(0.7931) = 40.27
    assert tally(COUNTS).elo() == pytest.approx(40.27, abs=0.01)
    assert tally([0, 0, 5, 0, 0]).elo() == pytest.approx(0)


def test_identical_pairs_decide_only_after_several():
    hypotheses = sprt.Hypotheses(0, 10)
    llrs = [tally([0, 0, 0, 0, n]).llr(hypotheses) for n in range(1, 30)]
    assert all(a < b for a, b in zip(llrs, llrs[1:]))
    assert sprt.verdict(llrs[0], hypotheses.bounds()) is None
    assert sprt.verdict(llrs[-1], hypotheses.bounds()) == 'H1'


def test_pairs_are_counted_in_order_whatever_order_games_finish_in():
    test = sprt.Sequential(sprt.Hypotheses(), 'a')
    specs = list(sprt.pair_specs('a', 'b', ['nim', 'simple-nim'], 0, 3))
    assert [(s.variant, s.first, s.pair, s.leg) for s in specs[:4]] == [
        ('nim', 'a', 0, 0), ('nim', 'b', 0, 1), ('simple-nim', 'a', 1, 0),
        ('simple-nim', 'b', 1, 1)]
    assert specs[0].seed == specs[1].seed != specs[2].seed
    won = referee.PlayedGame(seats=('P1', 'P2'), utilities=(1, -1), nodes=[None, None])
    for spec in reversed(specs):  # a wins as first, loses as second
        test.add(GameRecord.from_play(spec, [], won))
    assert test.tally.counts == [0, 0, 3, 0, 0]


def run(tmp_path, *args):
    """Run tournament.py sprt in this process; return its JSON."""
    out = tmp_path / 'sprt.json'
    assert tournament.main(['sprt', *args, '--json', str(out), '--jobs', '2']) == 0
    return json.loads(out.read_text())


def test_ab4_is_stronger_than_random(tmp_path, capsys):
    result = run(tmp_path, 'ab4', 'random', '--variants', 'nim', '--max-games', '4000')
    assert result['result'] == 'H1' and result['games'] < 200
    assert result['llr'] >= result['bounds'][1] and result['los'] > 0.99
    assert set(result) >= {'games', 'llr', 'bounds', 'elo', 'elo_error', 'los'}
    assert 'H1 accepted: ab4 is stronger than random by at least 10 Elo' in capsys.readouterr().out


def test_random_is_not_50_elo_stronger_than_itself(tmp_path, capsys):
    result = run(tmp_path, 'random', 'random', '--variants', 'simple-nim', '--elo0', '0',
                 '--elo1', '50', '--max-games', '4000')
    assert result['result'] == 'H0' and result['games'] < 4000
    assert result['llr'] <= result['bounds'][0]
    assert 'H0 accepted' in capsys.readouterr().out


def test_max_games_ends_without_a_verdict(tmp_path):
    result = run(tmp_path, 'random', 'ab1', '--variants', 'simple-nim', '--max-games', '6')
    assert result['result'] == 'none' and result['games'] == 6


NO_BWRAP = level_choice.problem('bwrap')


@pytest.mark.parametrize('level', ['process', pytest.param('bwrap', marks=pytest.mark.skipif(
    NO_BWRAP is not None, reason=f'bubblewrap cannot jail here: {NO_BWRAP}'))])
def test_a_hostile_player_loses_its_games_and_nothing_else(tmp_path, level):
    raises = run(tmp_path, f'{HOSTILE}:raises', 'random', '--variants', 'simple-nim',
                 '--sandbox', level, '--elo1', '400')
    assert raises['result'] == 'H0' and raises['points'] == 0
    # cheats rewrites the game's rules in its jail and plays first's moves: the test
    # sees exactly the games of first
    cheats, first = (run(tmp_path, f'{HOSTILE}:{name}', 'random', '--variants', 'simple-nim',
                         '--sandbox', level, '--max-games', '8') for name in ('cheats', 'first'))
    assert {**cheats, 'player': '', 'specs': ''} == {**first, 'player': '', 'specs': ''}


@pytest.mark.parametrize('args, message', [
    (['--elo0', '10', '--elo1', '5'], '--elo0 must be below --elo1'),
    (['--alpha', '0'], '--alpha must be between 0 and 0.5'),
    (['--max-games', '1'], 'expected at least 2'),
    (['--variants', 'chess'], "unknown variant 'chess'"),
])
def test_bad_options_are_usage_errors(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        tournament.main(['sprt', 'ab1', 'random', *args])
    assert stop.value.code == 2 and message in capsys.readouterr().err
