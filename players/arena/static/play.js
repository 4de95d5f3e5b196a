// A game played in the browser: the board drawn as the game draws it (board.js), a
// click on a square, pit or pile choosing the legal moves that mark it (on Connect
// Four's board, any square of a column its move), the legal moves listed in the
// notation `play` uses, each move posted with the CSRF cookie's token in a header,
// and the game followed until it ends. Text from the server is only ever set as
// textContent, never as HTML.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const root = $('live');
  const base = root.dataset.game;
  const seat = Number(root.dataset.seat);
  let view = null;
  let pool = null;  // the choices the clicks so far leave, or null for all
  let clock = null;

  function csrfToken() {
    const found = document.cookie.split('; ').find(
      (item) => item.startsWith('csrftoken=') || item.startsWith('__Host-csrftoken='));
    return found ? decodeURIComponent(found.slice(found.indexOf('=') + 1)) : '';
  }

  async function post(url, fields) {
    const body = new FormData();
    for (const [key, value] of Object.entries(fields)) body.append(key, value);
    const answer = await fetch(url, {method: 'POST', body, credentials: 'same-origin',
                                     headers: {'x-csrftoken': csrfToken()}});
    return answer.json();
  }

  function status(text) { $('live-status').textContent = text; }

  function showChoices() {
    const list = $('choices');
    list.replaceChildren();
    if (!view || view.status !== 'your move') return;
    for (const index of pool || view.choices.map((_, i) => i)) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = view.choices[index][0];
      button.addEventListener('click', () => play(index));
      item.appendChild(button);
      list.appendChild(item);
    }
  }

  function render(next) {
    view = next;
    pool = null;
    if (clock) { clearInterval(clock); clock = null; }
    if (view.drawing && Object.keys(view.drawing).length) {
      $('board').replaceChildren(BoardDrawing.draw(view.drawing));
    }
    const names = view.names || ['', ''];
    const made = $('made');
    made.replaceChildren(...(view.made || []).map(([mover, move]) => {
      const item = document.createElement('li');
      item.textContent = `${names[mover]}: ${move}`;
      return item;
    }));
    if (view.status === 'your move') {
      const ends = Date.now() + view.seconds_left * 1000;
      const tick = () => {
        status(`Your move (${Math.max(0, Math.round((ends - Date.now()) / 1000))} s left)`);
      };
      tick();
      clock = setInterval(tick, 1000);
    } else if (view.status === 'over') {
      status(view.result || 'The game is over.');
      $('resign').hidden = true;
      $('replay-link').href = view.replay;
      $('replay-link').hidden = false;
    } else {
      status(view.status === 'starting' ? 'Starting…' : `${names[1 - seat]} is thinking…`);
    }
    root.dataset.status = view.status;
    showChoices();
  }

  async function follow() {
    while (view && view.status !== 'your move' && view.status !== 'over') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      render(await (await fetch(`${base}.json`, {credentials: 'same-origin'})).json());
    }
  }

  async function play(index) {
    status('Sent…');
    view.status = root.dataset.status = 'thinking';
    showChoices();
    render(await post(`${base}/move`, {move: String(index), ply: String(view.ply)}));
    follow();
  }

  $('board').addEventListener('click', (event) => {
    if (!view || view.status !== 'your move') return;
    const target = event.target.closest('[data-square], [data-pit], [data-pile]');
    if (!target) return;
    const place = target.dataset.square || target.dataset.pit || target.dataset.pile;
    const from = pool || view.choices.map((_, i) => i);
    const marking = (test) => from.filter((index) => view.choices[index][1].some(test));
    let found = marking((mark) => String(mark) === place);
    if (!found.length && view.drawing.style === 'discs' && target.dataset.square) {
      const column = place.split(',')[0];
      found = marking((mark) => Array.isArray(mark) && String(mark[0]) === column);
    }
    if (found.length === 1) {
      play(found[0]);
    } else if (found.length > 1) {
      pool = found;
      status('Several moves mark it: click another square they mark, or choose one below.');
      showChoices();
    }
  });

  $('resign').addEventListener('click', async () => {
    if (!window.confirm('Resign this game?')) return;
    render(await post(`${base}/resign`, {}));
    follow();
  });

  (async () => {
    render(await (await fetch(`${base}.json`, {credentials: 'same-origin'})).json());
    follow();
  })();
})();
