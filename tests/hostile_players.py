"""Small hostile players for the tournament tests: each breaks the rules one way."""

import os
import random
import sys
import time


def first(game, state):
    """Play the first legal move."""
    return game.actions(state)[0]


def lucky(game, state):
    """Play a random legal move with the random module (seeded per game by the runner)."""
    return random.choice(game.actions(state))


def raises(game, state):
    """Raise an exception."""
    raise ValueError('boom')


def illegal(game, state):
    """Return a move that is never legal."""
    return (99, 99)


def returns_none(game, state):
    """Return no move."""
    return None


def sleeps(game, state):
    """Think far past any test's move timeout."""
    time.sleep(60)


def stubborn(game, state):
    """Hang and swallow the TimeoutError of the soft time limit, so only a kill stops it."""
    while True:
        try:
            time.sleep(60)
        except BaseException:
            pass


def exits(game, state):
    """Call sys.exit."""
    sys.exit(3)


def dies(game, state):
    """End its process at once, without cleaning up."""
    os._exit(7)


def chatty(game, state):
    """Print junk to stdout and stderr, through Python and straight to the file, then play."""
    print('junk ' * 100)
    print('more junk', file=sys.stderr)
    os.write(1, b'\x00\xffraw junk\n')
    return game.actions(state)[0]


def vandal(game, state):
    """Scribble on its copies of the state and the game, then play the first legal move."""
    move = type(game).actions(game, state)[0]
    board = getattr(state, 'board', None)
    if isinstance(board, dict):
        dict.clear(board)
    game.actions = lambda position: []
    game.initial = None
    return move


def counts_nodes(game, state):
    """Play the first legal move and report 10 nodes searched."""
    counts_nodes.stats = {'nodes': 10, 'depth': 1}
    return game.actions(state)[0]


calls = 0


def stateful(game, state):
    """Play the calls-th legal move, counting calls in a global that outlives a game."""
    global calls
    calls += 1
    moves = game.actions(state)
    return moves[calls % len(moves)]


def cheats(game, state):
    """Rewrite the game's class so that the opponent, moving next, has lost at once."""
    me = game.to_move(state)
    type(game).terminal_test = lambda self, position: position.to_move != me
    type(game).utility = lambda self, position, player: 1 if player == me else -1
    return game.actions(state)[0]


def saboteur(game, state):
    """Rewrite everything within reach in its own process: every class of every game,
    every function of the project's modules, the builtins; then play the first move."""
    move = game.actions(state)[0]
    import builtins
    from games import Game

    def ended(*args, **kwargs):
        return True

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)
    for cls in subclasses(Game):
        cls.terminal_test = cls.actions = cls.result = cls.utility = ended
    for name, module in list(sys.modules.items()):
        if name.split('.')[0] in ('games', 'players', 'variants'):
            for attr, value in list(vars(module).items()):
                if callable(value) and not isinstance(value, type):
                    setattr(module, attr, ended)
    builtins.len = builtins.isinstance = ended
    return move


class _Poison:
    """Pickled, runs a shell command when it is unpickled."""

    def __reduce__(self):
        return (os.system, ('touch /tmp/aima-games-pwned',))


def forger(game, state):
    """Write a pickle that runs code when read, and fake finished games and
    heartbeats, on every file descriptor it may have; then play the first move."""
    import json
    import pickle
    poison = pickle.dumps(('done', True, _Poison()))
    fake = json.dumps({'move': None, 'score': 1, 'termination': 'normal', 'winner': 'me'})
    for fd in range(256):
        for data in (poison, fake.encode() + b'\n', pickle.dumps(('beat', None))):
            try:
                os.write(fd, data)
            except OSError:
                pass
    return game.actions(state)[0]


def flooder(game, state):
    """Answer with a megabyte of garbage and no end of line."""
    os.write(4, b'x' * (1 << 20))
    time.sleep(60)


class _Exits:
    """A move that ends the program of whoever compares, hashes or prints it."""

    def __eq__(self, other):
        raise SystemExit(0)

    def __hash__(self):
        raise KeyboardInterrupt

    def __repr__(self):
        raise SystemExit(0)

    def __iter__(self):
        raise SystemExit(0)


