#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/check-kunit-results on kunit.py --json fixtures: kunit-baseline.json
# is a real UML run (net_core: 12 cases, 9 of them parameterised under
# gso_test_func); kunit-fail.json and kunit-short.json are hand-edited
# copies (a FAIL, an ERROR and a SKIP; gso_by_frags removed).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
data=$top/tests/data
check=$top/tools/check-kunit-results
tool=$check
# shellcheck source=lib.sh
source "$top/tests/lib.sh"

for f in kunit-baseline.json kunit-fail.json kunit-short.json; do
	[ -s "$data/$f" ] || { echo "FAIL: missing fixture $data/$f"; exit 1; }
done

cat >"$tmp/expected" <<'EOF'
# suites and their leaf case counts

net_core 12   # gso_test_func (9 params) + ip_tunnel_flags_test_run (3)
EOF
printf 'net_core 12\nskb_pool 7\n' >"$tmp/expected-more"

# All good: 0, a table row for the suite, and the totals line.
if run good 0 --expected "$tmp/expected" "$data/kunit-baseline.json"; then
	has good "^net_core +12 +12 +12 +0 +0$"
	last good "12 passed, 0 failed"
fi

# A suite that did not run: 1, naming it.
if run missing 1 --expected "$tmp/expected-more" "$data/kunit-baseline.json"; then
	has missing "suite skb_pool: missing \(expected 7 cases"
	has missing "^skb_pool .*MISSING"
	last missing "12 passed, 0 failed"
fi

# Fewer cases than expected (a parameterised case gone): 1.
if run short 1 --expected "$tmp/expected" "$data/kunit-short.json"; then
	has short "suite net_core: expected 12 cases, got 11"
	last short "11 passed, 0 failed"
fi
# ... and more than expected.
printf 'net_core 10\n' >"$tmp/expected-10"
run more 1 --expected "$tmp/expected-10" "$data/kunit-baseline.json" &&
	has more "suite net_core: expected 10 cases, got 12"

# Failed and crashed cases: 1, each listed; skips are counted as run.
if run failed 1 --expected "$tmp/expected" "$data/kunit-fail.json"; then
	has failed "net_core\.ip_tunnel_flags_test_run\.conflict: FAIL"
	has failed "net_core\.ip_tunnel_flags_test_run\.new: ERROR"
	has failed "^net_core +12 +12 +9 +2 +1$"
	last failed "9 passed, 2 failed, 1 skipped"
	! grep -q "expected 12 cases" "$tmp/failed.out" ||
		fail "failed: a SKIP must count as a case run"
fi

# A suite that crashed before running any case: kunit.py lists it as a
# leaf of the top-level group.
python3 - "$data/kunit-baseline.json" "$tmp/crash.json" <<'EOF'
import json, sys
root = json.load(open(sys.argv[1]))
root["test_cases"].append({"name": "skb_pool", "status": "ERROR"})
json.dump(root, open(sys.argv[2], "w"), indent=4)
EOF
if run crash 1 --expected "$tmp/expected-more" "$tmp/crash.json"; then
	has crash "suite skb_pool: expected 7 cases, got 0"
	has crash "skb_pool \(no cases\): ERROR"
fi

# Unusable input: 2.
head -c 700 "$data/kunit-baseline.json" >"$tmp/truncated.json"
run bad-json 2 --expected "$tmp/expected" "$tmp/truncated.json" &&
	has bad-json "not valid JSON"
echo '[1, 2]' >"$tmp/list.json"
run not-kunit 2 --expected "$tmp/expected" "$tmp/list.json" || :
: >"$tmp/empty.json"
run empty-json 2 --expected "$tmp/expected" "$tmp/empty.json" || :
run no-json 2 --expected "$tmp/expected" "$tmp/no-such.json" || :
run no-expected 2 --expected "$tmp/no-such" "$data/kunit-baseline.json" || :
printf 'net_core twelve\n' >"$tmp/expected-bad"
run bad-expected 2 --expected "$tmp/expected-bad" "$data/kunit-baseline.json" &&
	has bad-expected "expected-bad:1:"
run no-option 2 "$data/kunit-baseline.json" || :
run help 0 --help && has help "usage"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all check-kunit-results checks passed"
