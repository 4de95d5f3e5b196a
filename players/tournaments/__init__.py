"""Tournaments: a tournament as a Python value (tournament.Tournament: who plays,
on which variants, by which rules) and what runs it: the entrants checked before
play, the schedule of games, playing one game between jailed players, the pool of
workers (or a Dask cluster) that plays them, the game records and the results
store, the ladder, the totals, ratings and standings, and the SPRT."""
