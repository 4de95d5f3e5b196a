"""The grader's code that runs in a student's jail, and the plain data both sides share.

Nothing here imports the rest of the players package: in a bubblewrap jail
only games, variants and this subpackage are there to import (players and
players.grading are then empty namespace packages), so the reference searches
the grader compares with are not within the student's reach."""
