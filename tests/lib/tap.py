# SPDX-License-Identifier: GPL-2.0
"""TAP helpers for the Python suites (see docs/dev/contracts.md, Tests).

    import tap          # tests/run puts tests/lib on PYTHONPATH

    tap.check(cond, "text", details)  # ok/not ok N - text; returns cond
    tap.ok("text"); tap.not_ok("text", details)   # (tap.fail is not_ok)
    tap.skip("text", "reason")        # ok N - text # SKIP reason
    tap.diag("line", ...)             # "# line"
    tap.done()                        # the plan "1..N"; exits 1 if anything failed

details is a string (one "# " line per line) or an iterable of strings; they
are printed only when the test fails.  A suite that wants its own counter
makes a Tap() and calls the same methods on it; Tap(numbered=False) prints
"ok - text", for a caller that numbers the lines (tap.sh's tap_lines).
"""

import sys


class Tap:
    def __init__(self, out=None, numbered=True):
        self.out = out or sys.stdout
        self.numbered = numbered
        self.n = 0
        self.failed = 0
        self.skipped = 0

    def _line(self, text):
        print(text, file=self.out, flush=True)

    def diag(self, *lines):
        for line in lines:
            for part in str(line).splitlines() or [""]:
                self._line(f"# {part}".rstrip())

    def check(self, cond, text, details=()):
        self.n += 1
        num = f" {self.n}" if self.numbered else ""
        self._line(f"{'ok' if cond else 'not ok'}{num} - {text}")
        if not cond:
            self.failed += 1
            if isinstance(details, (str, bytes)):
                details = [details.decode(errors="replace") if isinstance(details, bytes) else details]
            self.diag(*details)
        return bool(cond)

    def ok(self, text):
        return self.check(True, text)

    def not_ok(self, text, details=()):
        return self.check(False, text, details)

    fail = not_ok

    def skip(self, text, reason):
        self.n += 1
        self.skipped += 1
        self._line(f"ok{f' {self.n}' if self.numbered else ''} - {text} # SKIP {reason}")

    def done(self):
        """Print the plan and exit: 1 if a test failed or none ran, else 0."""
        self._line(f"1..{self.n}")
        if self.n == 0:
            self.diag("no test ran")
        sys.exit(1 if self.failed or self.n == 0 else 0)


_default = Tap()
check = _default.check
ok = _default.ok
not_ok = _default.not_ok
fail = _default.not_ok
skip = _default.skip
diag = _default.diag
done = _default.done


def failed():
    """How many tests of the default counter failed so far."""
    return _default.failed
