// A game's page: open its replay (the HTML report's) at once.
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  if (data.games.length && !window.location.hash) {
    window.location.hash = `#game-${data.games[0].index}`;
  }
})();
