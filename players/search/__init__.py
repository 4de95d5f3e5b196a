"""The search engine: exact and depth-limited alpha-beta with tables and move
ordering (engine), expectiminimax for games of chance (expectimax), and the kernels
of the games it knows by their shape (Connect Four's bit masks, Nim's piles, board
positions). It knows the games package alone; players are built on it."""
