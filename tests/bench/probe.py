# SPDX-License-Identifier: GPL-2.0
"""The way peers get ioctl numbers (strace's ioctlsort, the kernel's own
header tests): compile a probe over the real UAPI headers.  Reads the model
for the list of headers and commands, writes one C file per ABI that
includes every header and fills a table with every command's number, and
times (median of RUNS):

  compile   the probe of every ABI whose compiler is installed (cc -S)
  x86_64    compile, link and run the native probe, which prints its numbers
            (checked equal to the model's) and decodes the same query mix as
            `bench lookup` with bsearch() over its sorted table, as strace does.

Only what exists in one kernel version is probed, with that version's
numbers: BUILD_DIR/uapi is the export of the Makefile's KVER tree, the
oldest version the model knows (a header new in a later version, such as
6.12's drm/habanalabs_accel.h, is not in it).  PROBE_ABIS="x86_64 ..."
compiles those ABIs only (the bench's quick mode).

usage: probe.py MODEL BUILD_DIR RUNS [VERSION]   prints "key value" lines"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import time

from ioctltools import model_reader  # noqa: E402
from ioctltools.cc import Prelude, define_line, stub_dir, stub_flags, typedef_line  # noqa: E402

model_path, build, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
model = model_reader.load(model_path)
versions = [v["name"] for v in model.get("versions") or []]
version = sys.argv[4] if len(sys.argv) > 4 else (versions[0] if versions else None)
only = os.environ.get("PROBE_ABIS", "").split()
work = os.path.join(build, "bench", "probe")


def number_in(c, abi):
    """The command's number on abi in the probed version, or None."""
    if version and c.get("versions") and version not in c["versions"]:
        return None
    by = (c.get("numbers-by-version") or {}).get(version) if version else None
    n = (by if by is not None else c["numbers"]).get(abi)
    return n["number"] if n else None
os.makedirs(work, exist_ok=True)

MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
struct ent { const char *name; unsigned int nr; };
extern const struct ent probe_tab[];
extern const unsigned int probe_n;
static struct ent *tab;
static int cmp(const void *a, const void *b)
{
	unsigned int x = ((const struct ent *)a)->nr, y = ((const struct ent *)b)->nr;
	return x < y ? -1 : x > y;
}
static int key(const void *k, const void *e)
{
	unsigned int x = *(const unsigned int *)k, y = ((const struct ent *)e)->nr;
	return x < y ? -1 : x > y;
}
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);	/* as bench.c: CPU time */
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	unsigned int n = probe_n, *q = malloc(2 * n * sizeof(*q)), nq = 0;
	unsigned long hits = 0, done = 0;
	double t0, t;
	for (unsigned int i = 0; i < n; i++)
		printf("%s %u\n", probe_tab[i].name, probe_tab[i].nr);
	if (argc < 2)
		return 0;
	tab = malloc(n * sizeof(*tab));
	memcpy(tab, probe_tab, n * sizeof(*tab));
	qsort(tab, n, sizeof(*tab), cmp);
	for (unsigned int i = 0; i < n; i++) {
		q[nq++] = probe_tab[i].nr;
		q[nq++] = probe_tab[i].nr ^ 0x80;
	}
	srand(1);
	for (unsigned int i = nq; i > 1; i--) {
		unsigned int j = (unsigned int)rand() % i, x = q[i - 1];
		q[i - 1] = q[j];
		q[j] = x;
	}
	t0 = now();
	do {
		for (unsigned int i = 0; i < nq; i++)
			hits += bsearch(&q[i], tab, n, sizeof(*tab), key) != NULL;
		done += nq;
		t = now();
	} while (t - t0 < 0.2);
	fprintf(stderr, "lookups_per_s %.0f %lu\n", done / (t - t0), hits);
	return 0;
}
"""


def probe_source(abi_rec):
    abi = abi_rec["name"]
    # as the registry's own probes: feature macros first, each header's
    # typedefs before it (xen's domid_t), its stub-includes searched last
    top = ["#include <linux/ioctl.h>", "#include <stddef.h>"]
    inc = []
    rows = []
    for h in model["headers"]:
        # not exported: no userspace probe includes a kernel-internal header;
        # what the series adds is in no exported tree
        if not h.get("header-test", True) or h.get("kernel-internal") or h.get("new"):
            continue
        m = re.search(r"/headers/arch/([^/]+)/", h["spec"])
        if m and m[1] != abi_rec["arch"]:
            continue    # arch/<arch>/include/uapi: only that ARCH has it
        if not any(number_in(c, abi) is not None for c in h["commands"]):
            continue    # not in this version's tree, or nothing to probe
        pre = Prelude.of(h)
        top = [define_line(d) for d in pre.defines] + top
        for i in h.get("includes") or []:
            inc.append(f"#include <{i}>")
        inc += [typedef_line(n, t) for n, t in pre.typedefs]
        inc.append(f"#include <{h['path']}>")
        # its kernel-internal types (compat structs), as one block: the
        # lines below are made unique, and a struct's "};" must stay
        if pre.internal:
            inc.append("\n".join(pre.internal_lines()))
        for c in h["commands"]:
            if c["reserved"] or c.get("new") or number_in(c, abi) is None:
                continue
            call = c["name"] + (f"({', '.join('0' for _ in c['params'])})" if c["params"] else "")
            rows.append(f'\t{{ "{c["name"]}", (unsigned int)({call}) }},')
    seen = set()
    inc = [x for x in top + inc if not (x in seen or seen.add(x))]
    return "\n".join(inc + ["struct ent { const char *name; unsigned int nr; };",
                            "const struct ent probe_tab[] = {"] + rows +
                     ["};", "const unsigned int probe_n = sizeof(probe_tab) / sizeof(probe_tab[0]);", ""])


STUBS = stub_flags(stub_dir(work, [p for h in model["headers"] for p in h.get("stub-includes") or []]))


def cc(abi):
    inc = os.path.abspath(os.path.join(build, "uapi", abi["arch"], "include"))
    return [abi["cc"], *abi["cflags"], "-O2", "-I", inc, *STUBS]


def median_time(fn):
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


compiled, skipped = [], []
for abi in model["abis"]:
    if only and abi["name"] not in only:
        continue
    src = os.path.join(work, f"probe-{abi['name']}.c")
    with open(src, "w") as f:
        f.write(probe_source(abi))
    if not shutil.which(abi["cc"]) or not os.path.isdir(os.path.join(build, "uapi", abi["arch"], "include")):
        skipped.append(abi["name"])
        continue
    r = subprocess.run(cc(abi) + ["-S", "-o", src[:-2] + ".s", src], capture_output=True, text=True)
    (compiled if r.returncode == 0 else skipped).append(abi["name"])
    if r.returncode:
        print(f"# {abi['name']}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else 'failed'}")


def compile_all():
    for abi in model["abis"]:
        if abi["name"] in compiled:
            src = os.path.join(work, f"probe-{abi['name']}.c")
            subprocess.run(cc(abi) + ["-S", "-o", src[:-2] + ".s", src], check=True)


native = next(a for a in model["abis"] if a["name"] == "x86_64")
main_c = os.path.join(work, "main.c")
with open(main_c, "w") as f:
    f.write(MAIN)
exe = os.path.join(work, "probe-x86_64")
out = {}


def native_run():
    subprocess.run(cc(native) + ["-o", exe, main_c, os.path.join(work, "probe-x86_64.c")], check=True)
    r = subprocess.run([exe], capture_output=True, text=True, check=True)
    out["numbers"] = r.stdout


print(f"probe_abis_compiled {len(compiled)}")
print(f"probe_abis_skipped {' '.join(skipped) or '-'}")
print(f"probe_compile_all_ms {median_time(compile_all):.1f}")
print(f"probe_x86_64_ms {median_time(native_run):.1f}")
want = {c["name"]: number_in(c, "x86_64") for h in model["headers"] for c in h["commands"]
        if number_in(c, "x86_64") is not None and not h.get("kernel-internal")}
got = dict(line.split() for line in out["numbers"].splitlines())
bad = [n for n, v in got.items() if int(v) != want.get(n)]
print(f"probe_x86_64_numbers {len(got)}")
print(f"probe_x86_64_disagree {len(bad)}")
rates = []
for _ in range(runs):
    r = subprocess.run([exe, "decode"], capture_output=True, text=True, check=True)
    rates.append(float(r.stderr.split()[1]))
print(f"probe_lookups_per_s {statistics.median(rates):.0f}")
