"""Running a student's code in a separate process with a time limit, so that an
exception, a hang, sys.exit or stray output fails a check and never the grader."""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
from typing import Any, Callable

GRACE = 1.0
"""Seconds a terminated process gets to end before it is killed."""


class StudentError(Exception):
    """The student's code failed: raised, hung, exited or could not be loaded."""


def run(task: Callable, args: tuple, timeout: float) -> Any:
    """Call task(*args) in a child process and return its result, or raise
    StudentError saying what went wrong. The child's output is discarded and
    the random module is seeded, so that runs repeat."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context('fork' if 'fork' in methods else 'spawn')
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, task, args), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise StudentError(f'timed out after {timeout:g} s (an infinite loop, or too slow)')
        try:
            status, value = receiver.recv()
        except (EOFError, OSError):
            process.join(GRACE)
            raise StudentError(f'the process ended without an answer (exit code '
                               f'{process.exitcode}); does the code call os._exit or crash Python?')
        except Exception as error:  # such as a move of a class only the student's file defines
            raise StudentError(f'returned a result the grader cannot read: '
                               f'{type(error).__name__}: {error}') from None
    finally:
        receiver.close()
        if process.is_alive():
            process.terminate()
            process.join(GRACE)
        if process.is_alive():
            process.kill()
            process.join()
    if status == 'error':
        raise StudentError(value)
    return value


def _child(sender, task: Callable, args: tuple) -> None:
    """In the child: silence output, seed random, run the task and send back
    ('ok', result) or ('error', message)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr = open(os.devnull, 'w')
    random.seed(0)
    try:
        outcome = ('ok', task(*args))
    except SystemExit as error:
        outcome = ('error', f'called sys.exit({error.code!r})')
    except BaseException as error:  # the student's fault must reach the grader as a message
        outcome = ('error', f'{type(error).__name__}: {error}'[:500])
    try:
        sender.send(outcome)
    except Exception as error:  # an answer that cannot be sent, such as an unpicklable object
        sender.send(('error', f'returned a result the grader cannot read: {error}'))
    sender.close()
