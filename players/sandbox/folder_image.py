"""A submission folder as one sealed file in memory: the trusted side packs the
folder's files once a process, and each jail of the submission is handed the
file and unpacks it into a folder of its own, read-only (see players.sandbox.confine).
Nothing goes to disk on the trusted side, so there is nothing to clean up.

The image is a line of JSON, [[path, size], ...], then the files' contents in
that order. It imports only the standard library: the jail server uses it."""

from __future__ import annotations

import fcntl
import json
import os
from typing import Sequence

_images: dict[tuple, int] = {}
"""This process's images, by their files, as open file descriptors."""


def image_fd(files: Sequence[tuple[str, bytes]]) -> int:
    """Return a file descriptor of this process for the image of files ((path,
    content) pairs), made on first use and sealed so that it cannot change."""
    key = tuple(files)
    if key not in _images:
        header = json.dumps([[path, len(content)] for path, content in files]).encode()
        fd = os.memfd_create('submission', os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        for piece in (header + b'\n', *(content for _, content in files)):
            data = memoryview(piece)  # each file as it is: no copy of the whole folder
            while data:
                data = data[os.write(fd, data):]
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK
                    | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE)
        _images[key] = fd
    return _images[key]


def unpack(fd: int, target: str) -> None:
    """Write the files of the image fd into the new folder target, every folder and
    file read-only for everyone (0555 and 0444), and close fd. The image is read at
    explicit offsets, since every jail shares the trusted side's open file. Raise
    ValueError for an image that names a path outside target."""
    try:
        header = b''
        while b'\n' not in header:
            header += os.pread(fd, 1 << 16, len(header)) or b'\n'
        header, _, _ = header.partition(b'\n')
        offset = len(header) + 1
        folders = [target]
        os.mkdir(target, 0o755)
        for path, size in json.loads(header):
            parts = path.split('/')
            if path.startswith('/') or '..' in parts or '' in parts:
                raise ValueError(f'a path outside the folder: {path!r}')
            for depth in range(1, len(parts)):
                folder = os.path.join(target, *parts[:depth])
                if folder not in folders:
                    os.mkdir(folder, 0o755)
                    folders.append(folder)
            out = os.open(os.path.join(target, path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
            try:
                for start in range(offset, offset + size, 1 << 20):
                    os.write(out, os.pread(fd, min(1 << 20, offset + size - start), start))
            finally:
                os.close(out)
            offset += size
    finally:
        os.close(fd)
    for folder in folders:
        os.chmod(folder, 0o555)
