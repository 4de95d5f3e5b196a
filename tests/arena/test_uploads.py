"""Students' uploads to the class arena, checked and unpacked: a file or a zipped
folder is accepted and unpacked as it was handed in, files 0o644 and folders
0o755; a hostile zip (built here byte by byte where zipfile would not write it) is
refused with one line naming the problem, and the folder it was to unpack into is
left empty."""

import errno
import io
import os
import shutil
import stat
import struct
import warnings
import zipfile
import zlib

import pytest

from players.arena import uploads
from players.arena.uploads import UploadError, UploadLimits, unpack
from players.remote.player_code import FolderLimits, read_folder

PLAYER = b'def player(game, state):\n    return game.actions(state)[0]\n'
HELPER = b'def pick(moves):\n    return moves[0]\n'
SMALL = UploadLimits(folder=FolderLimits(megabytes=1, files=3, depth=2))


def zipped(*entries, method=zipfile.ZIP_DEFLATED):
    """A zip of entries, each (name, content) or (ZipInfo, content); a name ending in
    / is a folder. Duplicate names are written as given."""
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, 'w', method) as archive:
        warnings.simplefilter('ignore')  # zipfile warns of a duplicate name, and writes it
        for name, content in entries:
            archive.writestr(name, content)
    return buffer.getvalue()


def written(*entries):
    """A zip of stored entries (name as bytes, content), written byte by byte: names
    zipfile would not write."""
    local, central = b'', b''
    for name, content in entries:
        crc, size = zlib.crc32(content), len(content)
        central += struct.pack('<4s6H3L5H2L', b'PK\x01\x02', 20, 20, 0, 0, 0, 0, crc, size,
                               size, len(name), 0, 0, 0, 0, 0, len(local)) + name
        local += struct.pack('<4s5H3L2H', b'PK\x03\x04', 20, 0, 0, 0, 0, crc, size, size,
                             len(name), 0) + name + content
    return local + central + struct.pack('<4s4H2LH', b'PK\x05\x06', 0, 0, len(entries),
                                         len(entries), len(central), len(local), 0)


