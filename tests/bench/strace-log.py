# SPDX-License-Identifier: GPL-2.0
"""A strace-like log for the annotate figure of tests/bench/run.

usage: strace-log.py MODEL LINES > LOG

Half the lines are other system calls (read, openat, mmap, close), half
ioctl calls on x86_64's numbers (a tenth of them misses): a third named as
strace names what it knows, a third in its _IOC(dir, type, nr, size)
spelling, a third raw hex (strace -X raw); a quarter of all with the
"[pid N] " of strace -f.  Fixed seed: the same log every run."""
import random
import sys

from ioctltools import model_reader

model = model_reader.load(sys.argv[1], "model")
lines = int(sys.argv[2])
rng = random.Random(34)
cmds = [(c["name"], c["numbers"]["x86_64"]["number"]) for _, c in model_reader.commands(model)
        if (c["numbers"] or {}).get("x86_64")]
DIRS = ["_IOC_NONE", "_IOC_WRITE", "_IOC_READ", "_IOC_READ|_IOC_WRITE"]
OTHER = [
    'read(3, "\\177ELF\\2\\1\\1\\0\\0\\0\\0\\0\\0\\0\\0\\0\\3\\0>\\0\\1\\0\\0\\0"..., 832) = 832',
    'openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3',
    "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f3c8a1e2000",
    "close(3)                                = 0",
]


def ioctl_line():
    name, number = rng.choice(cmds)
    if rng.random() < 0.1:
        number ^= 0x80
        name = None
    form = rng.randrange(3)
    if form == 0 and name:
        arg = name
    elif form == 1:
        arg = (f"_IOC({DIRS[number >> 30]}, {hex(number >> 8 & 0xff)}, {hex(number & 0xff)}, "
               f"{hex(number >> 16 & 0x3fff) if number >> 16 & 0x3fff else 0})")
    else:
        arg = hex(number)
    return f"ioctl({rng.randrange(3, 40)}, {arg}, 0x7ffc{rng.randrange(1 << 24):06x}) = -1 ENOTTY (Inappropriate ioctl for device)"


out = []
for _ in range(lines):
    text = ioctl_line() if rng.random() < 0.5 else rng.choice(OTHER)
    if rng.random() < 0.25:
        text = f"[pid {rng.randrange(1000, 99999):5d}] {text}"
    out.append(text)
sys.stdout.write("\n".join(out) + "\n")
