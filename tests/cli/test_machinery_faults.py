"""A failure of the machinery, such as a jail server that does not start, stops every
command with one line on stderr and exit status 1, as a tournament stops."""

import os

import pytest
from places import ROOT

from command_line import run
from players.sandbox import servers

PLAYER = os.path.join(ROOT, 'tests', 'hostile_players.py') + ':first'
TEMPLATE = os.path.join(ROOT, 'players', 'grading', 'template.py')


@pytest.fixture
def no_jail_server(monkeypatch):
    """Every jail server this process starts fails to, as one that cannot start (the
    servers earlier tests left running in this process are stopped first)."""
    servers.close_servers()

    def fail(server, errors):
        server._errors = None
        errors.close()
        server.close_server()
        raise servers.ServerLost('the jail server did not start: no room for it')
    monkeypatch.setattr(servers.JailServer, '_wait_ready', fail)


@pytest.mark.parametrize('args', [
    ('play', 'nim', 'ab1', 'mcts'),
    ('sprt', PLAYER, 'ab1', '--variants', 'nim'),
    ('check', TEMPLATE, '--functions', 'minmax_decision'),
    ('--players', f'random,{PLAYER}', '--variants', 'nim'),
], ids=['play', 'sprt', 'check', 'tournament'])
def test_a_jail_server_that_does_not_start_stops_a_command_in_one_line(no_jail_server, args):
    done = run(*args, '--sandbox', 'process')
    assert done.returncode == 1
    assert done.stderr == 'tournament: stopped: the jail server did not start: no room for it\n'
