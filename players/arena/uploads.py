"""Students' hand-ins, checked and unpacked: a single Python file, or a zip of a
submission folder (docs/players.md). An upload is checked against its limits
before anything is unpacked, and a zip's bytes are counted as they are unpacked;
one that is refused raises UploadError, one line naming the problem, and leaves
nothing behind."""

from __future__ import annotations

import io
import os
import shutil
import stat
import zipfile
import zlib
from dataclasses import dataclass

from players.remote.player_code import FolderLimits

NAME_LENGTH = 100
"""The most characters an upload's file name may have."""
METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
"""The compression methods unpacked: zipfile holds bzip2 and LZMA output in memory
without a bound, so a small entry could fill it."""
CHUNK = 1 << 16
"""The most bytes read from an entry at once."""
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
"""How a file is made: a new one, never through a link."""


class UploadError(ValueError):
    """An upload that is refused, said in one line that names the problem."""


@dataclass(frozen=True)
class UploadLimits:
    """How big an upload may be."""

    bytes: int = 8 << 20
    """The most the upload itself may hold: 8 MiB."""
    folder: FolderLimits = FolderLimits()
    """The limits of the folder a zip unpacks to, as a tournament's."""


def unpack(data: bytes, filename: str, into: str, limits: UploadLimits = UploadLimits()) -> str:
    """Check an upload named filename and unpack it into the empty folder into.
    Return the path of the submission made there: the Python file, or the folder
    a zip unpacks to, named as the zip without .zip. Raise UploadError naming
    what is refused, and leave into empty."""
    _check_name(filename)
    if not filename.endswith(('.py', '.zip')):
        raise UploadError(f'{filename!r} is neither a Python file (.py) nor a zip (.zip)')
    if not data:
        raise UploadError(f'{filename!r} is empty')
    if len(data) > limits.bytes:
        raise UploadError(f'{filename!r} holds {len(data)} bytes; at most {limits.bytes} '
                          'may be handed in')
    if filename.endswith('.py'):
        return _write_file(data, os.path.join(into, filename))
    return _unpack_zip(data, os.path.join(into, filename.removesuffix('.zip')), limits.folder)


def _check_name(filename: str) -> None:
    """Raise UploadError unless filename is a plain name to save a file by."""
    if len(filename) > NAME_LENGTH:
        raise UploadError(f'the file name is over {NAME_LENGTH} characters long')
    if '/' in filename or '\\' in filename:
        problem = 'names a folder; hand in a file by its name alone'
    elif not filename.isprintable():
        problem = 'holds a control character'
    elif filename.startswith(('.', '-')):
        problem = 'starts with a dot or a dash'
    elif ':' in filename:  # a player spec reads it as FOLDER:FILE
        problem = "holds a ':'"
    else:
        return
    raise UploadError(f'the file name {filename!r} {problem}')


def _write_file(data: bytes, path: str) -> str:
    """Write data to a new file at path; return path."""
    descriptor = _new_file(path)
    try:
        with open(descriptor, 'wb') as file:
            file.write(data)
    except BaseException:
        os.unlink(path)
        raise
    return path


def _new_file(path: str) -> int:
    """Make a new file at path, mode 0o644, never through a link; return its descriptor."""
    descriptor = os.open(path, NEW_FILE, 0o644)
    os.fchmod(descriptor, 0o644)
    return descriptor


def _new_folder(path: str) -> None:
    """Make a new folder at path, mode 0o755."""
    os.mkdir(path, 0o755)
    os.chmod(path, 0o755)


Entry = tuple[zipfile.ZipInfo, tuple[str, ...]]
"""An entry of a zip and its path in the submission folder, split at its slashes."""


