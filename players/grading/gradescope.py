"""Gradescope: a report in its autograder results format, and a ready autograder
bundle (setup.sh and run_autograder, which install this project and grade
/autograder/submission into /autograder/results/results.json)."""

from __future__ import annotations

import json
import os
import shlex
import stat
import zipfile

from games import game_files
from players import PROJECT_PACKAGES

from .report import Report
from .settings import FUNCTIONS, GAME

PROJECT_FILES = ('setup.cfg', 'pyproject.toml', 'README.md')
"""What the bundle carries of this project besides its packages and its command
line, to install it in the autograder."""
CASES_NAME = 'cases.json'
"""The name of the instructor's case file in the bundle."""
GAME_FOLDER = 'game_files'
"""The folder of the bundle's project that holds the game files its options name
(the reference's, the variants'), with the modules they import from their folder;
a second folder of game files goes in game_files_2, and so on."""


def results(report: Report) -> dict:
    """Return the report in Gradescope's results format: a test per check, each with
    its points, status, message and visibility (hidden cases stay hidden), the
    gauntlet's score on the leaderboard."""
    tests = []
    numbers: dict[str, int] = {}
    for result in report.results:
        parts = (*FUNCTIONS, GAME)
        group = parts.index(result.function) + 1 if result.function in parts else 0
        numbers[result.function] = numbers.get(result.function, 0) + 1
        tests.append({'name': result.check, 'number': f'{group}.{numbers[result.function]}',
                      'score': result.points, 'max_score': result.max_points,
                      'status': 'passed' if result.passed else 'failed',
                      'output': result.message, 'tags': [result.function],
                      'visibility': result.visibility})
    output = [report.settings]
    if report.load_error:
        output.append(f'Cannot load {os.path.basename(report.file)}: {report.load_error}')
    if report.reference:
        output.append(f"{os.path.basename(report.file)} {report.reference}: the project's "
                      'reference implementations are not allowed, so every check fails')
    if report.missing:
        output.append(f'Not defined: {", ".join(report.missing)} (each scores 0)')
    output.append(f'Total: {report.points:g}/{report.max_points:g} points')
    leaderboard = [{'name': 'Points', 'value': report.points, 'order': 'desc'}]
    leaderboard += [{'name': name, 'value': value, 'order': 'desc'}
                    for name, value in report.leaderboard.items()]
    return {'score': report.points, 'execution_time': round(report.seconds, 1),
            'output': '\n'.join(output), 'visibility': 'visible', 'stdout_visibility': 'hidden',
            'tests': tests, 'leaderboard': leaderboard}


def no_submission(message: str) -> dict:
    """The results of a submission that has nothing to grade, saying why."""
    return {'score': 0, 'execution_time': 0, 'output': message, 'visibility': 'visible',
            'stdout_visibility': 'hidden', 'tests': [], 'leaderboard': []}


def write(path: str, data: dict) -> None:
    """Write results as JSON to path."""
    with open(path, 'w', encoding='utf-8') as file:
        json.dump(data, file, indent=2)
        file.write('\n')


SETUP = '''#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
set -euo pipefail
SOURCE="$(cd "$(dirname "$0")" && pwd)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q python3 python3-venv bubblewrap || apt-get install -y -q python3 python3-venv
python3 -m venv "$SOURCE/../venv"
"$SOURCE/../venv/bin/pip" install -q "$SOURCE/project"
'''

RUN = '''#!/usr/bin/env bash
# Gradescope runs this for each submission: grade the Python file the student
# submitted and write the results where Gradescope reads them. AUTOGRADER_ROOT
# points it at another folder than /autograder (to try it out).
set -uo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PYTHON="$ROOT/venv/bin/python"
[ -x "$PYTHON" ] || PYTHON=python3
mkdir -p "$ROOT/results"
cd "$ROOT/source/project"
"$PYTHON" {script} check "$ROOT/submission" --gradescope "$ROOT/results/results.json" {options}
status=$?
# 0: all passed, 1: some failed; anything else is the grader's own trouble
[ "$status" -le 1 ] || echo "the grader exited with status $status" >&2
exit 0
'''


def bundle(path: str, project: str, script: str, options: list[str],
           cases: str | None = None, reference: str | None = None) -> None:
    """Write a Gradescope autograder bundle (a zip) to path: setup.sh, run_autograder
    (which runs script, the command line's file in the folder project, to check the
    submission with the grading options), the project's source from the folder
    project, and the instructor's case file and the reference's game file if any
    (options then name them by their place in the bundle)."""
    if cases is not None:
        options = options + ['--cases', CASES_NAME]
    if reference is not None:
        options = options + ['--reference', reference]
    carried: dict[str, tuple] = {}  # the folder of each game file's source -> its place
    options = [_carried(option, carried) if game_files.is_file_spec(option) else option
               for option in options]
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as archive:
        _add_text(archive, 'setup.sh', SETUP)
        _add_text(archive, 'run_autograder',
                  RUN.format(script=shlex.quote(script),
                             options=' '.join(shlex.quote(option) for option in options)))
        for name in (script, *PROJECT_FILES):
            if os.path.isfile(os.path.join(project, name)):
                archive.write(os.path.join(project, name), f'project/{name}')
        for package in PROJECT_PACKAGES:
            for folder, subfolders, files in os.walk(os.path.join(project, package)):
                subfolders[:] = sorted(name for name in subfolders if name != '__pycache__')
                for name in sorted(files):
                    if not name.endswith(('.pyc', '.pyo', '.so', '.pyd')):  # the autograder builds its own
                        full = os.path.join(folder, name)
                        archive.write(full, 'project/' + os.path.relpath(full, project))
        if cases is not None:
            archive.write(cases, f'project/{CASES_NAME}')
        for place, files in carried.values():
            for name, text in files:
                archive.writestr(f'project/{place}/{name}', text)


def _carried(spec: str, carried: dict[str, tuple]) -> str:
    """Return a game file's spec as the bundle names it, adding its source to carried
    ({folder: (its place in the bundle, the files)})."""
    path, _, call = game_files.normal_spec(spec).partition(':')
    source = game_files.source_of(path)
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in carried:
        place = GAME_FOLDER if not carried else f'{GAME_FOLDER}_{len(carried) + 1}'
        carried[folder] = (place, ())
    place, files = carried[folder]
    carried[folder] = (place, tuple(sorted(set(files) | set(source.files))))
    return f'{place}/{os.path.basename(path)}:{call}'


def _add_text(archive: zipfile.ZipFile, name: str, content: str) -> None:
    """Add an executable script to the archive."""
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFREG | 0o755) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, content)
