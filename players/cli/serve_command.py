"""serve and submit: a course's arena on the web, from its settings (the tournament's
options for the ladder, the [check] table for the grader, the [arena] table for the
roster, the limits and the deadline), and a student's hand-in from a terminal."""

from __future__ import annotations

import csv
import getpass
import http.client
import io
import json
import os
import signal
import sys
import time
import urllib.parse
import zipfile
from argparse import Namespace
from datetime import datetime

import variants
from players.remote.player_code import FolderLimits
from .inputs import UsageError, course_support, distinct_variants, tournament_players, usage_errors
from .tournament_options import ArgumentParser, count, folder_limits, positive
from .tournament_runs import check_executor, rules_of

WEB_EXTRA = "pip install -e '.[web]'"
"""What installs the arena's web packages."""
LINKS_FILE = 'links.csv'
"""The students' sign-in links, in the arena's folder (readable by its owner only)."""
MAIL_PASSWORD = 'ARENA_MAIL_PASSWORD'
"""The environment variable that holds the mail server's password."""
SUBMIT_WAIT_SECONDS = 120.0
"""How long submit waits for a version's verdict."""


def add_serve_arguments(serve: ArgumentParser) -> None:
    """Add serve's options, which the course file's [arena] table may give too."""
    option = serve.add_argument
    option('--roster', metavar='CSV', help="the class's roster: a CSV file with the columns "
           'id and name; each new student gets a sign-in link (in STORE/links.csv)')
    option('--store', default='arena', metavar='DIR', help="the arena's folder: its records, "
           'games, uploads and links (default: arena)')
    option('--host', default='127.0.0.1', help='the address to serve on (default 127.0.0.1)')
    option('--port', type=count(1), default=8000, help='the port to serve on (default 8000)')
    option('--url', metavar='URL', help='the address students open, in their links (default: '
           'http://HOST:PORT; behind a reverse proxy, its https:// address)')
    option('--deadline', metavar='WHEN', help='when the hand-in closes, local time, such as '
           "'2026-12-11 23:59'")
    option('--upload-mb', type=float, default=8.0, metavar='MB',
           help='the most an upload may hold, packed (default 8)')
    option('--quota-mb', type=float, default=100.0, metavar='MB',
           help="the most a student's versions may hold together, unpacked (default 100)")
    option('--challenges-an-hour', type=count(0), default=12, metavar='N',
           help='the most challenges a student may ask for in an hour (default 12; 0: none)')
    option('--challenge-pairs', type=count(1), default=5, metavar='N',
           help='the most game pairs a challenge may ask for (default 5)')
    option('--challenge-classmates', action='store_true',
           help="let students challenge a classmate's version, not only the course's players")
    option('--challenges-count', action='store_true',
           help="count challenges' games on the leaderboard (while both versions are on it)")
    option('--play-move-seconds', type=positive('seconds'), default=300.0, metavar='S',
           help="a student's time for each move of a game in the browser (default 300)")
    option('--play-games', type=count(0), default=10, metavar='N',
           help='the most games played in the browser at once (default 10; 0: none)')
    option('--mail-server', metavar='HOST:PORT', help='a mail server that e-mails students '
           "what their page tells them (the roster's email column; 465: TLS, else STARTTLS "
           'where offered)')
    option('--mail-from', metavar='ADDRESS', help="the e-mails' From address")
    option('--mail-user', metavar='NAME', help='the name to log in to the mail server with '
           '(its password: $ARENA_MAIL_PASSWORD)')
    option('--staff', metavar='NAME', help="add a member of staff (or change their password), "
           'asked for at the terminal, and stop')
    option('--new-link', metavar='ID', help="give a student a new sign-in link (the old one "
           'stops working), print it and stop')


def add_submit_arguments(submit: ArgumentParser) -> None:
    """Add submit's arguments: the arena, the file or folder, and the token."""
    submit.add_argument('url', help="the arena's address, such as http://127.0.0.1:8000")
    submit.add_argument('path', help='a Python file, or a folder (sent as a zip)')
    submit.add_argument('--token', default=os.environ.get('ARENA_TOKEN'),
                        help='your token: the end of your sign-in link, or the whole link '
                        '(default: $ARENA_TOKEN)')