def quitter(game, state):
    """Return a move object whose comparison, hashing and printing end the program."""
    return _Exits()


def signaller(game, state):
    """Signal its parent, its parent's group, and every process it can find, then play."""
    import signal
    targets = [os.getppid()]
    try:
        targets += [int(pid) for pid in os.listdir('/proc') if pid.isdigit()]
    except OSError:
        pass
    for pid in targets:
        if pid == os.getpid():
            continue
        for kill in (os.kill, os.killpg):
            try:
                kill(pid, signal.SIGTERM)
            except (OSError, ValueError):
                pass
    return game.actions(state)[0]


def lingerer(game, state):
    """Leave a child in a session of its own and a spinning thread, both meant to
    outlive the game; then play the first move."""
    import threading
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            while True:
                time.sleep(0.05)
        os._exit(0)
    threading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True).start()
    return game.actions(state)[0]


def tamperer(game, state):
    """Find the results files on its parents' command lines and try to rewrite,
    delete or replace them with folders; then play the first move."""
    paths = []
    pid = os.getppid()
    for _ in range(3):
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as file:
                words = file.read().decode(errors='replace').split('\0')
            with open(f'/proc/{pid}/stat') as file:
                pid = int(file.read().rsplit(')', 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        paths += [word for before, word in zip(words, words[1:])
                  if before in ('--db', '--json', '--csv')]
    for path in paths:
        for attack in (lambda: open(path, 'r+b').write(b'\0' * 100), lambda: os.remove(path),
                       lambda: os.mkdir(path), lambda: os.rename(path, path + '.old')):
            try:
                attack()
            except OSError:
                pass
    return game.actions(state)[0]


def hog(game, state):
    """Take 64 GiB of memory."""
    hoard = bytearray(64 << 30)
    return game.actions(state)[len(hoard) % 2]



diary = 0


def diarist(game, state):
    """Say on each move that it thinks, on standard output without an end of line and
    then on standard error, as a student's bot prints to debug; then play."""
    global diary
    diary += 1
    print(f'thinking about move {diary}...', end='')
    print(' done', file=sys.stderr)
    return game.actions(state)[0]


FLOOD_MB = 50
"""How much the shouter writes at its first move."""


def shouter(game, state):
    """Write FLOOD_MB megabytes on standard error at its first move, then a last line;
    then play the first legal move."""
    if not getattr(shouter, 'shouted', False):
        shouter.shouted = True
        block = 'x' * (1 << 20)
        for _ in range(FLOOD_MB):
            sys.stderr.write(block)
        sys.stderr.write('\nshouted\n')
    return game.actions(state)[0]


def babbler(game, state):
    """Write on standard error for ever, a megabyte at a time, so that its pipe is never
    empty for long; never move."""
    babble = b'babble ' * (1 << 17)
    while True:
        os.write(2, babble)


NOT_UTF8 = b'\xff\xfe\xc3('
"""Bytes that are not UTF-8 (the last two a character cut short)."""
ESCAPES = '\x1b[2J\x1b[HStandings\r\b\u202e\x07'
"""What would clear a terminal, draw on it, ring its bell and turn its text around."""


def escaper(game, state):
    """Write bytes that are not UTF-8 and terminal escapes on its standard output;
    then play."""
    os.write(1, NOT_UTF8 + b'\n')
    print(ESCAPES)
    return game.actions(state)[0]


def leaker(game, state):
    """Leave a child in a session of its own that holds standard output and error open
    (not the jail's request and answer pipes) and writes on them for ever; then play."""
    global leaked
    if not leaked:
        leaked = True
        if os.fork() == 0:
            os.setsid()
            os.close(3)
            os.close(4)
            while True:
                os.write(2, b'child still here\n')
                time.sleep(0.01)
    return game.actions(state)[0]


leaked = False


def abandoner(game, state):
    """Leave a child in a session of its own that holds standard output and error open
    (not the jail's request and answer pipes) and sleeps; then end its own process."""
    if os.fork() == 0:
        os.setsid()
        os.close(3)
        os.close(4)
        time.sleep(600)
        os._exit(0)
    print('leaving', flush=True)
    os._exit(5)
