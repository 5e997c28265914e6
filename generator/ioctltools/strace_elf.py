# SPDX-License-Identifier: GPL-2.0
"""strace's ioctl tables as its binary holds them.

strace compiles one sorted array of `struct_ioctlent { const char *symbol;
unsigned int code; }` per personality (ioctlent0 the native one, ioctlent1
the 32-bit one, ioctlent2 x32 on x86_64).  Debian's binary is a stripped
x86_64 PIE: each `symbol` is a zero in the file plus an R_X86_64_RELATIVE
relocation whose addend is the string's address.  A table is a run of
16-byte entries whose pointer is such a relocation to an identifier in
.rodata and whose code never decreases; strace's are the only runs of more
than a few hundred.  Which personality a table is shows in a number that
differs between them (BLKGETSIZE64: a u64 size on a long-sized layout);
i386's and x32's differ only where alignment does, so personalities() takes
the caller's count of the numbers each shares with an ABI.

Reading the binary gives the candidates; the live check (tests/consumers)
runs strace itself on every one, so a misread table shows as a failure."""

import struct

from . import Error

R_X86_64_RELATIVE = 8
MIN_TABLE = 500
# BLKGETSIZE64 = _IOR(0x12, 114, size_t): size_t's size tells the personalities apart.
PERSONALITY = {0x80081272: "x86_64", 0x80041272: None}


class Elf:
    def __init__(self, path):
        try:
            with open(path, "rb") as f:
                self.data = f.read()
        except OSError as e:
            raise Error(f"{path}: error: {e.strerror}") from None
        d = self.data
        if d[:5] != b"\x7fELF\x02" or d[5] != 1 or struct.unpack_from("<H", d, 18)[0] != 62:
            raise Error(f"{path}: error: not a little-endian x86_64 ELF file")
        shoff, = struct.unpack_from("<Q", d, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
        secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
                for i in range(shnum)]
        strtab = secs[shstrndx][4]
        self.sections = {}
        for s in secs:
            name = d[strtab + s[0]:d.index(b"\0", strtab + s[0])].decode()
            # (address, file offset, size, type)
            self.sections[name] = (s[3], s[4], s[5], s[1])
        for need in (".rela.dyn", ".rodata", ".data.rel.ro"):
            if need not in self.sections:
                raise Error(f"{path}: error: no {need} section")

    def relative_relocs(self):
        _, off, size, _ = self.sections[".rela.dyn"]
        out = {}
        for r_off, info, addend in struct.iter_unpack("<QQq", self.data[off:off + size]):
            if info & 0xffffffff == R_X86_64_RELATIVE:
                out[r_off] = addend
        return out

    def rodata_string(self, addr):
        base, off, size, _ = self.sections[".rodata"]
        if not base <= addr < base + size:
            return None
        o = addr - base + off
        end = self.data.find(b"\0", o, off + size)
        return self.data[o:end] if end > o else None


def _identifier(s):
    return s is not None and (s[:1].isalpha() or s[:1] == b"_") and \
        all(c == 0x5f or 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5a or 0x61 <= c <= 0x7a for c in s)


def ioctl_tables(path):
    """Every ioctl table of strace's binary at path: a list of
    [(name, code)] in the binary's order."""
    elf = Elf(path)
    rel = elf.relative_relocs()
    base, off, size, _ = elf.sections[".data.rel.ro"]
    tables, run = [], []
    addr = base
    while addr + 16 <= base + size:
        name = elf.rodata_string(rel[addr]) if addr in rel else None
        code, pad = struct.unpack_from("<II", elf.data, addr - base + off + 8)
        if _identifier(name) and pad == 0:
            if run and code < run[-1][1]:   # a new table starts right after
                if len(run) >= MIN_TABLE:
                    tables.append(run)
                run = []
            run.append((name.decode(), code))
            addr += 16
            continue
        if len(run) >= MIN_TABLE:
            tables.append(run)
        run = []
        addr += 8
    if len(run) >= MIN_TABLE:
        tables.append(run)
    return tables


def personalities(path, agree):
    """{ABI: [(name, code)]}: the x86_64 table (by BLKGETSIZE64), and the two
    32-bit ones, i386 and x32, which BLKGETSIZE64 cannot tell apart: each is
    the ABI whose numbers it shares most, agree(abi, table) counting them."""
    tables = ioctl_tables(path)
    out = {"x86_64": native_table(path, tables)}
    rest = [t for t in tables if t is not out["x86_64"]]
    if len(rest) == 2:
        a, b = rest
        if agree("i386", a) + agree("x32", b) < agree("i386", b) + agree("x32", a):
            a, b = b, a
        out.update(i386=a, x32=b)
    return out


def native_table(path, tables=None):
    """The x86_64 personality's table: [(name, code)]."""
    found = []
    for t in ioctl_tables(path) if tables is None else tables:
        codes = {c for n, c in t if n == "BLKGETSIZE64"}
        if any(PERSONALITY.get(c) == "x86_64" for c in codes):
            found.append(t)
    if len(found) != 1:
        raise Error(f"{path}: error: {len(found)} ioctl tables with the x86_64 BLKGETSIZE64 "
                    f"(0x80081272), expected one")
    return found[0]
