// The arena's pages: forms and buttons posted with the CSRF cookie's token in a
// header (starlette-csrf's double submit), a hand-in followed until its verdict,
// and the leaderboard kept live by server-sent events. Text from the server is only
// ever set as textContent, never as HTML.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const status = (text) => { $('status').textContent = text; };

  function csrfToken() {
    const found = document.cookie.split('; ').find(
      (item) => item.startsWith('csrftoken=') || item.startsWith('__Host-csrftoken='));
    return found ? decodeURIComponent(found.slice(found.indexOf('=') + 1)) : '';
  }

  async function post(url, body) {
    const response = await fetch(url, {method: 'POST', body, credentials: 'same-origin',
                                       headers: {'x-csrftoken': csrfToken()}});
    let answer;
    try {
      answer = await response.json();
    } catch (error) {
      answer = {error: `${response.status}: ${await response.text().catch(() => '')}`};
    }
    if (!response.ok && !answer.error) answer.error = `${response.status}`;
    return answer;
  }

  async function follow(poll, number) {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const versions = await (await fetch(poll, {credentials: 'same-origin'})).json();
      const version = versions.find((item) => item.number === number);
      if (version && !version.checking) {
        window.location.reload();
        return;
      }
    }
  }

  async function answered(element, answer) {
    if (answer.error) {
      status(answer.error);
      element.dispatchEvent(new CustomEvent('arena-error'));
      return;
    }
    if (answer.go) {
      window.location.assign(answer.go);
    } else if (answer.link) {
      $('link').textContent = answer.link;
    } else if (answer.number !== undefined) {
      status(`Version ${answer.number} handed in: checking…`);
      await follow(element.dataset.poll, answer.number);
    }
  }

  for (const form of document.querySelectorAll('form[data-post]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      status('Sending…');
      await answered(form, await post(form.dataset.post, new FormData(form)));
    });
  }
  for (const button of document.querySelectorAll('button[data-post]')) {
    button.addEventListener('click', async () => {
      if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
      const body = new FormData();
      if (button.dataset.fieldOpen) body.append('open', button.dataset.fieldOpen);
      await answered(button, await post(button.dataset.post, body));
    });
  }

  // The live leaderboard.
  const board = $('board');
  if (board && board.tagName === 'TABLE') {
    const columns = ['rank', 'name', 'version', 'elo', 'margin', 'games', 'wins', 'draws',
                     'losses', 'score_pct', 'forfeits', 'grade'];
    const events = new EventSource('/events');
    events.addEventListener('board', (event) => {
      const data = JSON.parse(event.data);
      $('games-played').textContent = String(data.games);
      const body = board.tBodies[0];
      body.replaceChildren(...data.rows.map((row) => {
        const line = document.createElement('tr');
        if (row.mine) line.className = 'mine';
        for (const column of columns) {
          const cell = document.createElement('td');
          cell.textContent = row[column] === null ? '' : String(row[column]);
          line.appendChild(cell);
        }
        return line;
      }));
      board.dataset.number = String(data.number);
    });
  }
})();
