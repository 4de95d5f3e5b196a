"""Players that pry: each looks for what the trusted side holds, or for what
another game left, and says what it found by raising an error (the one way a
player's words reach the game's record)."""

import copy
import gc
import os
import random
import sys

TRUSTED = ('Rules', 'ScheduledGame', 'Store', 'JailedPlayer', 'WorkerPool', 'Setup', 'Session',
           'Report', 'Settings', 'Case', 'ProgramPlayer')
"""Kinds of object that only the trusted side makes."""
TRUSTED_MODULES = ('players.sandbox', 'players.remote', 'players.tournaments', 'players.reports',
                   'players.cli', 'players.grading')
"""The packages of the machinery and the course kit, which run on the trusted side..."""
JAIL_SIDE = ('players.sandbox.jail_server', 'players.sandbox.confine', 'players.remote.serving',
             'players.remote.plain_json', 'players.remote.protocol', 'players.grading.jailed')
"""...except these modules, which run in the jail server and the jail."""

_prophecy: dict = {}
"""What prophet remembers between its moves of a game."""
_marked: list = []
"""Whether marker has looked and left its marks in this game."""


def snoop(game, state):
    """Walk the stack and the collector for the referee's frames and objects (the
    dice are prophet's to look for)."""
    found = set()
    frame = sys._getframe()
    while frame is not None:
        module = frame.f_globals.get('__name__', '')
        if module.startswith(TRUSTED_MODULES) and not module.startswith(JAIL_SIDE):
            found.add(f'frame {module}.{frame.f_code.co_name}')
        frame = frame.f_back
    for thing in gc.get_objects():
        kind = type(thing).__name__
        if kind in TRUSTED:
            found.add(f'a {kind}')
        elif callable(thing) and getattr(thing, '__name__', '') in ('play_scheduled_game',
                                                                 'AlphaBeta'):
            if getattr(thing, '__module__', '').startswith('players'):
                found.add(f'{thing.__module__}.{thing.__name__}')
    raise RuntimeError(f'found {sorted(found)}')


def _candidates():
    """Every random generator in reach, and the dice as the pair's seed would roll them
    if a player's own seed gave it away (each a copy, to roll ahead without harm)."""
    rngs = [copy.deepcopy(thing) for thing in gc.get_objects()
            if isinstance(thing, random.Random)]
    for thing in gc.get_objects():
        seed = _seed(thing)
        if isinstance(seed, str):
            rngs.append(random.Random(f"{seed.split(':')[0]}:dice"))
    return rngs


def _seed(thing):
    """The seed of an object in reach that has one: the start of its game, as the
    message it came in (a dict) or typed."""
    try:
        return thing.get('seed') if isinstance(thing, dict) else vars(thing).get('seed')
    except Exception:  # an object without attributes of its own, or one that refuses
        return None


def prophet(game, state):
    """In dice Nim: foretell the rolls with every generator in reach at the first move,
    then say, once it has seen seven more of its own rolls, whether any foretold them
    (a guess comes true about once in 280,000 games of a six-sided die)."""
    if not _prophecy:
        _prophecy['sequences'] = [[game.roll(state, rng) for _ in range(24)]
                                  for rng in _candidates()]
        _prophecy['seen'] = [state.chance]
    else:
        _prophecy['seen'].append(state.chance)
    seen = _prophecy['seen']
    if len(seen) == 8:
        came_true = any(sequence[1:15:2] == seen[1:] or sequence[0:15:2] == seen
                        for sequence in _prophecy['sequences'])
        raise RuntimeError(f"prophecy {'came true' if came_true else 'failed'} "
                           f"({len(_prophecy['sequences'])} generators)")
    return min(game.actions(state), key=lambda move: move[1])


def fork_bomb(game, state):
    """Start processes until the jail's limit stops it, and say how many it started."""
    started = 0
    try:
        while started < 1000:
            if os.fork() == 0:
                import time
                time.sleep(30)
                os._exit(0)
            started += 1
    except OSError:
        pass
    raise RuntimeError(f'started {started} processes')


MARKS = ('/tmp/aima-mark', 'aima-mark')
"""Where marker writes: the shared temporary folder and its working folder."""


def marker(game, state):
    """Look for the marks of another game or jail at its first move; then leave its own."""
    if _marked:
        return game.actions(state)[0]
    _marked.append(True)
    seen = [path for path in MARKS if os.path.exists(path)]
    if seen:
        raise RuntimeError(f'saw marks {seen}')
    for path in MARKS:
        try:
            with open(path, 'w') as file:
                file.write('here')
        except OSError:
            pass
    return game.actions(state)[0]
