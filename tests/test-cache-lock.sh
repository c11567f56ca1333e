#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/common.sh's lock_cache: a second tool on the same cache says who
# holds the lock and waits until the first is done; one on another cache
# does not wait; a tool run by a locked tool inherits the lock; and the
# lock goes with the processes that held it, however they ended (a
# Ctrl-C kills the whole process group; children a killed tool left
# running would still hold it, as they still use the cache).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }
unset SKBPOOL_CACHE_LOCKED

# holder NAME SECONDS: a "tool" that takes the lock, says when it has it
# and when it lets go, after SECONDS
cat > "$tmp/holder" <<SH
#!/usr/bin/env bash
set -euo pipefail
# shellcheck source=../tools/common.sh
source "$here/../tools/common.sh"
lock_cache "\$@"
echo "\$1 locked \$(date +%s.%N)"
[ "\${3:-}" = nested ] && bash "$tmp/holder" inner 0
sleep "\$2"
echo "\$1 done \$(date +%s.%N)"
SH
chmod +x "$tmp/holder"
export SKBPOOL_CACHE=$tmp/cache

"$tmp/holder" first 2 > "$tmp/first.out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q locked "$tmp/first.out" && break; sleep 0.1; done
"$tmp/holder" second 0 > "$tmp/second.out" 2>&1
wait "$pid"
t_done=$(awk '$2 == "done" { print $3 }' "$tmp/first.out")
t_lock=$(awk '$2 == "locked" { print $3 }' "$tmp/second.out")
if grep -Eq "holder: the cache $tmp/cache is in use by pid $pid \(holder first 2, in .*\) since .*: waiting for it" "$tmp/second.out" &&
   awk -v a="$t_done" -v b="$t_lock" 'BEGIN { exit !(b >= a) }'; then
	ok "a second run on the cache names the holder and waits for it"
else
	fail "second run: $(cat "$tmp/second.out"); first: $(cat "$tmp/first.out")"
fi

"$tmp/holder" first 2 > "$tmp/first.out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q locked "$tmp/first.out" && break; sleep 0.1; done
SKBPOOL_CACHE=$tmp/other "$tmp/holder" other 0 > "$tmp/other.out" 2>&1
if grep -q "other done" "$tmp/other.out" && ! grep -q waiting "$tmp/other.out" &&
   kill -0 "$pid" 2>/dev/null; then
	ok "a run on another cache does not wait"
else
	fail "other cache: $(cat "$tmp/other.out")"
fi
wait "$pid"

if timeout 10 "$tmp/holder" outer 0 nested > "$tmp/nested.out" 2>&1 &&
   grep -q "inner done" "$tmp/nested.out" && ! grep -q waiting "$tmp/nested.out"; then
	ok "a tool run by a locked tool inherits the lock"
else
	fail "nested: $(cat "$tmp/nested.out")"
fi

setsid "$tmp/holder" killed 30 > "$tmp/killed.out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q locked "$tmp/killed.out" && break; sleep 0.1; done
kill -9 -- -"$pid"
wait "$pid" 2>/dev/null || true
if timeout 10 "$tmp/holder" after 0 > "$tmp/after.out" 2>&1 &&
   ! grep -q waiting "$tmp/after.out"; then
	ok "the lock of a killed run is gone with it"
else
	fail "after kill: $(cat "$tmp/after.out")"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
