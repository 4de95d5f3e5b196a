"""Games in the browser, in a real browser (headless Chromium driven by Playwright):
a student plays Connect Four against her own bot by clicking on the board (a square
of a column drops a disc there) and the course's own game file (an aima-python Nim
with a text board) by clicking its moves, each to its end, and replays both."""

from __future__ import annotations

import shutil

import pytest

from arena_server import GOOD, ArenaServer, headless_chromium, playwright_or_skip
from places import ROOT

pytestmark = pytest.mark.slow

sync_api = playwright_or_skip()
expect = sync_api.expect

GAME_FILE = 'game_of_nim.py:GameOfNim(board=[3, 1])'
COURSE = f'''variants = ["connect4", "{GAME_FILE}"]
players = ["random", "ab2"]
move-timeout = 2
jobs = 2
'''
"""Connect Four and an aima-python homework's Game, the course's own game file."""
WAIT = 30_000


@pytest.fixture(scope='module')
def arena(tmp_path_factory):
    folder = tmp_path_factory.mktemp('play')
    shutil.copy(f'{ROOT}/tests/homework/game_of_nim.py', folder)
    server = ArenaServer(folder, course=COURSE, staff=None).start()
    try:
        assert server.verdict('alice', server.submit('alice', GOOD.encode())['number'])[
            'status'] == 'plays'
        yield server
    finally:
        server.close()


@pytest.fixture(scope='module')
def page(arena):
    with headless_chromium() as browser:
        context = browser.new_context()
        context.set_default_timeout(WAIT)
        tab = context.new_page()
        trouble: list[str] = []
        tab.on('pageerror', lambda error: trouble.append(str(error)))
        tab.goto(arena.link('alice'))
        tab.click('#sign-in button')
        tab.wait_for_url(f'{arena.url}/students/alice')
        yield tab
        assert trouble == []


def start(page, arena, variant: str) -> None:
    """From her page, start a game against her own bot, playing first."""
    page.goto(f'{arena.url}/students/alice')
    page.locator('#play select[name=opponent]').select_option(label='version 1')
    page.locator('#play select[name=variant]').select_option(variant)
    page.locator('#play select[name=seat]').select_option('first')
    page.locator('#play button').click()
    page.wait_for_url(f'{arena.url}/students/alice/play/*')


def her_move_or_the_end(page) -> str:
    live = page.locator('#live[data-status="your move"], #live[data-status="over"]')
    expect(live).to_have_count(1)
    return live.get_attribute('data-status')


def replayed(page, plies: int) -> None:
    """Open the game's replay and step it to its end."""
    page.locator('#replay-link').click()
    expect(page.locator('#ply')).to_have_text(f'Start ({plies} moves)')
    for _ in range(plies):
        page.locator('#next').click()
    expect(page.locator('#ply')).to_contain_text(f'Move {plies} of {plies}: ')


def test_connect_four_against_her_bot_by_clicking_on_the_board(page, arena):
    start(page, arena, 'connect4')
    clicks = 0
    while her_move_or_the_end(page) == 'your move':
        column = page.locator('#choices button').last.inner_text()  # the rightmost free column
        page.locator(f'#board [data-square="{column},6"]').click()  # its top square
        clicks += 1
    assert clicks >= 4
    made = page.locator('#made li')
    assert made.nth(0).inner_text().startswith('Alice Liddell: ')
    assert made.nth(1).inner_text().startswith('version 1: ')
    expect(page.locator('#live-status')).to_contain_text('(normal)')
    replayed(page, made.count())


def test_the_courses_game_file_against_her_bot_by_clicking_its_moves(page, arena):
    start(page, arena, GAME_FILE)
    expect(page.locator('#board pre')).to_have_count(1)  # its own text board
    while her_move_or_the_end(page) == 'your move':
        page.locator('#choices button').first.click()
    expect(page.locator('#live-status')).to_contain_text('(normal)')
    replayed(page, page.locator('#made li').count())
