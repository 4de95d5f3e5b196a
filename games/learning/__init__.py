"""Games for learning agents: the numbers of a game's moves, what an agent observes,
a PettingZoo environment for every game, and the bridge to OpenSpiel (each module
needs the optional extra: pip install -e '.[rl]')."""
