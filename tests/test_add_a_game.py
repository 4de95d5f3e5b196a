"""docs/extending.md's recipes, "Add a game and a variant" among them, are followed in
tests/test_extending.py; copy_project stays importable from here for the modules
that import it so (tests/test_aima_homework.py)."""

from test_extending import copy_project  # noqa: F401