def entry(name, mode):
    """A ZipInfo of a name with a Unix mode (its type and permissions)."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def patched(data, name, local, central, fmt, value):
    """A zip with a field of one entry's local and central headers set to value: the
    field at offset local of the local header, and central of the central one."""
    data = bytearray(data)
    for signature, offset in ((b'PK\x03\x04', local), (b'PK\x01\x02', central)):
        header = data.find(signature)
        name_at = {b'PK\x03\x04': 30, b'PK\x01\x02': 46}[signature]
        while data[header + name_at:header + name_at + len(name)] != name.encode():
            header = data.find(signature, header + 1)
            assert header >= 0, f'no entry {name!r}'
        struct.pack_into(fmt, data, header + offset, value)
    return bytes(data)


def contents(folder):
    """Every file and folder under folder: {path in it: (mode, content or None)}."""
    found = {}
    for top, folders, files in os.walk(folder):
        for name in folders + files:
            path = os.path.join(top, name)
            mode = os.lstat(path).st_mode
            content = open(path, 'rb').read() if stat.S_ISREG(mode) else None
            found[os.path.relpath(path, folder)] = (oct(mode), content)
    return found


FILE, FOLDER = oct(stat.S_IFREG | 0o644), oct(stat.S_IFDIR | 0o755)


@pytest.fixture
def into(tmp_path):
    """The empty folder an upload is unpacked into; each test checks what it holds."""
    folder = tmp_path / 'into'
    folder.mkdir()
    return str(folder)


@pytest.fixture
def nothing_written(monkeypatch):
    """Make writing anything fail the test: a refusal comes before it."""
    def written(*args, **kwargs):
        raise AssertionError(f'wrote {args[0]!r} before refusing')
    monkeypatch.setattr(uploads.os, 'open', written)
    monkeypatch.setattr(uploads.os, 'mkdir', written)


def refused(into, data, filename, *words, limits=UploadLimits()):
    """Check that an upload is refused with one line holding words, and into left empty."""
    with pytest.raises(UploadError) as error:
        unpack(data, filename, into, limits)
    message = str(error.value)
    assert '\n' not in message
    for word in words:
        assert word in message, message
    assert os.listdir(into) == []
    return message


# What is accepted


def test_a_single_file_is_saved_by_its_name_readable_by_all(into):
    old = os.umask(0o077)
    try:
        path = unpack(PLAYER, 'alice.py', into)
    finally:
        os.umask(old)
    assert path == os.path.join(into, 'alice.py')
    assert contents(into) == {'alice.py': (FILE, PLAYER)}


def test_a_folder_zipped_with_its_top_folder_unpacks_its_content(into):
    data = zipped(('alice/', b''), ('alice/player.py', PLAYER), ('alice/helper.py', HELPER))
    path = unpack(data, 'carol.zip', into)
    assert path == os.path.join(into, 'carol')
    assert contents(into) == {'carol': (FOLDER, None), 'carol/player.py': (FILE, PLAYER),
                              'carol/helper.py': (FILE, HELPER)}


def test_a_folder_zipped_flat_unpacks_as_it_is(into):
    path = unpack(zipped(('player.py', PLAYER), ('helper.py', HELPER)), 'alice.zip', into)
    assert contents(path) == {'player.py': (FILE, PLAYER), 'helper.py': (FILE, HELPER)}


def test_nested_helper_modules_and_a_data_file_unpack_with_their_folders(into):
    book = bytes(range(256)) * 40
    data = zipped(('bot/player.py', PLAYER), ('bot/lib/__init__.py', b''),
                  ('bot/lib/search/deep.py', HELPER), ('bot/book.bin', book))
    old = os.umask(0o077)
    try:
        path = unpack(data, 'alice.zip', into)
    finally:
        os.umask(old)
    assert contents(path) == {
        'player.py': (FILE, PLAYER), 'book.bin': (FILE, book), 'lib': (FOLDER, None),
        'lib/__init__.py': (FILE, b''), 'lib/search': (FOLDER, None),
        'lib/search/deep.py': (FILE, HELPER)}


def test_what_is_unpacked_is_a_submission_folder_the_tournament_reads(into):
    path = unpack(zipped(('alice/player.py', PLAYER), ('alice/helper.py', HELPER)),
                  'alice.zip', into)
    code = read_folder(path)
    assert code.source == PLAYER.decode()
    assert code.files == (('helper.py', HELPER), ('player.py', PLAYER))


def test_a_folder_zipped_from_disk_with_its_unix_modes_unpacks(into, tmp_path):
    folder = tmp_path / 'alice'
    (folder / 'lib').mkdir(parents=True)
    (folder / 'player.py').write_bytes(PLAYER)
    (folder / 'lib' / 'helper.py').write_bytes(HELPER)
    os.chmod(folder / 'player.py', 0o755)
    archive = shutil.make_archive(str(tmp_path / 'alice'), 'zip', tmp_path, 'alice')
    path = unpack(open(archive, 'rb').read(), 'alice.zip', into)
    assert contents(path) == {'player.py': (FILE, PLAYER), 'lib': (FOLDER, None),
                              'lib/helper.py': (FILE, HELPER)}


def test_macos_additions_are_left_out(into):
    data = zipped(('alice/player.py', PLAYER), ('alice/.DS_Store', b'\0\0\0\1Bud1'),
                  ('__MACOSX/', b''), ('__MACOSX/alice/._player.py', b'\0\5\26\7'),
                  ('alice/lib/.DS_Store', b'Bud1'), ('alice/lib/helper.py', HELPER))
    path = unpack(data, 'alice.zip', into)
    assert contents(path) == {'player.py': (FILE, PLAYER), 'lib': (FOLDER, None),
                              'lib/helper.py': (FILE, HELPER)}


def test_two_top_folders_or_a_file_beside_one_are_kept(into):
    path = unpack(zipped(('alice/player.py', PLAYER), ('notes.txt', b'hi')), 'a.zip', into)
    assert contents(path) == {'alice': (FOLDER, None), 'alice/player.py': (FILE, PLAYER),
                              'notes.txt': (FILE, b'hi')}


def test_names_differing_only_in_case_and_a_zip_at_the_limits_are_accepted(into):
    data = zipped(('Player.py', PLAYER), ('player.py', HELPER), ('a/b/c.py', b'x' * 999_000))
    path = unpack(data, 'alice.zip', into, SMALL)
    assert contents(path)['Player.py'] == (FILE, PLAYER)
    assert contents(path)['player.py'] == (FILE, HELPER)
    assert contents(path)['a/b/c.py'] == (FILE, b'x' * 999_000)


def test_a_stored_zip_unpacks(into):
    path = unpack(zipped(('player.py', PLAYER), method=zipfile.ZIP_STORED), 'a.zip', into)
    assert contents(path) == {'player.py': (FILE, PLAYER)}


# Refused: file names, kinds and sizes


@pytest.mark.parametrize('filename, words', [
    ('subs/alice.py', ['names a folder']),
    ('C:\\Users\\alice\\alice.py', ['names a folder']),
    ('alice\0.py', ['control character', r'\x00']),
    ('\x1b[2Jalice.py', ['control character', r'\x1b']),
    ('alice\u202egnp.py', ['control character']),
    ('.alice.py', ['starts with a dot']),
    ('.py', ['starts with a dot']),
    ('-alice.py', ['dash']),
    ('alice:player.py', ["holds a ':'"]),
    ('a' * 98 + '.py', ['over 100 characters']),
    ('alice.txt', ['neither a Python file', 'nor a zip']),
    ('alice.PY', ['neither a Python file']),
    ('alice', ['neither a Python file']),
    ('', ['neither a Python file']),
])
def test_a_file_name_that_is_not_plain_is_refused(into, nothing_written, filename, words):
    refused(into, PLAYER, filename, *words)
    refused(into, zipped(('player.py', PLAYER)), filename.replace('.py', '.zip'), *words)


def test_an_empty_upload_is_refused(into, nothing_written):
    refused(into, b'', 'alice.py', "'alice.py' is empty")
    refused(into, b'', 'alice.zip', "'alice.zip' is empty")


def test_an_upload_over_its_byte_limit_is_refused(into, nothing_written):
    limits = UploadLimits(bytes=len(PLAYER) - 1)
    refused(into, PLAYER, 'alice.py', f'holds {len(PLAYER)} bytes', f'at most {len(PLAYER) - 1}',
            limits=limits)
    refused(into, zipped(('player.py', PLAYER)), 'alice.zip', 'at most', limits=limits)


def test_an_upload_of_its_byte_limit_is_accepted(into):
    path = unpack(PLAYER, 'alice.py', into, UploadLimits(bytes=len(PLAYER)))
    assert contents(into) == {'alice.py': (FILE, PLAYER)} and path.endswith('alice.py')


@pytest.mark.parametrize('data', [PLAYER, b'PK\x03\x04' + b'\0' * 100,
                                  zipped(('player.py', PLAYER))[:-10]])
def test_what_is_not_a_zip_is_refused(into, nothing_written, data):
    refused(into, data, 'alice.zip', 'not a zip')


# Refused before anything is written: a zip over its limits, or with a hostile entry


def test_a_zip_of_too_many_files_is_refused(into, nothing_written):
    data = zipped(*[(f'alice/m{n}.py', b'') for n in range(4)])
    refused(into, data, 'alice.zip', 'the zip holds 4 files; at most 3 may be handed in',
            limits=SMALL)


def test_a_zip_declaring_too_much_in_all_is_refused(into, nothing_written):
    data = zipped(('player.py', PLAYER), ('weights.bin', b'\0' * 1_000_000))
    refused(into, data, 'alice.zip', f'unpacks to {1_000_000 + len(PLAYER)} bytes',
            'at most 1 MB', limits=SMALL)


@pytest.mark.parametrize('name, words', [
    ('/etc/cron.d/evil.py', ['is absolute']),
    ('alice/../../evil.py', ["'..' part"]),
    ('../evil.py', ["'..' part"]),
    ('alice\\..\\evil.py', ['backslash']),
    ('C:/evil.py', ['drive letter']),
    ('c:evil.py', ['drive letter']),
    ('alice/\x1b]0;owned\x07.py', ['control character', r'\x1b']),
    ('alice//evil.py', ["empty or '.' part"]),
    ('./alice/evil.py', ["empty or '.' part"]),
    ('a/b/c/deep.py', ['lies more than 2 folders deep']),
    ('a/b/c/', ['lies more than 2 folders deep']),
])
def test_a_hostile_entry_name_is_refused(into, nothing_written, name, words):
    data = zipped(('player.py', PLAYER), (name, HELPER if not name.endswith('/') else b''))
    refused(into, data, 'alice.zip', *words, limits=SMALL)


def test_a_nul_in_an_entry_name_is_refused(into, nothing_written):
    data = written((b'player.py', PLAYER), (b'evil.py\0.txt', HELPER))
    refused(into, data, 'alice.zip', 'control character', r'evil.py\x00.txt')


def test_an_entry_with_no_name_is_refused(into, nothing_written):
    refused(into, written((b'player.py', PLAYER), (b'', HELPER)), 'alice.zip',
            "the zip entry '' has an empty or '.' part")


def test_a_zip_written_byte_by_byte_unpacks(into):
    path = unpack(written((b'player.py', PLAYER)), 'alice.zip', into)
    assert contents(path) == {'player.py': (FILE, PLAYER)}


@pytest.mark.parametrize('entries, words', [
    ([('player.py', PLAYER), ('player.py', HELPER)],
     ["two entries of the zip unpack to 'player.py'"]),
    ([('alice/player.py', PLAYER), ('alice/player.py', HELPER)], ["unpack to 'player.py'"]),
    ([('player.py', PLAYER), ('lib', b''), ('lib/x.py', b'')],
     ["'lib' is both a file and a folder"]),
    ([('player.py', PLAYER), ('lib/', b''), ('lib', b'')],
     ["two entries of the zip unpack to 'lib'"]),
])
def test_two_entries_unpacking_to_one_path_are_refused(into, nothing_written, entries, words):
    refused(into, zipped(*entries), 'alice.zip', *words)


@pytest.mark.parametrize('mode, words', [
    (stat.S_IFLNK | 0o777, ['symbolic link']),
    (stat.S_IFIFO | 0o644, ['special file']),
    (stat.S_IFCHR | 0o644, ['special file']),
    (stat.S_IFSOCK | 0o644, ['special file']),
    (stat.S_IFDIR | 0o755, ['special file']),  # a folder's mode on a file's name
])
def test_a_link_or_a_special_file_is_refused(into, nothing_written, mode, words):
    data = zipped(('player.py', PLAYER), (entry('helper.py', mode), b'/etc/passwd'))
    refused(into, data, 'alice.zip', "the zip entry 'helper.py'", *words)


def test_an_encrypted_entry_is_refused(into, nothing_written):
    data = patched(zipped(('player.py', PLAYER), ('secret.py', HELPER)), 'secret.py',
                   6, 8, '<H', 1)  # the flag bits: bit 0, encrypted
    refused(into, data, 'alice.zip', "'secret.py' is encrypted")


def test_an_entry_compressed_by_an_unknown_method_is_refused(into, nothing_written):
    data = patched(zipped(('player.py', PLAYER)), 'player.py', 8, 10, '<H', 99)
    refused(into, data, 'alice.zip', "'player.py' is compressed by method 99")


def test_an_entry_compressed_with_bzip2_is_refused(into, nothing_written):
    data = zipped(('player.py', PLAYER), method=zipfile.ZIP_BZIP2)
    refused(into, data, 'alice.zip', 'method 12', 'deflate')


@pytest.mark.parametrize('entries', [
    [], [('alice/', b'')], [('notes.txt', b'hi'), ('player.pyc', b'\0')],
    [('__MACOSX/player.py', PLAYER)],
])
def test_a_zip_with_no_python_file_is_refused(into, nothing_written, entries):
    refused(into, zipped(*entries), 'alice.zip', 'no Python file')


# Refused while unpacking: headers that lie, names the system refuses


def bomb(declared):
    """A zip of a player and a megabyte of zeros whose headers declare `declared` bytes."""
    data = zipped(('player.py', PLAYER), ('bomb.bin', b'\0' * 1_000_000))
    return patched(data, 'bomb.bin', 22, 24, '<I', declared)  # the uncompressed size


def test_a_zip_whose_headers_lie_about_an_entry_size_is_refused_and_removed(into):
    refused(into, bomb(100), 'alice.zip', 'headers lie', 'bomb.bin')


def test_a_lying_entry_whose_crc_fits_its_declared_size_gives_no_more_than_that(into):
    data = patched(bomb(100), 'bomb.bin', 14, 16, '<I', zlib.crc32(b'\0' * 100))
    path = unpack(data, 'alice.zip', into)
    assert contents(path) == {'player.py': (FILE, PLAYER), 'bomb.bin': (FILE, b'\0' * 100)}


def test_an_entry_giving_more_bytes_than_declared_is_refused_whatever_the_reader(
        into, monkeypatch):
    data, opened = bomb(100), zipfile.ZipFile.open

    def trusting(archive, info, *args, **kwargs):
        """A reader that gives every byte the entry holds, not stopping at its header's size."""
        if info.filename != 'bomb.bin':
            return opened(archive, info, *args, **kwargs)
        return io.BytesIO(b'\0' * 1_000_000)
    monkeypatch.setattr(zipfile.ZipFile, 'open', trusting)
    assert refused(into, data, 'alice.zip') == \
        "the zip entry 'bomb.bin' gives more bytes than its header declares (100)"


