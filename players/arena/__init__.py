"""Tournament machinery that needs no particular players or games: the schedule,
the sandboxed workers, the results store, the ratings and the tables."""