def serve(options: Namespace, check: ArgumentParser | None) -> int:
    """Run the arena of options until Ctrl-C (or add a member of staff, or give a
    new link); check is check's parser with the course's [check] table as its
    defaults, or None for a course without one. Return the exit status."""
    try:
        import uvicorn
        from players.arena.arena import Arena
        from players.arena.records import Records
        from players.arena.roster import RosterError, read_roster
        from players.arena.web import make_app
    except ImportError as error:
        raise UsageError(f'serve needs the web extra ({error}); install it with {WEB_EXTRA}') \
            from None
    settings = arena_settings(options, check)
    if options.staff or options.new_link:
        os.makedirs(settings.folder, mode=0o700, exist_ok=True)
        records = Records(settings.path('arena.sqlite'))
        try:
            return add_staff(records, options.staff) if options.staff else \
                print_new_link(records, options.new_link, base_url(options))
        finally:
            records.close()
    check_executor(options)
    make_executor, in_flight = executors(options, settings)
    arena = Arena(settings, make_executor, in_flight)
    try:
        if options.roster:
            with usage_errors(RosterError):
                students = read_roster(options.roster)
            added = add_students(arena.records, students, settings.path(LINKS_FILE),
                                 base_url(options))
            if added:
                print(f'{added} new sign-in links in {settings.path(LINKS_FILE)}')
        check_games_file(settings, arena.records)
        if not arena.records.students():
            raise UsageError('the arena has no students: give --roster CSV (or roster in the '
                             "course file's [arena] table)")
        if not arena.records.staff_names():
            print('no staff account yet: add one with serve --staff NAME', file=sys.stderr)
        app = make_app(arena, secure=base_url(options).startswith('https://'))
        arena.start()
        print(f'Serving {len(arena.records.students())} students on {base_url(options)} '
              f'(Ctrl-C stops it)', flush=True)
        server = uvicorn.Server(uvicorn.Config(app, host=options.host, port=options.port,
                                               log_level='warning', access_log=False,
                                               timeout_graceful_shutdown=2))
        signal.signal(signal.SIGTERM, interrupted)  # a service manager's stop, as Ctrl-C
        try:
            server.run()
        except KeyboardInterrupt:  # uvicorn raises the signal it stopped on once it stopped
            pass
    finally:
        arena.stop()
    print('Stopped.')
    return 0


def interrupted(signum: int, frame: object) -> None:
    """Stop as Ctrl-C stops: raise KeyboardInterrupt."""
    raise KeyboardInterrupt


def arena_settings(options: Namespace, check: ArgumentParser | None):
    """Return the arena's settings of options (see players.arena.settings)."""
    from players.arena.settings import ArenaSettings, ChallengeRules, PlayRules
    from players.arena.uploads import UploadLimits
    chosen = tuple(distinct_variants(options.variants or variants.DEFAULT_VARIANTS))
    support = course_support(options)
    rules = rules_of(options, support)
    anchors = dict(options.anchors or {})
    house, _ = tournament_players(options.players, None, anchors, fewest=0) \
        if options.players is not None or anchors else ({}, None)
    grading = None
    if check is not None:
        from players.cli import check_options
        grading = check_options.settings(check.parse_args(['arena']))
    for option in ('upload_mb', 'quota_mb'):
        if getattr(options, option) <= 0:
            raise UsageError(f'--{option.replace("_", "-")} must be above 0')
    return ArenaSettings(
        os.path.abspath(options.store), chosen, house, anchors, rules, options.games,
        options.seed, support, UploadLimits(int(options.upload_mb * 1024 * 1024),
                                            folder_limits(options)),
        grading, deadline(options.deadline), options.quota_mb,
        ChallengeRules(options.challenges_an_hour, options.challenge_pairs,
                       options.challenge_classmates, options.challenges_count),
        base_url(options), mail_settings(options),
        PlayRules(options.play_move_seconds, options.play_games))


