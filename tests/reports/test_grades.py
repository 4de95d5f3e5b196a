"""Grades read off ratings between anchors, the likelihood-of-superiority matrix,
and the report within 100 columns whatever the number of variants."""

import json
import math

import pytest

import tournament
import variants
from players.reports import grades, text_report, standings
from players.tournaments import ratings
from test_report import class_results

pytestmark = pytest.mark.slow

ANCHORS = [(-314, 0), (105, 70), (397, 100)]


@pytest.mark.parametrize('elo, expected', [
    (-187, 70 * 127 / 419),  # 127 of the 419 points from random's -314 to ab2's 105: 21.2
    (200, 70 + 30 * 95 / 292),  # 95 of the 292 from ab2 to ab4: 79.8
    (105, 70), (-400, 0), (500, 100)])  # an anchor's own grade; clamped below and above
def test_a_grade_is_linear_in_elo_between_the_anchors_around_it(elo, expected):
    assert grades.grade(elo, ANCHORS) == pytest.approx(expected)


def by_hand(elo, anchors):
    """The grade of elo between anchors [(elo, grade)], as a teacher would work it out."""
    below = [a for a in anchors if a[0] <= elo]
    above = [a for a in anchors if a[0] >= elo]
    if not below:
        return min(anchors)[1]
    if not above:
        return max(anchors)[1]
    (e0, g0), (e1, g1) = max(below), min(above)
    return g0 if e1 == e0 else g0 + (g1 - g0) * (elo - e0) / (e1 - e0)


def test_a_small_run_grades_each_player_off_the_anchors_ratings(tmp_path, capsys):
    out = tmp_path / 'run.json'
    assert tournament.main(['--players', 'random,ab1,ab3', '--variants', 'nim', 'simple-nim',
                            '--games', '2', '--openings', '1', '--sandbox', 'process',
                            '--anchors', 'random=0,ab2=60,ab4=100', '--json', str(out),
                            '--csv', str(tmp_path / 'run.csv'),
                            '--html', str(tmp_path / 'run.html'), '--jobs', '2']) == 0
    data = json.loads(out.read_text())
    assert data['anchors'] == {'random': 0, 'ab2': 60, 'ab4': 100}
    assert data['settings']['players'] == ['random', 'ab1', 'ab3', 'ab2', 'ab4']  # added
    rows = {row['player']: row for row in data['standings']['overall']}
    anchors = [(rows[name]['elo'], grade) for name, grade in data['anchors'].items()]
    for name, row in rows.items():
        assert row['grade'] == pytest.approx(round(by_hand(row['elo'], anchors), 1))
    assert rows['random']['grade'] == 0 and rows['ab4']['grade'] == 100
    header = [line for line in capsys.readouterr().out.splitlines() if line.lstrip().startswith(
        'Rank')][-1]
    assert header.split()[-1] == 'Grade'
    csv = (tmp_path / 'run-standings.csv').read_text().splitlines()
    last = csv[-1].split(',')
    assert csv[0].endswith(',grade') and float(last[-1]) == rows[last[2]]['grade']
    page = (tmp_path / 'run.html').read_text()
    assert '<th class="num">Grade</th>' in page and 'Likelihood of superiority' in page


@pytest.mark.parametrize('text, message', [
    ('random=0', 'at least two anchors'), ('random=0,ab2', 'PLAYER=GRADE'),
    ('random=0,ab2=good', "grade of anchor 'ab2' must be a number"),
    ('random=0,random=5', "'random' is given twice")])
def test_bad_anchors_are_usage_errors(text, message, capsys):
    with pytest.raises(SystemExit) as stop:
        tournament.main(['--players', 'random,ab1', '--anchors', text])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_likelihood_of_superiority_of_two_players_from_their_ratings():
    """With two players the margin of each is 1.96 times the standard error of half
    their difference, so LOS = Phi(difference / (2 margin / 1.96))."""
    games, points = {('a', 'b'): 10}, {('a', 'b'): 7, ('b', 'a'): 3}
    fitted = ratings.fit('ab', games, points)
    (elo_a, margin), (elo_b, _) = fitted['a'], fitted['b']
    spread = 2 * margin / 1.959964
    expected = 0.5 * (1 + math.erf((elo_a - elo_b) / spread / math.sqrt(2)))
    likelihood = ratings.superiority('ab', games, points)
    assert likelihood['a', 'b'] == pytest.approx(expected)
    assert likelihood['a', 'b'] + likelihood['b', 'a'] == pytest.approx(1)
    even = ratings.superiority('ab', games, {('a', 'b'): 5, ('b', 'a'): 5})
    assert even['a', 'b'] == pytest.approx(0.5)


