#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/tables: every generated table of README.md and docs/*.md agrees
# with the JSON in results/ it is made from (tools/tables --check on the
# checkout). Then, on a scratch copy of the pages and results: a figure
# edited by hand in a table, and one changed in a JSON, each fail the
# check, naming the table; tools/tables writes them back; a marker
# without its end, an unknown table and a missing results file are
# errors (exit 2). And make help: real paths, the flow's order. No kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tool=$top/tools/tables
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

if run checkout 0 --check; then
	has checkout '^tables: [0-9]+ table\(s\) agree with '
	ok "the checkout: $(grep -o '[0-9]* table(s)' "$tmp/checkout.out") agree with results/"
fi
# every results file has its tables on a page
for name in bench-readme bench-latest bench-xcpu bench-v2 kunit-matrix \
	kunit-uml-verdict coverage-readme coverage-doc; do
	grep -q -- "<!-- generated: $name -->" "$top/README.md" "$top"/docs/*.md ||
		fail "no page has table $name"
done

# a scratch copy
co=$tmp/co
mkdir -p "$co"
cp -r "$top/README.md" "$top/docs" "$top/results" "$co/"
pages=("$co/README.md" "$co"/docs/*.md)
check() { run "$1" "$2" --check --results "$co/results" "${pages[@]}"; }

# a hand edit of a figure in README's bench table
sed -i 's/^| tun-write-64 | 2215\.5 |/| tun-write-64 | 2115.5 |/' "$co/README.md"
grep -q '^| tun-write-64 | 2115\.5 |' "$co/README.md" || fail "the scratch edit did not apply"
if check hand-edit 1; then
	has hand-edit '^-\| tun-write-64 \| 2115\.5 \|'
	has hand-edit '^\+\| tun-write-64 \| 2215\.5 \|'
	has hand-edit 'README\.md \(bench-readme, from bench\.json\)'
	has hand-edit '1 of [0-9]+ table\(s\) differ from their JSON'
	ok "a figure edited by hand in README's bench table: the check fails, naming it"
fi
run rewrite 0 --results "$co/results" "${pages[@]}" &&
	has rewrite 'README\.md: 1 table\(s\) rewritten' &&
	check rewritten 0 && ok "tools/tables writes the table back from the JSON"

# a figure changed in the JSON: every table showing it is stale
python3 - "$co/results/kunit.json" <<'PY'
import json
import sys
d = json.load(open(sys.argv[1]))
d["cells"]["rt"]["splats"] = "1"
json.dump(d, open(sys.argv[1], "w"))
PY
if check json-edit 1; then
	has json-edit '^\+\| rt \| .* \| 1 \| `make kunit-rt` \|$'
	ok "a figure changed in results/kunit.json: the README's matrix is stale"
fi

# an inline figure (a sentence of docs/coverage.md)
sed -i -E 's/new and changed functions ([0-9]+)\//new and changed functions 9\1\//' "$co/docs/coverage.md"
if check inline 1; then
	has inline 'coverage\.md \(coverage-doc, as on the page\)'
	ok "an inline figure edited by hand: the check fails"
fi

# errors: a marker without its end, an unknown table, no results file
printf 'x\n<!-- generated: bench-readme -->\n| a |\n' > "$tmp/open.md"
run open 2 --check --results "$co/results" "$tmp/open.md" &&
	has open "has no '<!-- end: bench-readme -->' after it" &&
	ok "a marker without its end: exit 2"
printf '<!-- generated: nothing -->\n<!-- end: nothing -->\n' > "$tmp/unknown.md"
run unknown 2 --check --results "$co/results" "$tmp/unknown.md" &&
	has unknown "unknown table 'nothing'" && ok "an unknown table: exit 2"
run no-results 2 --check --results "$tmp/none" "${pages[@]}" &&
	has no-results 'cannot read .*/none/.*\.json' && ok "no results file: exit 2"
# the row as results/bench.json has it (the figures change with each run)
row=$(jq -r '.workloads[] | select(.name == "tun-write-64") |
	"^  tun-write-64 +insns/packet +\(.base) +\(.peer) +\(.patched) +" +
	"[0-9]\\.[0-9]{3} +[0-9]\\.[0-9]{3} +"' \
	"$co/results/bench.json" | sed 's/\([0-9]\)\.\([0-9]\)/\1\\.\2/g')
run print 0 --results "$co/results" --print bench-mail &&
	has print "$row" &&
	ok "--print bench-mail: the plain-text table of the cover letters"
run help 0 --help && has help '^Usage: tools/tables' && ok "--help"
run bad 2 --bogus && has bad "^tables: error: unknown argument '--bogus'" && ok "an unknown option: exit 2"
run no-value 2 --results && ok "--results without a value: exit 2"

# make help: this checkout's paths, the targets in the order of the flow
make -s -C "$top" help CACHE=/x/cache > "$tmp/help.out" 2>&1 || fail "make help failed"
has help '/x/cache/tree'
has help "$top/out/kunit-uml"
has help "$top/results/bench.json"
hasnt help '\$\(CACHE\)|[ (]out/'
targets=$(sed -n 's/^\([a-z0-9_-]*\): .*/\1/p' "$tmp/help.out" | paste -sd' ' -)
want='all test test-all deps tree export check check-modules test-tools kunit-uml kunit-rt kunit-rt-build kunit-x86_64 selftest-tun noise-check modprobe-check check-objdump coverage bench bench-rt tables mbox fresh-check clean help'
[ "$targets" = "$want" ] && ok "make help: real paths, the targets in the order of the flow" ||
	fail "make help lists: $targets"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "tables"
