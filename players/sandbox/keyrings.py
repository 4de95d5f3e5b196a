"""Keeping jails off the kernel's keyrings. Linux keeps keys for a user id and a
login session outside every namespace: a jail could read the keys of the session
that started the tournament (an ssh login's, say), and a jail's user id, reused
by a later jail, would hand that jail what the first one stored. So every jail
leaves the session's keyring for a new empty one of its own (so /proc/keys lists
none of the session's keys either), then runs under a seccomp filter that fails
the three key system calls (add_key, request_key, keyctl) with ENOSYS, as if the
kernel had no keys, as Docker's default profile does. The filter is a few
instructions of classic BPF, made here; it imports only the standard library, for
the jail server uses it."""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct

KEY_CALLS: dict[str, dict[int, tuple[int, ...]]] = {
    'x86_64': {0xC000003E: (248, 249, 250),  # x86_64 (and x32, its bit 30 masked off)
               0x40000003: (286, 287, 288)},  # i386 programs on x86_64
    'aarch64': {0xC00000B7: (217, 218, 219),  # aarch64
                0x40000028: (309, 310, 311)},  # 32-bit ARM programs on aarch64
}
"""For each machine this filter knows, the numbers of add_key, request_key and keyctl
in each calling convention a program may use there (by its AUDIT_ARCH value), the
machine's own first."""
_X32_BIT = 0x40000000
_LD_W_ABS, _AND_K, _JEQ_K, _RET_K = 0x20, 0x54, 0x15, 0x06
_ARCH_OFFSET, _NR_OFFSET = 4, 0  # in struct seccomp_data
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_KEYCTL_JOIN_SESSION_KEYRING = 1
_MACHINE = platform.machine()
_LIBC = ctypes.CDLL(None, use_errno=True)


class _Program(ctypes.Structure):
    _fields_ = [('length', ctypes.c_ushort), ('filter', ctypes.c_void_p)]


def filter_code(machine: str) -> bytes:
    """Return the BPF program, as the kernel reads it, that fails the key system
    calls of machine (a key of KEY_CALLS) with ENOSYS and lets every other call be."""
    instructions: list[tuple[int, int, int, int]] = []
    for arch, numbers in KEY_CALLS[machine].items():
        block = [(_LD_W_ABS, 0, 0, _NR_OFFSET), (_AND_K, 0, 0, 0xFFFFFFFF & ~_X32_BIT)]
        block += [(_JEQ_K, len(numbers) - index, 0, number)
                  for index, number in enumerate(numbers)]
        block += [(_RET_K, 0, 0, _RET_ALLOW), (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS)]
        instructions += [(_LD_W_ABS, 0, 0, _ARCH_OFFSET), (_JEQ_K, 0, len(block), arch)] + block
    instructions.append((_RET_K, 0, 0, _RET_ALLOW))  # a convention the machine does not run
    return b''.join(struct.pack('=HBBI', *instruction) for instruction in instructions)


def supported() -> bool:
    """Does this machine have a filter here (see KEY_CALLS)?"""
    return _MACHINE in KEY_CALLS


def shut_off_keys() -> None:
    """Leave the session's keyring for a new empty one, and fail the key system calls
    of this process and all it starts from now on (the caller has set
    no_new_privs, or is root). On a machine KEY_CALLS does not know, do nothing
    (docs/fair-play.md says so)."""
    if not supported():
        return
    keyctl = next(iter(KEY_CALLS[_MACHINE].values()))[2]  # in the machine's own convention
    _LIBC.syscall(keyctl, _KEYCTL_JOIN_SESSION_KEYRING, None)  # fails only where keys do
    code = filter_code(_MACHINE)
    buffer = ctypes.create_string_buffer(code, len(code))
    program = _Program(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if _LIBC.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f'seccomp: {os.strerror(number)}')