def mail_settings(options: Namespace):
    """Return the mail server of options (a MailSettings), or None without one; a
    UsageError for an address that is no HOST:PORT or a server without --mail-from."""
    from players.arena.mail import MailSettings
    if not options.mail_server:
        if options.mail_from or options.mail_user:
            raise UsageError('--mail-from and --mail-user need --mail-server HOST:PORT')
        return None
    host, _, port = options.mail_server.rpartition(':')
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f'--mail-server: {options.mail_server!r} is not HOST:PORT, such as '
                         "'smtp.example.edu:587'")
    if not options.mail_from:
        raise UsageError('--mail-server needs --mail-from ADDRESS, the address e-mails are from')
    return MailSettings(host, int(port), options.mail_from, options.mail_user,
                        os.environ.get(MAIL_PASSWORD))


def deadline(text: str | None) -> float | None:
    """Return the time a --deadline gives (local time), or None; a UsageError if it is none."""
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise UsageError(f"--deadline: {text!r} is not a time such as '2026-12-11 23:59'") \
            from None


def base_url(options: Namespace) -> str:
    """Return the address students open."""
    return (options.url or f'http://{options.host}:{options.port}').rstrip('/')


def executors(options: Namespace, settings):
    """Return what makes the ladder's executor (worker processes started fresh, since the
    server has threads, or the Dask cluster) and how many games it keeps under way."""
    from players.tournaments.tournament import worker_silence
    from players.tournaments.workers import WorkerPool
    silence = worker_silence(settings.rules)
    if options.executor == 'local':
        return (lambda: WorkerPool(options.jobs, hard_timeout=silence, start_method='spawn'),
                2 * options.jobs)
    from players.tournaments import cluster
    return (lambda: cluster.DaskExecutor(options.scheduler, options.jobs, silence,
                                         settings.rules.sandbox), 2 * options.jobs)


def check_games_file(settings, records) -> None:
    """Raise a UsageError if the arena's games file holds another tournament (the
    course's variants or rules changed since it was made)."""
    from players.arena.ladder_loop import open_games
    from players.tournaments.store import StoreError
    with usage_errors(StoreError):
        open_games(settings, records).close()


