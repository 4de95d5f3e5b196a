"""A submission with no search of its own."""
from players.textbook import alpha_beta_search, minmax_decision  # noqa: F401
