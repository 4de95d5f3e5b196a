"""Benchmarks: the engine's speed against the textbook and its peers (the `bench`
command), and the scripts that time tournaments, the grader and a cluster."""
