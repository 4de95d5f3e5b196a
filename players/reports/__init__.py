"""Reports of a tournament's results: standings and the other tables, the terminal
report, the HTML report, JSON and CSV exports, and a game replayed move by move."""