def test_a_damaged_entry_is_refused_and_removed(into):
    data = zipped(('player.py', PLAYER), ('helper.py', HELPER * 50))
    at = data.find(b'helper.py') + len('helper.py') + 5
    data = data[:at] + bytes(b ^ 0xFF for b in data[at:at + 20]) + data[at + 20:]
    refused(into, data, 'alice.zip', 'damaged')


def test_a_name_the_system_refuses_is_refused_and_what_was_unpacked_removed(into):
    data = zipped(('player.py', PLAYER), ('lib/' + 'x' * 300 + '.py', HELPER))
    refused(into, data, 'alice.zip', 'cannot unpack', 'File name too long')


def test_a_file_that_cannot_be_written_whole_is_removed(into, monkeypatch):
    class Full(io.FileIO):
        """A file on a full disk."""
        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(uploads, 'open', Full, raising=False)
    with pytest.raises(OSError, match='No space left'):
        unpack(PLAYER, 'alice.py', into)
    assert os.listdir(into) == []


@pytest.mark.parametrize('linked', [True, False])
def test_a_file_is_never_written_through_a_link_or_over_a_file(into, tmp_path, linked):
    outside = tmp_path / 'passwd'
    outside.write_bytes(b'root:x:0:0\n')
    if linked:
        os.symlink(outside, os.path.join(into, 'alice.py'))
    else:
        shutil.copy(outside, os.path.join(into, 'alice.py'))
    with pytest.raises(OSError):
        unpack(PLAYER, 'alice.py', into)
    assert outside.read_bytes() == b'root:x:0:0\n'
    assert open(os.path.join(into, 'alice.py'), 'rb').read() == b'root:x:0:0\n'


def test_compiled_python_is_left_out_so_that_no_code_runs_that_no_one_can_read(tmp_path):
    data = zipped(('alice/player.py', PLAYER), ('alice/helper.pyc', b'\x55\x0d\r\n hidden'),
                  ('alice/__pycache__/player.cpython-311.pyc', b'hidden'),
                  ('alice/lib/old.pyo', b'hidden'),
                  ('alice/hid.cpython-311-x86_64-linux-gnu.so', b'\x7fELF hidden'))
    made = unpack(data, 'alice.zip', str(tmp_path))
    assert sorted(os.listdir(made)) == ['player.py']
