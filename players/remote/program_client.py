#!/usr/bin/env python3
"""A player as a program of its own: the reference client of the JSON-lines
protocol (version 1), with only Python's standard library, to copy into any
language. It plays a legal move at random; write your own choose().

    python tournament.py --players 'exec:python3 players/remote/program_client.py',ab2

The referee writes one JSON message a line on standard input and reads one JSON
line a message on standard output; anything printed on standard error is kept,
cut to a few kilobytes, in the game's record. Messages:

    {"type": "start", "protocol": 1, "game": "nim(piles=(3, 4, 5))", "seat": 0,
     "player": "P1", "time": {"move": 10, "base": null, "increment": 0}, "seed": 42}
        -> {"type": "ready"}
    {"type": "move", "state": {"to_move": "P1", "piles": [3, 4, 5]}, "history": [],
     "legal": [[1, 1], [1, 2], ...], "time_left": 10}
        -> {"move": [1, 2]}
    {"type": "end", "result": "1-0", "reason": "normal"}
        (no answer; the input then ends)
"""

import json
import random
import sys


def choose(state, legal, history, time_left, rng):
    """Return one of legal, the moves allowed in state (the game's JSON picture of
    the position). history lists every move and roll so far, as ["move", move] or
    ["chance", roll]; time_left is the seconds left for this move (None: no limit)."""
    return rng.choice(legal)


def serve(choose, stdin=sys.stdin, stdout=sys.stdout):
    """Answer the referee's messages until its input ends, asking choose for each move."""
    rng = random.Random()
    for line in stdin:
        message = json.loads(line)
        kind = message.get('type')
        if kind == 'start':
            rng.seed(message['seed'])
            answer = {'type': 'ready'}
        elif kind == 'move':
            answer = {'move': choose(message['state'], message['legal'], message['history'],
                                     message['time_left'], rng)}
        else:  # the end of the game: nothing to answer
            print(f'game over: {message.get("result")} ({message.get("reason")})', file=sys.stderr)
            continue
        stdout.write(json.dumps(answer) + '\n')
        stdout.flush()


if __name__ == '__main__':
    serve(choose)
