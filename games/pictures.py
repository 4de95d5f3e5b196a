"""Pictures of boards as SVG, so that a state shows as its board in a Jupyter
notebook (each state class's _repr_svg_ calls one of these)."""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

CELL = 36
"""The side of a square, in pixels."""


def _svg(width: float, height: float, body: list[str]) -> str:
    """Wrap drawing elements in an SVG document of the given size."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif" font-size="12">'
            + ''.join(body) + '</svg>')


def _text(x: float, y: float, text: object, anchor: str = 'middle') -> str:
    """A line of text centred (or anchored) at x, with its baseline at y."""
    return f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}">{escape(str(text))}</text>'


def grid(board: Mapping[tuple[int, int], str], h: int, v: int, caption: str = '',
         background: str = '#f4e4bc') -> str:
    """An h x v board of squares, row v at the top: X as a cross, O as a ring, B
    as a black disc and W as a white one, the columns and rows numbered from 1."""
    margin = 20
    width, height = margin + h * CELL + 4, margin + v * CELL + 24
    body = [f'<rect x="{margin}" y="0" width="{h * CELL}" height="{v * CELL}" '
            f'fill="{background}" stroke="#555"/>']
    for x in range(1, h + 1):
        left = margin + (x - 1) * CELL
        body.append(_text(left + CELL / 2, v * CELL + 14, x))
        for y in range(1, v + 1):
            top = (v - y) * CELL
            body.append(f'<rect x="{left}" y="{top}" width="{CELL}" height="{CELL}" '
                        'fill="none" stroke="#555"/>')
            piece, pad = board.get((x, y)), CELL * 0.22
            if piece == 'X':
                body.append(f'<path d="M{left + pad},{top + pad}L{left + CELL - pad},'
                            f'{top + CELL - pad}M{left + CELL - pad},{top + pad}L{left + pad},'
                            f'{top + CELL - pad}" stroke="#b22" stroke-width="3"/>')
            elif piece == 'O':
                body.append(f'<circle cx="{left + CELL / 2}" cy="{top + CELL / 2}" '
                            f'r="{CELL / 2 - pad}" fill="none" stroke="#22b" stroke-width="3"/>')
            elif piece in ('B', 'W'):
                body.append(f'<circle cx="{left + CELL / 2}" cy="{top + CELL / 2}" '
                            f'r="{CELL * 0.38:g}" fill="{"#222" if piece == "B" else "#fafafa"}" '
                            'stroke="#222"/>')
    for y in range(1, v + 1):
        body.append(_text(margin / 2, (v - y) * CELL + CELL / 2 + 4, y))
    if caption:
        body.append(_text(margin, height - 4, caption, 'start'))
    return _svg(max(width, 120), height, body)


def piles(counts: Sequence[int], caption: str = '') -> str:
    """Piles of counters as numbered rows of discs."""
    radius, gap = 9, 22
    width = 40 + max([1, *counts]) * gap + 40
    height = len(counts) * gap + 30
    body = []
    for row, count in enumerate(counts):
        y = 14 + row * gap
        body.append(_text(14, y + 4, row + 1))
        body += [f'<circle cx="{40 + i * gap}" cy="{y}" r="{radius}" fill="#c84" stroke="#642"/>'
                 for i in range(count)]
        body.append(_text(40 + count * gap + 4, y + 4, f'({count})', 'start'))
    if caption:
        body.append(_text(4, height - 6, caption, 'start'))
    return _svg(max(width, 200), height, body)


def tree_node(node: object, to_move: str, caption: str = '') -> str:
    """A node of a game tree: a triangle pointing up where MAX moves, down where MIN does."""
    points = '30,6 54,46 6,46' if to_move == 'MAX' else '6,6 54,6 30,46'
    body = [f'<polygon points="{points}" fill="#eee" stroke="#333"/>', _text(30, 66, node)]
    if caption:
        body.append(_text(64, 30, caption, 'start'))
    return _svg(220, 76, body)


def backgammon(points: Sequence[int], bar: Sequence[int], off: Sequence[int],
               caption: str = '') -> str:
    """A backgammon board: points 13-24 along the top, 12-1 along the bottom, W's
    checkers white and B's black, the bar in the middle and the borne-off counts."""
    width, half, radius = CELL * 0.8, CELL * 5.5, CELL * 0.38
    left, top_margin, bar_width = 10, 18, CELL * 0.8
    board_width = 12 * width + bar_width
    bottom = top_margin + 2 * half
    middle = left + 6 * width + bar_width / 2
    body = [f'<rect x="{left}" y="{top_margin}" width="{board_width}" height="{2 * half}" '
            'fill="#dcb" stroke="#333"/>',
            f'<rect x="{left + 6 * width}" y="{top_margin}" width="{bar_width}" '
            f'height="{2 * half}" fill="#875"/>']

    def checker(x: float, y: float, white: bool, label: str = '') -> None:
        body.append(f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{"#fff" if white else "#222"}" '
                    'stroke="#555"/>')
        if label:
            body.append(f'<text x="{x:g}" y="{y + 4:g}" text-anchor="middle" '
                        f'fill="{"#c00" if white else "#fff"}">{label}</text>')

    for point in range(1, 25):
        upper = point >= 13
        index = point - 13 if upper else 12 - point
        x = left + index * width + (bar_width if index >= 6 else 0)
        base, tip = (top_margin, top_margin + half - 10) if upper else (bottom, bottom - half + 10)
        body.append(f'<polygon points="{x:g},{base:g} {x + width:g},{base:g} '
                    f'{x + width / 2:g},{tip:g}" fill="{"#a33" if point % 2 else "#357"}"/>')
        body.append(_text(x + width / 2, top_margin - 5 if upper else bottom + 14, point))
        count = points[point - 1]
        for i in range(min(abs(count), 5)):
            offset = radius + 2 * radius * i
            label = str(abs(count)) if i == 4 and abs(count) > 5 else ''
            checker(x + width / 2, base + offset if upper else base - offset, count > 0, label)
    if bar[0]:
        checker(middle, top_margin + half + radius + 4, True, str(bar[0]))
    if bar[1]:
        checker(middle, top_margin + half - radius - 4, False, str(bar[1]))
    right = left + board_width + 8
    body.append(_text(right, top_margin + 14, f'B off: {off[1]}', 'start'))
    body.append(_text(right, bottom - 6, f'W off: {off[0]}', 'start'))
    if caption:
        body.append(_text(left, bottom + 32, caption, 'start'))
    return _svg(right + 70, bottom + 40, body)


