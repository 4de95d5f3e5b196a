"""How a process forked by the jail server becomes a jail: its pipes, limits,
user and folder, or namespaces of its own, or the program it executes (see
players.sandbox.jail_server, which forks it); and the view of the system that a server
run by root at the process level builds once for its jails (build_view), and a
program's jail there for itself (make_root). Linux only; each function but
build_view and drop_view runs in the child."""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import resource
import signal
from typing import Sequence

from . import folder_image, keyrings

REQUEST_FD, ANSWER_FD = 3, 4
"""The jail's ends of its two pipes, the same in every jail."""
IMAGE_FD = 5
"""Where a jail holds its submission's folder image until it has unpacked it."""
SUBMISSION = 'submission'
"""The folder, in the jail's own folder, of its submission's files: read-only, and
the jail's working folder."""
PROGRAM_PATH = '/usr/local/bin:/usr/bin:/bin'
"""Where a jailed command and the programs it starts are looked for."""

SYSTEM = ('/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/etc/ld.so.cache',
          '/etc/localtime', '/etc/alternatives')
"""The system's programs and libraries, which a jail sees read-only (a module of the
standard library may load a library of the system)."""
DEVICES = ('/dev/null', '/dev/zero', '/dev/random', '/dev/urandom')
"""The devices a jail may open."""
VIEW_HOME = '/home'
"""The private folder of a jail in a view of the system (see build_view): its working,
home and temporary folder."""
_MNT_DETACH = 2
_CLONE_NEWNS, _CLONE_NEWUTS, _CLONE_NEWIPC = 0x20000, 0x4000000, 0x8000000
_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT, _MS_BIND = 1, 2, 4, 8, 32, 4096
_MS_REC, _MS_PRIVATE = 0x4000, 0x40000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 36, 38
"""Options of Linux's prctl (see prctl)."""
_LIBC = ctypes.CDLL(None, use_errno=True)


def run_command(job: dict, fds: list[int], folder: str | None, uid: int | None,
                limits: dict, view: bool = False) -> None:
    """In a new jail: run a program with the pipes as its standard input, output
    and error, under the jail's limits, with no keys (see players.sandbox.keyrings),
    in its working folder (at 'process', the given one or the jail's private
    folder) and, started by root, as the jail's own user. Where the server has a
    view (run by root where mounts are allowed), a program at 'process' is shut in
    a root of its own first, as a Python jail is in the view (see
    _shut_in_program). Never returns; a command that cannot be run says why on
    its standard error."""
    command = job['command']
    try:
        os.setsid()
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in fds]
        for target, fd in enumerate(high):
            os.dup2(fd, target, inheritable=True)
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        environment = {}  # bubblewrap sets the program's own
        if folder is not None:
            home = _shut_in_program(folder, job['paths'], limits) if view else folder
            environment = {'PATH': PROGRAM_PATH, 'HOME': home, 'TMPDIR': home}
            os.chdir(job['workdir'] or home)
        _set_limits(limits, _process_limit(limits, uid))
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        keyrings.shut_off_keys()
        if uid is not None:
            _become(uid)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        os.execvpe(command[0], command, environment)
    except OSError as error:
        hint = (' (a jail started by root runs as a user of its own, which must be able '
                'to read the program and its folder: chmod o+rx)'
                if error.errno == errno.EACCES and uid is not None else '')
        os.write(2, f'cannot run {command[0]}: {error.strerror or error}{hint}\n'.encode())
    finally:
        os._exit(127)