def add_students(records, students: list, links: str, url: str) -> int:
    """Add the roster's new students (roster.Enrolled) to the records and their
    sign-in links to the file links (made readable by its owner only); return how
    many were added. The e-mail addresses of those added before follow the roster."""
    from players.reports.player_text import for_csv
    added = []
    for student in students:
        token = records.add_student(student.id, student.name, student.email)
        if token is not None:
            added.append((student.id, student.name, f'{url}/signin/{token}'))
    if added:
        new = not os.path.exists(links)
        descriptor = os.open(links, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(descriptor, 'a', newline='', encoding='utf-8') as file:
            writer = csv.writer(file)
            if new:
                writer.writerow(['id', 'name', 'link'])
            writer.writerows([for_csv(cell) for cell in row] for row in added)
    return len(added)


def add_staff(records, name: str) -> int:
    """Ask for a staff member's password twice and keep its hash; return the exit status."""
    from players.arena.access import hash_password
    password = asked(f'Password for {name}: ')
    if len(password) < 8:
        raise UsageError('a password needs at least 8 characters')
    if asked('The same again: ') != password:
        raise UsageError('the two passwords differ')
    records.set_staff(name, hash_password(password))
    print(f'{name} may sign in at /login.')
    return 0


def asked(prompt: str) -> str:
    """Return a password typed at the terminal, not shown; or, from a script, a line
    of standard input."""
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return sys.stdin.readline().rstrip('\n')


def print_new_link(records, student: str, url: str) -> int:
    """Give a student a new token and print their link; return the exit status."""
    try:
        token = records.new_token(student)
    except KeyError:
        raise UsageError(f'--new-link: no student {student!r} in the arena') from None
    print(f'{url}/signin/{token}')
    return 0


def submit(options: Namespace) -> int:
    """Hand in a file or folder to an arena and wait for its verdict; return 0 if the
    version plays, 1 if it cannot (or the arena refused it), 2 for a usage error."""
    if not options.token:
        raise UsageError('give your token: --token TOKEN (the end of your sign-in link) or '
                         'ARENA_TOKEN in the environment')
    token = options.token.strip().rpartition('/signin/')[2]
    if not token.isascii() or not token.isprintable() or ' ' in token:
        raise UsageError('that is not a token: give the end of your sign-in link')
    url = options.url.rstrip('/')
    if urllib.parse.urlsplit(url).scheme not in ('http', 'https'):
        raise UsageError(f'{url!r} is not an arena\'s address, such as http://127.0.0.1:8000')
    data, filename = packed(options.path)
    headers = {'Authorization': f'Bearer {token}',
               'Content-Type': 'application/octet-stream'}
    answer = ask(f'{url}/api/submit?{urllib.parse.urlencode({"filename": filename})}', headers,
                 data)
    from players.reports.player_text import for_terminal
    if 'error' in answer:
        print(f'refused: {for_terminal(str(answer["error"]))}', file=sys.stderr)
        return 1
    number = answer.get('number')
    if not isinstance(number, int) or isinstance(number, bool):
        raise UsageError(f'{url} did not answer as an arena does')
    print(f'version {number} of {for_terminal(filename)} handed in; checking…', flush=True)
    waited = time.monotonic() + SUBMIT_WAIT_SECONDS
    while answer.get('checking') and time.monotonic() < waited:
        time.sleep(0.5)
        answer = ask(f'{url}/api/versions/{number}', headers)
    if answer.get('checking'):
        print(f'still checking after {SUBMIT_WAIT_SECONDS:g} s: see your page', file=sys.stderr)
        return 1
    if answer.get('status') == 'plays':
        print(f'version {number}: plays')
        return 0
    print(f'version {number}: cannot play: {for_terminal(str(answer.get("verdict")))}')
    return 1


def packed(path: str) -> tuple[bytes, str]:
    """Return the bytes to send of a file, or of a folder zipped (its hidden files and
    __pycache__ left out), and the name they are sent by."""
    if os.path.isfile(path):
        with open(path, 'rb') as file:
            return file.read(), os.path.basename(path)
    if not os.path.isdir(path):
        raise UsageError(f'no such file or folder {path!r}')
    made = io.BytesIO()
    limits = FolderLimits()
    with zipfile.ZipFile(made, 'w', zipfile.ZIP_DEFLATED) as packing:
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = sorted(name for name in subfolders
                                   if not name.startswith('.') and name != '__pycache__')
            for name in sorted(names):
                if not name.startswith('.'):
                    full = os.path.join(folder, name)
                    packing.write(full, os.path.relpath(full, path))
                    if len(packing.namelist()) > limits.files:
                        raise UsageError(f'{path} holds over {limits.files} files')
    return made.getvalue(), os.path.basename(os.path.abspath(path)) + '.zip'


def ask(url: str, headers: dict[str, str], data: bytes | None = None) -> dict:
    """Return the arena's JSON answer to a request (an error's too), data sent as the
    body of a POST; a UsageError if the arena cannot be reached or does not answer in
    JSON. An arena that refuses an upload as too big answers before it has read it
    all: its answer is read even though the rest could not be sent."""
    parts = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == 'https' else http.client.HTTPConnection
    connection = kind(parts.netloc, timeout=30)
    target = parts.path + (f'?{parts.query}' if parts.query else '')
    try:
        connection.putrequest('GET' if data is None else 'POST', target)
        for name, value in {**headers, 'Content-Length': str(len(data or b''))}.items():
            connection.putheader(name, value)
        connection.endheaders()
        try:
            for start in range(0, len(data or b''), 1 << 16):
                connection.send((data or b'')[start:start + (1 << 16)])
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before it was all sent: its answer says why
        response = connection.getresponse()
        body = response.read()
    except (OSError, http.client.HTTPException) as error:
        raise UsageError(f'cannot reach the arena at {url}: {error}') from None
    finally:
        connection.close()
    try:
        answer = json.loads(body)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        return {'error': f'{response.status} {response.reason}'}
    return answer