def kalah(board: Sequence[int], caption: str = '') -> str:
    """A Kalah board: N's pits along the top, S's along the bottom, each store at its
    owner's end, every pit with its count of seeds."""
    pits = (len(board) - 2) // 2
    width, height = (pits + 2) * CELL + 8, 2 * CELL + 40
    body = [f'<rect x="0" y="0" width="{width}" height="{2 * CELL + 16}" rx="12" fill="#c8a165"/>']
    for index in range(pits):
        for row, seeds in ((1, board[index]), (0, board[2 * pits - index])):
            cx, cy = (index + 1.5) * CELL + 4, row * CELL + CELL / 2 + 8
            body.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.4:g}" fill="#8b5e34"/>')
            body.append(_text(cx, cy + 4, seeds))
    for x, seeds in ((4, board[-1]), ((pits + 1) * CELL + 4, board[pits])):
        body.append(f'<rect x="{x}" y="8" width="{CELL}" height="{2 * CELL}" rx="14" '
                    'fill="#8b5e34"/>')
        body.append(_text(x + CELL / 2, CELL + 12, seeds))
    if caption:
        body.append(_text(4, height - 6, caption, 'start'))
    return _svg(width, height, body)


def hexes(board: Mapping[tuple[int, int], str], n: int, caption: str = '') -> str:
    """An n x n Hex rhombus, row 1 at the top and each row half a cell right of the
    one above, B as black stones and W as white ones; B's rows drawn dark at the top
    and bottom, W's columns light at the sides."""
    radius = CELL / 2
    step_x, step_y = CELL, CELL * 0.87
    width = (n + (n - 1) / 2) * step_x + 2 * radius + 10
    height = n * step_y + radius + 30
    body = []
    for y in range(1, n + 1):
        for x in range(1, n + 1):
            cx = radius + 5 + (x - 1) * step_x + (y - 1) * step_x / 2
            cy = radius + 5 + (y - 1) * step_y
            points = ' '.join(f'{cx + radius * dx:g},{cy + radius * dy:g}' for dx, dy in
                              ((0, -1.05), (0.9, -0.52), (0.9, 0.52), (0, 1.05), (-0.9, 0.52),
                               (-0.9, -0.52)))
            edge = '#333' if y in (1, n) else '#bbb' if x in (1, n) else '#888'
            body.append(f'<polygon points="{points}" fill="#f4e4bc" stroke="{edge}"/>')
            piece = board.get((x, y))
            if piece in ('B', 'W'):
                body.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius * 0.6:g}" '
                            f'fill="{"#222" if piece == "B" else "#fafafa"}" stroke="#222"/>')
    if caption:
        body.append(_text(4, height - 6, caption, 'start'))
    return _svg(width, height, body)
