"""The README and the pages of docs/, as a reader meets them: every Python block runs
(a page's blocks in order, in one namespace, in a fresh process of its own; a block
of `>>>` lines is a doctest, its output checked), every link between the pages leads
to a page and a heading that exist, and the README stays a short page whose test
command is the one CI runs.

A block that is not meant to run alone says so on the line before it, visibly:
`<!-- not run: why -->`; another test runs each of those."""

import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ['README.md', *sorted(os.path.join('docs', name)
                              for name in os.listdir(os.path.join(ROOT, 'docs'))
                              if name.endswith('.md'))]
"""The README and every page of docs/, relative to the project's folder."""
NOT_RUN = re.compile(r'<!-- not run: (.+?) -->')
"""What marks a block that is not meant to run alone, with the reason."""
RUNNER = r'''
import doctest, json, sys, traceback
blocks = json.load(sys.stdin)
namespace = {'__name__': '__docs__'}
flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
for line, code in blocks:
    if code.lstrip().startswith('>>>'):
        test = doctest.DocTestParser().get_doctest(code, namespace, f'line {line}', None, line)
        runner = doctest.DocTestRunner(optionflags=flags)
        runner.run(test, out=sys.stderr.write)
        namespace.update(test.globs)
        if runner.failures:
            sys.exit(f'the doctest at line {line} failed')
    else:
        try:
            exec(compile(code, f'line {line}', 'exec'), namespace)
        except BaseException:
            traceback.print_exc()
            sys.exit(f'the block at line {line} failed')
'''
"""Run a page's blocks, given as JSON [[line, code], ...], in order, in one namespace."""


def read(page: str) -> str:
    """The text of a page."""
    with open(os.path.join(ROOT, page), encoding='utf-8') as file:
        return file.read()


def python_blocks(page: str) -> list[tuple[int, str, str | None]]:
    """Each ```python block of a page: the line its code starts on, the code, and the
    reason it is not run (None for a block that runs)."""
    found, lines = [], read(page).split('\n')
    for number, line in enumerate(lines):
        if line.strip() == '```python':
            end = lines.index('```', number + 1)
            before = next((lines[i] for i in range(number - 1, -1, -1) if lines[i].strip()), '')
            reason = NOT_RUN.search(before)
            found.append((number + 2, '\n'.join(lines[number + 1:end]) + '\n',
                          reason.group(1) if reason else None))
    return found


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower().replace('`', '')
    return re.sub(r'[^\w\- ]', '', text).replace(' ', '-')


def anchors(page: str) -> set[str]:
    """The anchors of a page: one for each heading, and each explicit id."""
    text = re.sub(r'```.*?```', '', read(page), flags=re.DOTALL)
    return ({slug(heading) for heading in re.findall(r'^#+ (.+)$', text, re.MULTILINE)}
            | set(re.findall(r'<a id="([^"]+)">', text)))


@pytest.mark.parametrize('page', [page for page in PAGES
                                  if any(reason is None for _, _, reason in python_blocks(page))])
def test_every_python_block_of_a_page_runs(page, tmp_path):
    """In a fresh process, so that what a block registers stays there, in an empty
    folder, so that what it writes is gone with the test."""
    blocks = [(line, code) for line, code, reason in python_blocks(page) if reason is None]
    done = subprocess.run([sys.executable, '-c', RUNNER], input=json.dumps(blocks), text=True,
                          capture_output=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, 'PYTHONPATH': ROOT})
    assert done.returncode == 0, f'{page}: {done.stderr}'


def test_the_blocks_that_do_not_run_are_few_and_say_why():
    held_back = [(page, line, reason) for page in PAGES
                 for line, _, reason in python_blocks(page) if reason is not None]
    assert len(held_back) <= 3, held_back
    assert all(len(reason) > 10 for _, _, reason in held_back)


def test_the_pages_have_python_blocks_to_run():
    runs = {page for page in PAGES if any(reason is None for _, _, reason in python_blocks(page))}
    assert {'README.md', 'docs/tutorial.md', 'docs/games.md', 'docs/players.md',
            'docs/extending.md', 'docs/protocol.md'} <= runs


@pytest.mark.parametrize('page', PAGES)
def test_every_link_between_pages_leads_somewhere(page):
    folder = os.path.dirname(page)
    broken = []
    for target in re.findall(r'\]\(([^)\s]+)\)', read(page)):
        if re.match(r'\w+:', target):
            continue  # a web address
        path, _, anchor = target.partition('#')
        linked = os.path.normpath(os.path.join(folder, path)) if path else page
        if not os.path.exists(os.path.join(ROOT, linked)):
            broken.append(target)
        elif anchor and (not linked.endswith('.md') or anchor not in anchors(linked)):
            broken.append(target)
    assert not broken


def test_the_readme_is_short_and_its_test_command_is_the_one_ci_runs():
    readme = read('README.md')
    assert readme.count('\n') <= 150
    with open(os.path.join(ROOT, '.ci', 'run'), encoding='utf-8') as file:
        command = file.read().strip().split('\n')[-1]
    assert f'    {command}\n' in readme
    main_job = ('    python3 -m venv .venv && . .venv/bin/activate && pip install -e . '
                '&& python tournament.py\n')
    assert main_job in readme
