"""Run the command line in the tests' own process, as `python tournament.py` would run it."""

import contextlib
import io
import subprocess
import sys

import tournament


def run(*args: str, stdin: str = '') -> subprocess.CompletedProcess:
    """Run the command line with args in this process, reading stdin; return what it
    did: its returncode, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _input(stdin):
        try:
            code = tournament.main(list(args))
        except SystemExit as leaving:
            code = leaving.code if isinstance(leaving.code, int) else 1
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _input(text):
    """Standard input reads text for the block."""
    saved, sys.stdin = sys.stdin, io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = saved
