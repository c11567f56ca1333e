#!/usr/bin/env bash
# tools/pylib/skbpool_tools.py, the module the Python tools share: its
# unit tests, and each tool that imports it run from another directory
# (the import path is the tool's own, not the caller's): --help exits 0,
# an option without its value is a usage error (exit 2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
tool=/bin/false
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

if (cd "$tools/pylib" && python3 -m unittest -q test_skbpool_tools) > "$tmp/unit.out" 2>&1; then
	ok "skbpool_tools: $(grep -o 'Ran [0-9]* tests' "$tmp/unit.out")"
else
	fail "skbpool_tools unit tests:"; sed 's/^/  | /' "$tmp/unit.out"
fi

cd /
for t in check-kunit-results matrix-table scan-splats; do
	tool=$tools/$t
	run "$t-help" 0 --help && ok "$t --help from /"
done
tool=$tools/matrix-table
if run matrix-out 2 --out; then
	has matrix-out "^matrix-table: error: --out needs a directory$"
	has matrix-out "^Usage: "
	ok "matrix-table --out without a value: a usage error, with the usage"
fi
if run matrix-bad 2 --bogus; then
	has matrix-bad "unknown argument '--bogus'"
	ok "matrix-table: an unknown argument is a usage error"
fi
tool=$tools/check-kunit-results
if run ckr-missing 2 --expected /nonexistent /nonexistent; then
	has ckr-missing "^check-kunit-results: error: cannot read expected file /nonexistent"
	ok "check-kunit-results: a missing file is a usage error, from skbpool_tools.die_usage"
fi

[ "$fails" = 0 ]
