"""Tournaments: the schedule of games, playing one game between jailed players, the
pool of workers (or a Dask cluster) that plays them, the results store, the ladder,
the ratings and the SPRT."""
