// The games of the report: a filtered list, and a replay of the chosen game on a
// board drawn by board_drawing.js, stepped forward and back. Every position comes from the page's data
// (computed with the game's own rules); text from the records is only ever set as
// textContent, never as HTML.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
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

  // The replay.
  function show(newPly) {
    ply = Math.max(0, Math.min(newPly, current.frames.length - 1));
    const board = Object.assign({}, data.boards[current.variant], current.frames[ply]);
    $('board').replaceChildren(BoardDrawing.draw(board));
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
