#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/common.sh's heartbeat: while a build runs, a line an interval
# with the elapsed time and the objects built since it started; none
# after heartbeat_stop; and none once the tool that started it is gone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }
export SKBPOOL_CACHE=$tmp/cache SKBPOOL_HEARTBEAT=1

cat > "$tmp/builder" <<SH
#!/usr/bin/env bash
set -euo pipefail
# shellcheck source=../tools/common.sh
source "$here/../tools/common.sh"
mkdir -p "$tmp/build/sub"
touch "$tmp/build/old.o"
sleep 1.1
heartbeat_start "$tmp/build" "1/2 foo.patch: building"
for i in 1 2 3; do touch "$tmp/build/sub/\$i.o"; sleep 1; done
# a beat after the last object, however late the beats run on a busy machine
sleep 1.5
stamp=\$heartbeat_stamp
heartbeat_stop
[ ! -e "\$stamp" ] || echo "stamp left: \$stamp"
echo stopped
sleep 2.5
[ "\${1:-}" = die ] && { heartbeat_start "$tmp/build" again; exit 0; }
echo end
SH
chmod +x "$tmp/builder"

"$tmp/builder" > "$tmp/out" 2>&1
beats=$(sed -n '/^stopped$/q; /building: 0 min [0-9] s, [0-9] objects built$/p' "$tmp/out" | wc -l)
last=$(sed -n '/^stopped$/q; p' "$tmp/out" | tail -n 1)
if [ "$beats" -ge 2 ] &&
   grep -q '^builder: 1/2 foo.patch: building: 0 min [0-9] s, [1-3] objects built$' "$tmp/out" &&
   [[ $last =~ ([0-9]+)\ objects ]] && [ "${BASH_REMATCH[1]}" -ge 2 ] &&
   ! grep -q ' [4-9] objects' "$tmp/out" &&
   [ "$(sed -n '/^stopped$/,$p' "$tmp/out" | grep -c building)" = 0 ] &&
   ! grep -q '^stamp left' "$tmp/out"; then
	ok "a beat a second with the objects built since the start (old ones not counted); none after heartbeat_stop, its stamp removed"
else
	fail "beats: $(cat "$tmp/out")"
fi

"$tmp/builder" die > "$tmp/out2" 2>&1
sleep 2.5
if [ "$(sed -n '/^stopped$/,$p' "$tmp/out2" | grep -c again)" -le 1 ]; then
	ok "a heartbeat left running ends with the tool that started it"
else
	fail "orphan: $(cat "$tmp/out2")"
fi

# Whoever reads a tool's output through a pipe waits for every process
# holding it: the heartbeat's sleeps must not, after heartbeat_stop or
# after the tool has died with the heartbeat running.
cat > "$tmp/quick" <<SH
#!/usr/bin/env bash
set -euo pipefail
# shellcheck source=../tools/common.sh
source "$here/../tools/common.sh"
heartbeat_start "$tmp/build" quick
sleep 0.2
[ "\${1:-}" = die ] && exit 1
heartbeat_stop
SH
chmod +x "$tmp/quick"
for how in stop die; do
	t0=$(date +%s%N)
	out=$(SKBPOOL_HEARTBEAT=30 "$tmp/quick" "$how" 2>&1) || true
	ms=$((($(date +%s%N) - t0) / 1000000))
	if [ "$ms" -lt 2500 ]; then
		ok "a pipe from a tool whose heartbeat was left by '$how' ends with it ($ms ms)"
	else
		fail "a pipe from a tool whose heartbeat was left by '$how' ended $ms ms after the start: $out"
	fi
done

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
