#!/usr/bin/python3
"""Pick the inputs of a fuzz corpus to keep under a byte budget.

Usage: trim-pick.py BUDGET SEEDS_CONTROL INPUT_CONTROL...

Each CONTROL is a libFuzzer -merge_control_file: SEEDS_CONTROL of a merge
of the seeds (what every run starts from anyway; "-" for none), each INPUT_CONTROL of a
merge of one corpus input alone, so that its COV line holds every edge that
input reaches.  Greedily takes the input with the most edges the seeds and
the inputs taken so far miss, per byte, while the budget lasts; prints the
paths taken, and the edge counts on standard error.
"""
import os
import sys


def coverage(control):
    """{input path: set of edges} of one control file (COV lines)."""
    lines = open(control).read().split("\n")
    n = int(lines[0])
    files = lines[2:2 + n]
    out = {}
    for line in lines[2 + n:]:
        if line.startswith("COV "):
            words = line.split()
            out[files[int(words[1])]] = set(map(int, words[2:]))
    return out


def main():
    budget, seeds_control, controls = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    covered = set()
    if seeds_control != "-":  # "-": no seeds
        covered = covered.union(*coverage(seeds_control).values())
    seeds = len(covered)
    candidates = {}
    for control in controls:
        for path, edges in coverage(control).items():
            candidates[path] = (edges, os.path.getsize(path))
    reachable = covered.union(*(e for e, _ in candidates.values()))
    used = 0
    taken = []
    while True:
        best, best_rate = None, 0.0
        for path, (edges, size) in candidates.items():
            new = len(edges - covered)
            if new and used + size <= budget and new / max(size, 1) > best_rate:
                best, best_rate = path, new / max(size, 1)
        if best is None:
            break
        edges, size = candidates.pop(best)
        covered |= edges
        used += size
        taken.append(best)
    print(f"edges: seeds {seeds}, seeds and every input {len(reachable)}, "
          f"seeds and the {len(taken)} inputs kept ({used} bytes) {len(covered)}", file=sys.stderr)
    for path in sorted(taken):
        print(path)


if __name__ == "__main__":
    main()