def test_the_los_matrix_shows_the_top_ten_best_first():
    results = class_results(players=14, variants=('nim',))
    by_variant = standings.graded_standings(results)
    out = text_report.body(results, by_variant, shown={'los'})
    assert 'Likelihood of superiority (%, row over column; the top 10)' in out
    matrix = out.split('Likelihood of superiority')[1].split('\n\n')[1].splitlines()
    order = [row.player for row in by_variant[None]]
    assert [line.split()[1] for line in matrix[2:]] == order[:10]
    assert matrix[2].split()[2:] == [f'{100 * p:.0f}' for p in (
        ratings.superiority(order, results.pair_games(None), results.pair_points(None))[
            order[0], other] for other in order[1:10])]
    assert 'Likelihood' not in text_report.body(results, by_variant)  # only when asked for


@pytest.mark.parametrize('count', [len(variants.DEFAULT_VARIANTS), 20])
def test_the_report_fits_100_columns_whatever_the_number_of_variants(count):
    names = [*variants.DEFAULT_VARIANTS, *(f'nim(piles=(1, {n}))' for n in range(2, 20))][:count]
    results = class_results(players=12, variants=names)
    by_variant = standings.graded_standings(results)
    out = text_report.body(results, by_variant)
    assert max(map(len, out.splitlines())) <= 100
    scores = out.split('Score % by variant\n\n')[1].split('\nStandings\n')[0]
    for name in names:  # every variant's column is there, its name wrapped
        assert name.split('-')[0].split(' ')[0] in scores
    assert scores.count('All') == 1


LUCKY = ('import random\n\n\ndef player(game, state):\n'
         '    return random.choice(game.actions(state))\n')
RAISES = 'def player(game, state):\n    raise ValueError("boom")\n'


def grade_for_gradescope(tmp_path, source, capsys):
    """Grade a student's player file against anchors for Gradescope; return the results."""
    student, out = tmp_path / 'student.py', tmp_path / 'results.json'
    student.write_text(source)
    status = tournament.main(['check', str(student), '--functions', 'player', '--variants', 'nim',
                              'tictactoe', '--anchors', 'random=0,ab2=70,ab4=100',
                              '--gradescope', str(out), '--sandbox', 'process'])
    assert status in (0, 1)
    capsys.readouterr()
    return json.loads(out.read_text())


def test_gradescope_gets_the_grade_against_anchors_and_a_leaderboard(tmp_path, capsys):
    results = grade_for_gradescope(tmp_path, LUCKY, capsys)
    graded = results['tests'][-1]
    assert graded['name'] == 'player: grade against anchors' and graded['max_score'] == 100
    assert 'gauntlet' not in json.dumps(results['tests'])  # the anchors take its place
    board = {entry['name']: entry['value'] for entry in results['leaderboard']}
    assert board['Grade'] == graded['score'] and results['score'] == board['Points']
    assert results['score'] == sum(test['score'] for test in results['tests'])
    # the grade, worked out from the Elo figures the check reports
    elo = {'student': board['Elo']}
    for name in ('random', 'ab2', 'ab4'):
        elo[name] = int(graded['output'].split(f'against {name} (Elo ')[1].split(',')[0])
    anchors = [(elo['random'], 0), (elo['ab2'], 70), (elo['ab4'], 100)]
    assert board['Grade'] == pytest.approx(round(by_hand(board['Elo'], anchors), 1))
    assert elo['random'] < elo['ab2'] < elo['ab4']


def test_a_student_that_raises_gets_the_lowest_grade_and_nothing_breaks(tmp_path, capsys):
    results = grade_for_gradescope(tmp_path, RAISES, capsys)
    graded = results['tests'][-1]
    assert graded['score'] == 0 and graded['status'] == 'failed'
    assert '0/8 against random' in graded['output']
