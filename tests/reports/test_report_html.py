"""The HTML report: one self-contained page, safe with hostile text, that renders
in headless Chromium without script errors and replays games move by move."""

import json
import re

import pytest

import browser
from command_line import run

pytestmark = pytest.mark.slow

HOSTILE = '</script><script>alert(1)</script><b>bold</b>\x1b[2J\x07\u202egnp'
"""A player's error message: markup, ESC, BEL and a bidi override."""
SHOWN = '</script><script>alert(1)</script><b>bold</b>\\x1b[2J\\x07\\u202egnp'
"""HOSTILE as the page shows it, as text."""


@pytest.fixture(scope='module')
def report(tmp_path_factory):
    """A run with a player whose error message is HTML: (the page's path, the JSON)."""
    folder = tmp_path_factory.mktemp('html')
    rude = folder / 'rude.py'
    rude.write_text('def player(game, state):\n    if len(state.board) >= 4:\n'
                    f'        raise TypeError({HOSTILE!r})\n    return game.actions(state)[-1]\n')
    page, data = folder / 'report.html', folder / 'run.json'
    done = run('--players', f'ab2,{rude},random', '--variants', 'tictactoe',
               'connect4(h=10, v=4)', 'simple-nim', '--openings', '1', '--html', str(page),
               '--json', str(data))
    assert done.returncode == 0, done.stderr
    assert f'wrote {page}' in done.stdout
    return page, json.loads(data.read_text())


def test_the_page_is_self_contained_and_escapes_what_players_write(report):
    page, data = report
    text = page.read_text()
    assert not re.search(r'<(link|img|iframe)\b|\bsrc=|url\(', text)
    assert "default-src 'none'" in text  # the browser itself refuses any load
    assert HOSTILE not in text and '<b>bold' not in text
    assert not [char for char in '\x1b\x07\u202e' if char in text]
    assert '&lt;/script&gt;&lt;script&gt;alert(1)' in text  # in the forfeits table
    assert '&lt;b&gt;bold&lt;/b&gt;\\x1b[2J\\x07\\u202egnp' in text
    for section in ('Standings', 'Elo with its 95% interval', 'Score % by variant',
                    'Crosstable', 'How games ended', 'Forfeits and their reasons', 'Games'):
        assert f'>{section}' in text
    payload = text.split('id="report-data">')[1].split('</script>')[0]
    games = json.loads(payload)['games']
    assert [game['index'] for game in games] == [game['index'] for game in data['games']]
    assert all(len(game['frames']) == len(game['moves']) + 1 for game in games)


@pytest.mark.skipif(browser.find() is None,
                    reason='Chromium is not installed (apt-get install chromium)')
def test_the_page_renders_without_errors_and_replays_a_game(report, tmp_path):
    page, data = report
    with browser.Browser(width=1200, height=900) as chromium:
        chromium.open(page.as_uri())
        assert chromium.evaluate('document.querySelectorAll("#game-rows tr").length') == len(
            data['games'])
        board = 'document.getElementById("board").innerHTML'
        start = chromium.evaluate(board)
        assert '<svg' in start
        chromium.evaluate('document.getElementById("next").click()')
        after_one = chromium.evaluate(board)
        assert after_one != start and 'last-move' in after_one
        assert chromium.evaluate('document.getElementById("ply").textContent').startswith(
            'Move 1 of')
        chromium.evaluate('document.getElementById("prev").click()')
        assert chromium.evaluate(board) == start
        forfeited = next(game for game in data['games'] if game['forfeit'] == 'rude'
                         and game['variant'].startswith('connect4'))
        chromium.evaluate(f'location.hash = "#game-{forfeited["index"]}"')
        chromium.evaluate('document.getElementById("last").click()')
        assert chromium.evaluate('document.getElementById("ply").textContent').endswith(
                'rude forfeits (error: TypeError: ' + SHOWN + ' (rude.py, line 3)).')
        discs = chromium.evaluate('document.querySelectorAll("#board circle.piece-X").length')
        assert discs == (len(forfeited['moves']) + 1) // 2
        chromium.evaluate('const s = document.getElementById("filter-player"); '
                          's.value = "1"; s.dispatchEvent(new Event("change"))')
        rude_games = [game for game in data['games']
                      if 'rude' in (game['first'], game['second'])]
        assert chromium.evaluate('document.querySelectorAll("#game-rows tr").length') == len(
            rude_games)
        chromium.screenshot(str(tmp_path / 'report.png'))
        assert chromium.errors() == []
    assert (tmp_path / 'report.png').read_bytes().startswith(b'\x89PNG')
