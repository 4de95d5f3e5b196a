"""The grader's code that runs in a student's jail, and the plain data both sides share.

Nothing here imports the rest of the players package but the jail's side of a
remote player (players.remote: serving, the protocol the student's player answers,
and plain_json): in a jail only games, variants, players.remote, players.sandbox
(the jail server's own) and this subpackage are there to import (players and
players.grading hold nothing else there), so the reference searches the grader
compares with are not within the student's reach."""