def _unpack_zip(data: bytes, folder: str, limits: FolderLimits) -> str:
    """Check a zip and unpack its files into a new folder; return the folder."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, EOFError, NotImplementedError, ValueError) as error:
        raise UploadError(f'this is not a zip that can be read ({error})') from None
    with archive:
        files = _files(archive, limits)
        _new_folder(folder)
        try:
            made: set[tuple[str, ...]] = set()
            for info, parts in files:
                _extract(archive, info, parts, folder, made)
        except BaseException:
            shutil.rmtree(folder)
            raise
    return folder


LEFT_OUT = ('__MACOSX', '.DS_Store', '__pycache__')
"""The names a zip's entries are left out by, wherever they are: macOS's additions, and
compiled Python (as are files ending in COMPILED: bytecode and extension modules),
which Python would import as readily as sources, code that no one can read."""
COMPILED = ('.pyc', '.pyo', '.so', '.pyd', '.dylib')


def _files(archive: zipfile.ZipFile, limits: FolderLimits) -> list[Entry]:
    """Return the files a zip unpacks to, without those LEFT_OUT and compiled Python,
    and without the one top folder they may all sit in; raise UploadError for a zip
    that is refused."""
    entries = [(info, _parts(info)) for info in archive.infolist()]
    entries = [(info, parts) for info, parts in entries
               if not set(parts) & set(LEFT_OUT) and not parts[-1].endswith(COMPILED)]
    if len({parts[0] for _, parts in entries}) == 1 and \
            all(len(parts) > 1 or info.is_dir() for info, parts in entries):
        entries = [(info, parts[1:]) for info, parts in entries if len(parts) > 1]
    files = [(info, parts) for info, parts in entries if not info.is_dir()]
    if len(files) > limits.files:
        raise UploadError(f'the zip holds {len(files)} files; at most {limits.files} '
                          'may be handed in')
    size = sum(info.file_size for info, _ in files)
    if size > limits.megabytes * 1e6:
        raise UploadError(f'the zip unpacks to {size} bytes; at most {limits.megabytes:g} MB '
                          'may be handed in')
    _check_paths(entries, limits.depth)
    if not any(parts[-1].endswith('.py') for _, parts in files):
        raise UploadError('the zip holds no Python file (.py)')
    return files


def _parts(info: zipfile.ZipInfo) -> tuple[str, ...]:
    """Return an entry's name split at its slashes; raise UploadError for a name that
    could lead out of its folder or cannot be shown, a link, a special file, an
    encrypted entry or one compressed by a method not unpacked."""
    name = info.orig_filename  # zipfile's filename stops at a NUL
    kind = stat.S_IFMT(info.external_attr >> 16)
    parts = tuple(name.removesuffix('/').split('/'))  # is_dir() fails on an empty name
    if not name.isprintable():
        problem = 'holds a control character'
    elif name.startswith('/'):
        problem = 'is absolute'
    elif '\\' in name:
        problem = 'holds a backslash'
    elif name[1:2] == ':' and name[:1].isascii() and name[:1].isalpha():
        problem = 'starts with a drive letter'
    elif '..' in parts:
        problem = "has a '..' part, which leads out of its folder"
    elif '' in parts or '.' in parts:
        problem = "has an empty or '.' part"
    elif kind == stat.S_IFLNK:
        problem = 'is a symbolic link; only files and folders may be handed in'
    elif kind not in (0, stat.S_IFDIR if name.endswith('/') else stat.S_IFREG):
        problem = ('is a special file (a device, a socket or a pipe); only files and folders '
                   'may be handed in')
    elif info.flag_bits & 0x1:
        problem = 'is encrypted; hand in a zip without a password'
    elif info.compress_type not in METHODS:
        problem = (f'is compressed by method {info.compress_type}, which is not unpacked; '
                   'zip it with the usual deflate')
    else:
        return parts
    raise UploadError(f'the zip entry {_shown(name)} {problem}')


def _shown(name: str) -> str:
    """Return a name as a message shows it: quoted, its control characters escaped,
    cut after NAME_LENGTH characters."""
    return repr(name) if len(name) <= NAME_LENGTH else repr(name[:NAME_LENGTH]) + '...'


def _check_paths(entries: list[Entry], depth: int) -> None:
    """Raise UploadError if two entries unpack to one path (a file and a folder of
    one name among them), or one lies more than depth folders deep."""
    seen: set[tuple[str, ...]] = set()
    folders: set[tuple[str, ...]] = set()
    for info, parts in entries:
        if parts in seen:
            raise UploadError(f'two entries of the zip unpack to {_shown("/".join(parts))}')
        seen.add(parts)
        folders.update(parts[:end] for end in range(1, len(parts)))
        if len(parts) - (0 if info.is_dir() else 1) > depth:
            raise UploadError(f'the zip entry {_shown(info.filename)} lies more than {depth} '
                              'folders deep')
    for info, parts in entries:
        if parts in folders and not info.is_dir():
            raise UploadError(f'{_shown("/".join(parts))} is both a file and a folder in the zip')


def _extract(archive: zipfile.ZipFile, info: zipfile.ZipInfo, parts: tuple[str, ...],
             folder: str, made: set[tuple[str, ...]]) -> None:
    """Write an entry's file at its path in folder, making the folders above it that
    are not yet made. Raise UploadError if it gives more bytes than its header
    declares (zipfile stops there and finds the CRC wrong; the count does not rely
    on it), so that no file passes its declared size and the zip's files, whose
    declared sizes were checked together, stay within the folder's limit."""
    try:
        for end in range(1, len(parts)):
            if parts[:end] not in made:
                _new_folder(os.path.join(folder, *parts[:end]))
                made.add(parts[:end])
        with archive.open(info) as source, \
                open(_new_file(os.path.join(folder, *parts)), 'wb') as target:
            given = 0
            while chunk := source.read(CHUNK):
                given += len(chunk)
                if given > info.file_size:
                    raise UploadError(f'the zip entry {_shown(info.filename)} gives more bytes '
                                      f'than its header declares ({info.file_size})')
                target.write(chunk)
    except UploadError:
        raise
    except (zipfile.BadZipFile, EOFError, NotImplementedError, ValueError, zlib.error) as error:
        raise UploadError(f'the zip is damaged, or its headers lie ({error})') from None
    except OSError as error:
        raise UploadError(f'cannot unpack {_shown(info.filename)}: {error.strerror}') from None
