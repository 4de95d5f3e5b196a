// Boards drawn as SVG, as each game's drawing() describes them (games.Game.drawing):
// the HTML report's replay and the arena's pages share them. Each square, hexagon,
// pit and pile a player may click carries data-square, data-pit or data-pile (its
// place as the game's marks name it). Text is only ever set as textContent.
'use strict';
window.BoardDrawing = (function () {
  const SVG = 'http://www.w3.org/2000/svg';

  function svg(tag, attributes, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Drawing a position, as the game's drawing() describes it (games.Game.drawing).
  function drawGrid(board) {
    const size = 40;
    const width = board.columns * size;
    const height = board.rows * size;
    const root = svg('svg', { viewBox: `-24 -4 ${width + 28} ${height + 28}`,
      width: width + 28, height: height + 28, role: 'img' });
    const discs = board.style === 'discs';
    const stones = board.style === 'othello' || board.style === 'pieces';
    const fills = { discs: '#2f5fa7', othello: '#2e7d4f', pieces: '#e8d3a9' };
    svg('rect', { x: 0, y: 0, width, height, fill: fills[board.style] || '#fdfdf8',
      stroke: '#999' }, root);
    const marked = new Set(board.marks.map(([x, y]) => `${x},${y}`));
    board.cells.forEach((line, row) => {
      [...line].forEach((piece, column) => {
        const x = column * size;
        const y = row * size;
        const cx = x + size / 2;
        const cy = y + size / 2;
        const square = `${column + 1},${board.rows - row}`;
        if (!discs) {
          svg('rect', { x, y, width: size, height: size, fill: 'none', stroke: '#bbb' }, root);
        }
        if (marked.has(square)) {
          svg('rect', { x: x + 2, y: y + 2, width: size - 4, height: size - 4, fill: 'none',
            stroke: '#f28e2b', 'stroke-width': 3, class: 'last-move' }, root);
        }
        if (stones && (piece === 'B' || piece === 'W')) {
          stone(cx, cy, size * 0.38, piece, root);
        } else if (discs) {
          const colour = piece === 'X' ? '#e15759' : piece === 'O' ? '#f1ce63' : '#fff';
          svg('circle', { cx, cy, r: size * 0.38, fill: colour, class: `piece-${piece}` }, root);
        } else if (piece === 'X') {
          const d = size * 0.28;
          svg('path', { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}` +
            `L${cx - d},${cy + d}`, stroke: '#c0392b', 'stroke-width': 4,
          class: 'piece-X' }, root);
        } else if (piece === 'O') {
          svg('circle', { cx, cy, r: size * 0.3, fill: 'none', stroke: '#1f4e79',
            'stroke-width': 4, class: 'piece-O' }, root);
        }
        if (!'XOBW.'.includes(piece)) {  // any other game's piece: its letter
          svg('text', { x: cx, y: cy + 7, 'text-anchor': 'middle', 'font-size': 20,
            class: `piece-${piece}` }, root).textContent = piece;
        }
        svg('rect', { x, y, width: size, height: size, fill: 'transparent', class: 'square',
          'data-square': square }, root);
      });
    });
    for (let column = 0; column < board.columns; column += 1) {
      svg('text', { x: column * size + size / 2, y: height + 16, 'text-anchor': 'middle',
        'font-size': 12 }, root).textContent = String(column + 1);
    }
    for (let row = 0; row < board.rows; row += 1) {
      svg('text', { x: -8, y: row * size + size / 2 + 4, 'text-anchor': 'end',
        'font-size': 12 }, root).textContent = String(board.rows - row);
    }
    return root;
  }

  // A black or white stone (Othello, Hex, Breakthrough), classed piece-B or piece-W.
  function stone(cx, cy, r, piece, root) {
    svg('circle', { cx, cy, r, fill: piece === 'B' ? '#222' : '#fafafa', stroke: '#222',
      class: `piece-${piece}` }, root);
  }

  // Hex: row 1 at the top, each row half a cell right of the one above.
  function drawHex(board) {
    const size = 32;
    const rise = size * 0.87;
    const width = (board.columns + (board.rows - 1) / 2) * size + 40;
    const height = board.rows * rise + 40;
    const root = svg('svg', { viewBox: `-4 -4 ${width} ${height}`, width, height, role: 'img' });
    const marked = new Set(board.marks.map(([x, y]) => `${x},${y}`));
    board.cells.forEach((line, row) => {
      [...line].forEach((piece, column) => {
        const cx = 24 + column * size + row * size / 2;
        const cy = 20 + row * rise;
        const corners = [[0, -1.05], [0.9, -0.52], [0.9, 0.52], [0, 1.05], [-0.9, 0.52],
          [-0.9, -0.52]].map(([dx, dy]) => `${cx + dx * size / 2},${cy + dy * size / 2}`);
        const edge = row === 0 || row === board.rows - 1 ? '#222' : '#aaa';
        svg('polygon', { points: corners.join(' '), fill: '#f4e4bc', stroke: edge,
          class: 'square', 'data-square': `${column + 1},${row + 1}` }, root);
        if (marked.has(`${column + 1},${row + 1}`)) {
          svg('circle', { cx, cy, r: size * 0.42, fill: 'none', stroke: '#f28e2b',
            'stroke-width': 3, class: 'last-move' }, root);
        }
        if (piece === 'B' || piece === 'W') stone(cx, cy, size * 0.3, piece, root);
      });
    });
    return root;
  }

  // Kalah: N's pits along the top (N's pit 1 on the right), S's along the bottom,
  // each store at its owner's end.
  function drawKalah(board) {
    const size = 44;
    const pits = board.south.length;
    const width = (pits + 2) * size + 8;
    const root = svg('svg', { viewBox: `0 0 ${width} ${2 * size + 40}`, width,
      height: 2 * size + 40, role: 'img' });
    svg('rect', { x: 0, y: 0, width, height: 2 * size + 16, rx: 14, fill: '#c8a165' }, root);
    const pit = (cx, cy, count, number) => {  // number: the pit's, on the side to move
      const circle = svg('circle', { cx, cy, r: size * 0.4, fill: '#8b5e34', class: 'pit' },
        root);
      if (number) circle.setAttribute('data-pit', String(number));
      svg('text', { x: cx, y: cy + 5, 'text-anchor': 'middle', fill: '#fff', 'font-size': 14 },
        root).textContent = String(count);
    };
    const last = board.marks.length ? board.marks[0] : 0;
    board.south.forEach((count, index) => pit((index + 1.5) * size + 4, size * 1.5 + 8, count,
      board.to_move === 'S' && index + 1));
    board.north.forEach((count, index) => pit((pits - index + 0.5) * size + 4, size / 2 + 8,
      count, board.to_move === 'N' && index + 1));
    [[4, board.stores[1]], [(pits + 1) * size + 4, board.stores[0]]].forEach(([x, count]) => {
      svg('rect', { x, y: 8, width: size, height: 2 * size, rx: 16, fill: '#8b5e34' }, root);
      svg('text', { x: x + size / 2, y: size + 13, 'text-anchor': 'middle', fill: '#fff',
        'font-size': 14 }, root).textContent = String(count);
    });
    svg('text', { x: 6, y: 2 * size + 34, 'font-size': 13, fill: '#b85c00',
      class: last ? 'last-move' : 'note' },
      root).textContent = last ? `last move: pit ${last}; ${board.to_move} to move`
      : `${board.to_move} to move`;
    return root;
  }

  function drawPiles(board) {
    const size = 22;
    const widest = Math.max(1, ...board.piles);
    const width = Math.max(60 + widest * size, 12 + 8 * board.note.length);
    const height = board.piles.length * (size + 8) + 28;
    const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img' });
    board.piles.forEach((count, index) => {
      const y = index * (size + 8) + 4;
      const marked = board.marks.includes(index + 1);
      if (marked) {
        svg('rect', { x: 0, y: y - 2, width, height: size + 4, fill: '#fdebd3',
          class: 'last-move' }, root);
      }
      svg('text', { x: 6, y: y + size * 0.7, 'font-size': 13 }, root).textContent =
        `${index + 1} (${count})`;
      for (let counter = 0; counter < count; counter += 1) {
        svg('circle', { cx: 56 + counter * size + size / 2, cy: y + size / 2, r: size * 0.4,
          fill: '#8c6d31', class: 'counter' }, root);
      }
      svg('rect', { x: 0, y: y - 2, width, height: size + 4, fill: 'transparent', class: 'pile',
        'data-pile': String(index + 1) }, root);
    });
    svg('text', { x: 6, y: height - 8, 'font-size': 13, fill: '#b85c00' }, root).textContent =
      board.note;
    return root;
  }

  // The drawing of each kind of board a game's drawing() may give; any other is text.
  const DRAWINGS = { grid: drawGrid, piles: drawPiles, hex: drawHex, kalah: drawKalah };

  function draw(board) {
    const drawing = Object.hasOwn(DRAWINGS, board.kind) ? DRAWINGS[board.kind] : null;
    if (drawing) return drawing(board);
    const text = document.createElement('pre');
    text.textContent = board.text;
    return text;
  }

  return { draw };
}());
