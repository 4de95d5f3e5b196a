"""Paths and folders, as the sandbox handles them: whether a path lies in one of some
folders, and removing a folder a jail may have left read-only."""

import os
import shutil
from typing import Iterable


def inside(path: str, folders: Iterable[str]) -> bool:
    """Is path one of folders or inside one of them?"""
    return any(path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
               for folder in folders)


def remove_folder(path: str) -> None:
    """Remove a folder and everything in it, even the folders made read-only in it
    (a submission's files in a jail's folder); links are removed, never followed."""
    for folder, subfolders, _ in os.walk(path):
        for name in subfolders:
            inner = os.path.join(folder, name)
            if not os.path.islink(inner):
                try:
                    os.chmod(inner, 0o700)
                except OSError:
                    pass
    shutil.rmtree(path, ignore_errors=True)
