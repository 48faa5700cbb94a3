#!/usr/bin/env python3
"""Checks that a file is a thin 64-bit Mach-O executable of one architecture and lists the
dynamic libraries it links (LC_LOAD_DYLIB), which must all be in /usr/lib: frameworks and
libobjc are opened at run time, never linked.

    tools/macho_arch.py FILE ARCH          ARCH: arm64 or x86_64

The header layout is <mach-o/loader.h>'s (mach_header_64, load_command, dylib_command); the
real headers in tests/fixtures/macho/ read the same way.
"""
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
MH_EXECUTE = 0x2
CPU_TYPES = {"arm64": 0x0100000C, "x86_64": 0x01000007}
LC_LOAD_DYLIB = 0xC
LC_LOAD_WEAK_DYLIB = 0x80000018


def read_macho(data):
    if len(data) < 32:
        raise ValueError("shorter than a Mach-O header")
    magic, cputype, _sub, filetype, ncmds, _size, _flags, _res = struct.unpack_from("<8I", data)
    if magic != MH_MAGIC_64:
        raise ValueError(f"magic 0x{magic:08x} is not MH_MAGIC_64 (a thin 64-bit Mach-O)")
    dylibs = []
    off = 32
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<2I", data, off)
        if cmdsize < 8 or off + cmdsize > len(data):
            raise ValueError(f"load command at byte {off} runs past the file")
        if cmd in (LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB):
            (name_off,) = struct.unpack_from("<I", data, off + 8)
            name = data[off + name_off : off + cmdsize].split(b"\0", 1)[0].decode()
            dylibs.append(name)
        off += cmdsize
    return cputype, filetype, dylibs


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in CPU_TYPES:
        print(__doc__, file=sys.stderr)
        return 2
    path, arch = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        data = f.read()
    try:
        cputype, filetype, dylibs = read_macho(data)
    except (ValueError, struct.error) as e:
        print(f"macho_arch: {path}: {e}", file=sys.stderr)
        return 1
    names = {v: k for k, v in CPU_TYPES.items()}
    problems = []
    if cputype != CPU_TYPES[arch]:
        problems.append(f"CPU type 0x{cputype:08x} ({names.get(cputype, 'unknown')}), not {arch}")
    if filetype != MH_EXECUTE:
        problems.append(f"file type {filetype}, not MH_EXECUTE")
    outside = [d for d in dylibs if not d.startswith("/usr/lib/")]
    if outside:
        problems.append("links libraries outside /usr/lib: " + ", ".join(outside))
    if problems:
        print(f"macho_arch: {path}: " + "; ".join(problems), file=sys.stderr)
        return 1
    print(f"{path}: Mach-O 64-bit executable {arch}, {len(data)} bytes, links "
          + ", ".join(dylibs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
