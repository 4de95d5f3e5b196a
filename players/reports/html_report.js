// The games of the report: a filtered list, and a replay of the chosen game on a
// drawn board, stepped forward and back. Every position comes from the page's data
// (computed with the game's own rules); text from the records is only ever set as
// textContent, never as HTML.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const SVG = 'http://www.w3.org/2000/svg';
  const PAGE = 100;
  const $ = (id) => document.getElementById(id);
  let shownRows = PAGE;
  let current = null;   // the game replayed
  let ply = 0;

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function svg(tag, attributes, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  function fill(select, values, label) {
    values.forEach((value, index) => {
      const option = element('option', label ? label(value) : value);
      option.value = String(index);
      select.appendChild(option);
    });
  }

  // The list of games.
  const endings = [...new Set(data.games.map((game) => game.ending))];
  fill($('filter-player'), data.players);
  fill($('filter-variant'), data.variants);
  fill($('filter-ending'), endings);

  function matching() {
    const player = $('filter-player').value;
    const variant = $('filter-variant').value;
    const result = $('filter-result').value;
    const ending = $('filter-ending').value;
    return data.games.filter((game) =>
      (player === '' || game.first === +player || game.second === +player) &&
      (variant === '' || game.variant === +variant) &&
      (result === '' || game.result === result) &&
      (ending === '' || game.ending === endings[+ending]));
  }

  function listGames() {
    const games = matching();
    const body = $('game-rows');
    body.replaceChildren();
    for (const game of games.slice(0, shownRows)) {
      const row = element('tr');
      row.dataset.index = game.index;
      if (current && game.index === current.index) row.className = 'current';
      const cells = [game.index, data.variants[game.variant], data.players[game.first],
        data.players[game.second], game.result, game.ending, game.moves.length];
      cells.forEach((value, column) => {
        row.appendChild(element('td', String(value), column === 0 || column === 6 ? 'num' : ''));
      });
      row.addEventListener('click', () => open(game.index));
      body.appendChild(row);
    }
    $('game-count').textContent = `${games.length} of ${data.games.length} games`;
    $('more').hidden = games.length <= shownRows;
  }

  for (const id of ['filter-player', 'filter-variant', 'filter-result', 'filter-ending']) {
    $(id).addEventListener('change', () => { shownRows = PAGE; listGames(); });
  }
  $('more').addEventListener('click', () => { shownRows += PAGE; listGames(); });

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
        svg('polygon', { points: corners.join(' '), fill: '#f4e4bc', stroke: edge }, root);
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
    const pit = (cx, cy, count) => {
      svg('circle', { cx, cy, r: size * 0.4, fill: '#8b5e34', class: 'pit' }, root);
      svg('text', { x: cx, y: cy + 5, 'text-anchor': 'middle', fill: '#fff', 'font-size': 14 },
        root).textContent = String(count);
    };
    const last = board.marks.length ? board.marks[0] : 0;
    board.south.forEach((count, index) => pit((index + 1.5) * size + 4, size * 1.5 + 8, count));
    board.north.forEach((count, index) => pit((pits - index + 0.5) * size + 4, size / 2 + 8,
      count));
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
    });
    svg('text', { x: 6, y: height - 8, 'font-size': 13, fill: '#b85c00' }, root).textContent =
      board.note;
    return root;
  }

  // The drawing of each kind of board a game's drawing() may give; any other is text.
  const DRAWINGS = { grid: drawGrid, piles: drawPiles, hex: drawHex, kalah: drawKalah };

  function draw(board) {
    const drawing = Object.hasOwn(DRAWINGS, board.kind) ? DRAWINGS[board.kind] : null;
    return drawing ? drawing(board) : element('pre', board.text);
  }

  // The replay.
  function show(newPly) {
    ply = Math.max(0, Math.min(newPly, current.frames.length - 1));
    const board = Object.assign({}, data.boards[current.variant], current.frames[ply]);
    $('board').replaceChildren(draw(board));
    $('slider').value = String(ply);
    const total = current.frames.length - 1;
    if (ply === 0) {
      $('ply').textContent = `Start (${total} moves)`;
    } else {
      const [mover, move] = current.moves[ply - 1];
      const who = (ply <= current.opening ? 'opening for ' : '') + data.players[mover];
      $('ply').textContent = `Move ${ply} of ${total}: ${who} plays ${move}`;
    }
    if (ply === total) $('ply').textContent += `. ${current.outcome}.`;
    [...$('move-list').children].forEach((item, index) => {
      item.classList.toggle('current', index === ply - 1);
    });
  }

  function open(index) {
    const game = data.games.find((candidate) => candidate.index === index);
    if (!game) return;
    current = game;
    $('viewer-title').textContent = `Game ${game.index}: ${data.variants[game.variant]}, ` +
      `${data.players[game.first]} against ${data.players[game.second]}, ${game.result} ` +
      `(seed ${game.seed})`;
    $('slider').max = String(game.frames.length - 1);
    const list = $('move-list');
    list.replaceChildren();
    game.moves.forEach(([mover, move], number) => {
      const item = element('li', `${data.players[mover]}: ${move}`,
        number < game.opening ? 'opening' : '');
      item.addEventListener('click', () => show(number + 1));
      list.appendChild(item);
    });
    for (const row of $('game-rows').children) {
      row.classList.toggle('current', +row.dataset.index === index);
    }
    show(0);
  }

  $('first').addEventListener('click', () => current && show(0));
  $('prev').addEventListener('click', () => current && show(ply - 1));
  $('next').addEventListener('click', () => current && show(ply + 1));
  $('last').addEventListener('click', () => current && show(Infinity));
  $('slider').addEventListener('input', () => current && show(+$('slider').value));
  document.addEventListener('keydown', (event) => {
    if (!current || event.target.tagName === 'SELECT') return;
    const moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity };
    if (event.key in moves) { show(moves[event.key]); event.preventDefault(); }
  });

  function openFromHash() {
    const found = /^#game-(\d+)$/.exec(window.location.hash);
    if (found) {
      open(+found[1]);
      $('viewer').scrollIntoView();
    }
  }
  window.addEventListener('hashchange', openFromHash);

  listGames();
  if (data.games.length) open(data.games[0].index);
  openFromHash();
}());
