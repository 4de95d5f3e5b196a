"""The arena's history: the leaderboard's notes of each player's rank and Elo (a note
when a player has played since their last, at most every NOTE_SECONDS, and whenever
they play a new version; kept across a restart), what a resubmission changed in the
standings, the plot of Elo over time (every name escaped), and a student's record
against each opponent."""

import time
import xml.etree.ElementTree as ElementTree

from players.arena.game_pages import GameRow, head_to_head
from players.arena.rating_history import NOTE_SECONDS, Rating, RatingHistory, changes
from players.arena.rating_plot import rating_plot

SVG = '{http://www.w3.org/2000/svg}'


def test_a_player_is_noted_when_they_played_at_most_so_often_and_at_each_new_version(tmp_path):
    history = RatingHistory(str(tmp_path / 'ratings.sqlite'))
    start = time.time()
    assert history.note([Rating(start, 'alice', 1, 3, 10, 4),
                         Rating(start, 'ab2', None, 1, 90, 4)]) == 2
    assert history.note([Rating(start + 10, 'alice', 1, 2, 20, 8)]) == 0  # too soon
    assert history.note([Rating(start + NOTE_SECONDS, 'alice', 1, 2, 25, 8)]) == 1
    assert history.note([Rating(start + 2 * NOTE_SECONDS, 'alice', 1, 2, 25, 8)]) == 0  # no game
    assert history.note([Rating(start + 2 * NOTE_SECONDS + 1, 'alice', 2, 1, 60, 2)]) == 1
    history.close()
    again = RatingHistory(str(tmp_path / 'ratings.sqlite'))  # a server started again
    assert again.note([Rating(start + 2 * NOTE_SECONDS + 2, 'alice', 2, 1, 61, 4)]) == 0
    notes = again.of('alice')
    assert [(note.version, note.rank, note.elo) for note in notes] == [(1, 3, 10), (1, 2, 25),
                                                                      (2, 1, 60)]
    assert changes(notes) == {1: (None, notes[1]), 2: (notes[1], notes[2])}
    assert [note.player for note in again.since(start)] == ['alice', 'ab2', 'alice', 'alice']
    again.close()


def test_the_plot_draws_a_line_a_series_and_escapes_every_name():
    start = time.time()
    markup = '<script>alert(1)</script>'
    drawn = rating_plot([(markup, [(start, 10), (start + 60, 40)]),
                         ('version 2', [(start + 90, -5)])], mine='version 2')
    tree = ElementTree.fromstring(drawn)  # well-formed XML: nothing a name held broke out
    assert tree.tag == f'{SVG}svg'
    assert [element.tag for element in tree.iter() if element.tag.endswith('script')] == []
    assert len(list(tree.iter(f'{SVG}polyline'))) == 1  # a single note is a dot alone
    assert len(list(tree.iter(f'{SVG}circle'))) == 3
    assert markup in [text.text for text in tree.iter(f'{SVG}text')]
    assert '&lt;script&gt;' in drawn and '<script>' not in drawn
    assert rating_plot([]) == rating_plot([('nobody', [])]) == ''
    alone = ElementTree.fromstring(rating_plot([('once', [(start, 7)])]))
    assert [text.text for text in alone.iter(f'{SVG}text')][:2] == ['7', time.strftime(
        '%b %d %H:%M', time.localtime(start))]  # one Elo and one time, each said once
    assert len(list(alone.iter(f'{SVG}text'))) == 3


def test_a_students_record_against_each_opponent():
    rows = [GameRow('1', 'nim', 'ab2', 'first', result, 'normal', 3, '')
            for result in ('win', 'loss', 'draw', 'win')]
    rows.append(GameRow('2', 'nim', 'Queen', 'second', 'loss', 'forfeit', 1, 'Queen'))
    [ab2, queen] = head_to_head(rows)
    assert (ab2.opponent, ab2.games, ab2.wins, ab2.draws, ab2.losses, ab2.score_pct) == \
        ('ab2', 4, 2, 1, 1, 62.5)
    assert (queen.opponent, queen.games, queen.losses, queen.score_pct) == ('Queen', 1, 1, 0.0)


def test_a_line_ends_where_the_board_stands():
    from players.arena.leaderboard import BoardRow, elo_line
    from players.tournaments.ranking import Standing
    start = time.time() - 600
    notes = [Rating(start, 'alice', 1, 3, 10, 4), Rating(start + 60, 'alice', 2, 2, 30, 2),
             Rating(start + 120, 'alice', 2, 2, 35, 4)]  # notes at most every 5 minutes
    row = BoardRow(Standing(1, 'alice', 80, 50, 9, 6, 0, 3, 6.0, 66.7, 0.0, 0), 'Alice',
                   'alice', 2)
    line = elo_line(notes, row)
    assert [elo for _, elo in line] == [30, 35, 80]  # version 2's notes, then the board's Elo
    assert line[-1][0] >= start + 600
