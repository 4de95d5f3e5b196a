"""The jails of shipped players that a process keeps for its next games stay its
own: a process forked from it (a tournament's worker) starts without them."""

import os

from players.remote import jailed_player


def test_a_forked_child_inherits_no_kept_jail():
    jailed_player._idle.append((('ab2',), 'a jail of the parent'))
    try:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child says how many kept jails it sees
            os.write(write, str(len(jailed_player._idle)).encode())
            os._exit(0)
        os.close(write)
        os.waitpid(pid, 0)
        assert os.read(read, 16) == b'0' and len(jailed_player._idle) == 1
        os.close(read)
    finally:
        jailed_player._idle.clear()