def _shut_in_program(folder: str, paths: Sequence[str], limits: dict) -> str:
    """In a program's jail at 'process', started by root: namespaces of its own
    (mount, network, IPC, process, host name), and a root of its own in folder
    (see make_root) that shows the system and the program's paths read-only, a
    private home (VIEW_HOME, /tmp leading there) and a /proc of its own process
    namespace; so it has no network, sees no other process and no file but its
    own. This process waits as the namespace's parent; the jail goes on, shut in
    the root (chroot), in its child, the namespace's first process. Return the
    home."""
    _check(_LIBC.unshare(_CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWPID
                         | _CLONE_NEWUTS), 'unshare')
    _mount(None, '/', None, _MS_REC | _MS_PRIVATE)
    root = os.path.join(folder, 'root')
    make_root(root, paths)
    _make_home(root + VIEW_HOME, limits, image=False)
    child = os.fork()
    if child:
        _wait_as_parent(child)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    _mount('proc', root + '/proc', 'proc', _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    _mount('/dev/null', root + '/proc/key-users', None, _MS_BIND)  # every user's key count
    os.chroot(root)
    return VIEW_HOME


def take_pipes(request_read: int, answer_write: int, output_write: int,
               image: int | None = None) -> None:
    """In a new jail: its own session, the pipes on REQUEST_FD and ANSWER_FD, its
    submission's folder image (if any) on IMAGE_FD, standard input on /dev/null,
    standard output and error both on the output pipe (so that what is written on
    either comes out in the order written), and no other file open."""
    os.setsid()
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    kept = (request_read, answer_write) if image is None else (request_read, answer_write, image)
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (*kept, output_write)]
    for target, fd in zip((REQUEST_FD, ANSWER_FD, IMAGE_FD), high):
        os.dup2(fd, target)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    for target in (1, 2):
        os.dup2(high[-1], target)
    os.closerange(REQUEST_FD + len(kept), resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def shut_in(folder: str | None, uid: int | None, limits: dict, image: bool = False,
            view: str | None = None) -> None:
    """In a process-level jail: limits, a clean environment, and a private folder
    with the submission's files (the image on IMAGE_FD, if image) unpacked
    read-only in its SUBMISSION folder, the working folder. Run by an ordinary
    user, the private folder is folder. Started by root, the jail has a user of
    its own and is shut in the server's view of the system (see build_view), in
    mount, network and IPC namespaces of its own: its VIEW_HOME, the private
    folder, is new and empty, it has no network (not even the machine's loopback
    and abstract sockets) and shares no System V IPC with other jails. Where the
    server has no view (mounts are not allowed here, nor are new namespaces), it
    is shut in folder, which it sees alone, and shares the machine's network and
    System V IPC (the submission's files are root's either way). Either way it has
    no keys (see players.sandbox.keyrings)."""
    if view is not None:
        _check(_LIBC.unshare(_CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC), 'unshare')
        folder, home = view + VIEW_HOME, VIEW_HOME
        _make_home(folder, limits, image)
    elif folder is None:
        raise ValueError('a jail shut in without a view needs a folder of its own')
    else:
        home = folder if uid is None else '/'
        if image:
            folder_image.unpack(IMAGE_FD, os.path.join(folder, SUBMISSION))
    _set_limits(limits, _process_limit(limits, uid))
    os.environ.clear()  # no secret of anyone's environment
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    keyrings.shut_off_keys()
    if uid is not None:
        os.chroot(folder if view is None else view)
    os.chdir(os.path.join(home, SUBMISSION) if image else home)
    os.environ.update(PATH='/usr/bin:/bin', HOME=home, TMPDIR=home)
    if uid is not None:
        _become(uid)


def build_view(root: str, view: dict) -> None:
    """In a jail server run by root at the process level, before any jail: a mount
    namespace of its own, and in root (a new folder) a read-only view of what its
    jails may see (see make_root): the folders of view['binds'] with the folders
    of view['masks'] in them hidden (empty), and the files and folders of
    view['over'] (inside masks or not)."""
    _check(_LIBC.unshare(_CLONE_NEWNS), 'unshare')
    _mount(None, '/', None, _MS_REC | _MS_PRIVATE)
    make_root(root, view['binds'], view['masks'], view['over'])


def make_root(root: str, binds: Sequence[str], masks: Sequence[str] = (),
              over: Sequence[str] = ()) -> None:
    """Make root (a new folder, in a mount namespace of one's own) a read-only view
    of the system's programs and libraries (SYSTEM), DEVICES and binds (each a file
    or a folder, at its own path), with each folder of masks inside them hidden
    (empty) but for the paths of over; an empty VIEW_HOME where each jail mounts
    its own private folder (not /tmp, where the server's own folder may be), /tmp
    leading there, and an empty /proc where a jail may mount its own."""
    os.mkdir(root, 0o755)
    _mount('tmpfs', root, 'tmpfs', _MS_NOSUID | _MS_NODEV, 'size=1m,mode=755')
    for path in SYSTEM:
        if os.path.islink(path):
            os.symlink(os.readlink(path), root + path)
        elif os.path.exists(path):
            _bind_read_only(path, root)
    for path in DEVICES:
        _mount(path, _mount_point(path, root), None, _MS_BIND)
    for path in binds:
        _bind_read_only(path, root)
    for mask in masks:
        _mount('tmpfs', root + mask, 'tmpfs', _MS_NOSUID | _MS_NODEV, 'size=1m,mode=755')
    for path in over:
        if not os.path.exists(root + path) or any(path.startswith(mask + os.sep)
                                                  for mask in masks):
            _bind_read_only(path, root)
    for mask in masks:
        _mount(None, root + mask, None, _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    for folder in (VIEW_HOME, '/proc'):
        os.mkdir(root + folder, 0o755)
    if not os.path.lexists(root + '/tmp'):
        os.symlink(VIEW_HOME, root + '/tmp')
    _mount(None, root, None, _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)


def drop_view(root: str) -> None:
    """Unmount a view made by build_view, and everything in it, leaving its empty folder."""
    _LIBC.umount2(root.encode(), _MNT_DETACH)


def _bind_read_only(path: str, root: str = '') -> None:
    """Bind path read-only, where it is in root (its mount point made as needed); a
    file system mounted inside path is left out, not shown writable."""
    target = _mount_point(path, root) if root else path
    _mount(path, target, None, _MS_BIND)
    _mount(None, target, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)


def _mount_point(path: str, root: str, source: str | None = None) -> str:
    """Return where path goes in root, made there: a folder, or an empty file, as
    source (default: path) is."""
    target = root + path
    if os.path.isdir(source or path):
        os.makedirs(target, 0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
    return target


def _make_home(folder: str, limits: dict, image: bool) -> None:
    """Mount a jail's private folder on folder, a new memory file system sized for
    it, with the submission's files (the image on IMAGE_FD, if image) unpacked in
    its SUBMISSION folder, mounted read-only."""
    _mount('tmpfs', folder, 'tmpfs', _MS_NOSUID | _MS_NODEV,
           f'size={_room(limits, image)}m,mode=1777')
    if image:
        folder_image.unpack(IMAGE_FD, os.path.join(folder, SUBMISSION))
        _bind_read_only(os.path.join(folder, SUBMISSION))


def _room(limits: dict, image: bool) -> int:
    """Return the MiB of a jail's private folder: four times its largest file, and
    room for its submission's files (the image on IMAGE_FD), if image."""
    return limits['file_mb'] * 4 + ((os.fstat(IMAGE_FD).st_size >> 20) + 1 if image else 0)


def _become(uid: int) -> None:
    """Take a user (and group) id of one's own, with no other group."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def enter_namespaces(limits: dict, uid: int | None, image: bool = False) -> None:
    """In a jail of a server inside bubblewrap: a user of its own (uid, when the
    server runs as root), then namespaces of its own (user, mount, process,
    network, IPC), a fresh /tmp (with what the server shows inside /tmp, a project
    kept there, still in it) and no /proc, and no capabilities; with image,
    the submission's files (the image on IMAGE_FD) unpacked in /tmp's SUBMISSION
    folder, mounted read-only, the working folder. This process waits as the
    namespace's parent; the jail goes on in its child, the namespace's first
    process, whose death kills every process in it. It has no keys (see
    players.sandbox.keyrings)."""
    if uid is not None:
        _become(uid)
    prctl(PR_SET_DUMPABLE, 1)  # to write its own maps in /proc/self (the server is not)
    uid, gid = os.getuid(), os.getgid()
    _check(_LIBC.unshare(_CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWPID | _CLONE_NEWNET
                         | _CLONE_NEWIPC | _CLONE_NEWUTS), 'unshare')
    for name, text in (('setgroups', 'deny'), ('uid_map', f'{uid} {uid} 1'),
                       ('gid_map', f'{gid} {gid} 1')):
        with open(f'/proc/self/{name}', 'w') as file:
            file.write(text)
    _mount(None, '/', None, _MS_REC | _MS_PRIVATE)
    kept = _mounts_under('/tmp')
    _make_home('/tmp', limits, image)
    for path, fd in kept:  # what the server shows under /tmp (a project kept there)
        _mount(f'/proc/self/fd/{fd}', _mount_point(path, '', f'/proc/self/fd/{fd}'), None,
               _MS_BIND | _MS_REC)
        os.close(fd)
    _mount('tmpfs', '/proc', 'tmpfs', _MS_RDONLY | _MS_NOSUID | _MS_NODEV, 'size=4k,mode=555')
    child = os.fork()
    if child:
        _wait_as_parent(child)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    _set_limits(limits, limits['processes'])
    _drop_capabilities()
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    keyrings.shut_off_keys()
    prctl(PR_SET_DUMPABLE, 0)
    os.chdir(f'/tmp/{SUBMISSION}' if image else '/tmp')
    os.environ.clear()
    os.environ.update(PATH='/usr/bin:/bin', HOME='/tmp', TMPDIR='/tmp')


def _mounts_under(top: str) -> list[tuple[str, int]]:
    """Return the outermost mounts inside the folder top, from this process's
    mountinfo, each with a file descriptor that holds it (O_PATH), so that they can
    be bound again once something else is mounted on top."""
    inside: list[str] = []
    with open('/proc/self/mountinfo') as file:
        for line in file:
            point = re.sub(r'\\([0-7]{3})', lambda code: chr(int(code[1], 8)), line.split()[4])
            if point.startswith(top.rstrip('/') + '/'):
                inside.append(point)
    outermost = [path for path in dict.fromkeys(inside)
                 if not any(path.startswith(other + '/') for other in inside)]
    return [(path, os.open(path, os.O_PATH)) for path in outermost]


def _wait_as_parent(child: int) -> None:
    """Wait for a namespace's first process and end as it ended. Never returns."""
    os.closerange(0, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    status = os.waitpid(child, 0)[1]
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _set_limits(limits: dict, processes: int) -> None:
    """Set a jail's resource limits."""
    mib = 1 << 20
    for kind, value in ((resource.RLIMIT_AS, limits['memory_mb'] * mib),
                        (resource.RLIMIT_CORE, 0),
                        (resource.RLIMIT_FSIZE, limits['file_mb'] * mib),
                        (resource.RLIMIT_NOFILE, limits['open_files']),
                        (resource.RLIMIT_NPROC, processes)):
        resource.setrlimit(kind, (value, value))


def _process_limit(limits: dict, uid: int | None) -> int:
    """Return the process limit of a jail: its own, for a jail with a user of its
    own; else the processes its user has now and the jail's share more (the kernel
    counts a user's processes together)."""
    return limits['processes'] if uid is not None else _own_tasks() + limits['processes']


def _own_tasks() -> int:
    """Return how many processes and threads this process's user has now (the
    process limit of a user counts them all)."""
    uid, count = os.getuid(), 0
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                if os.stat(f'/proc/{name}').st_uid == uid:
                    count += len(os.listdir(f'/proc/{name}/task'))
            except OSError:
                continue
    return count


class _CapHeader(ctypes.Structure):
    _fields_ = [('version', ctypes.c_uint32), ('pid', ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [('effective', ctypes.c_uint32), ('permitted', ctypes.c_uint32),
                ('inheritable', ctypes.c_uint32)]


def _drop_capabilities() -> None:
    """Give up every capability (those a new user namespace grants its first user)."""
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    _check(_LIBC.capset(ctypes.byref(header), data), 'capset')


def _mount(source: str | None, target: str, kind: str | None, flags: int,
           options: str | None = None) -> None:
    """Call Linux's mount."""
    encoded = [None if text is None else text.encode() for text in (source, target, kind, options)]
    _check(_LIBC.mount(encoded[0], encoded[1], encoded[2], flags, encoded[3]), f'mount {target}')


def _check(result: int, what: str) -> None:
    """Raise OSError if a libc call failed."""
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f'{what}: {os.strerror(number)}')


def prctl(option: int, value: int) -> bool:
    """Call Linux's prctl; return False where it fails."""
    return _LIBC.prctl(option, value, 0, 0, 0) == 0
