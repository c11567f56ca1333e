#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every tool's command line, as the tools' style wants it: --help prints
# the usage and exits 0; an unknown option prints the usage on stderr
# and exits 2; an option that takes a value, given without one, is a
# usage error too (exit 2), not bash's "unbound variable". The options
# that take a value: the case arms of the bash tools that read $2.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }
# nothing a tool might write goes to the checkout or the user's cache
export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out

n=0
for tool in "$tools"/* "$tools"/qemu-shim/*; do
	[ -f "$tool" ] && [ -x "$tool" ] || continue
	name=${tool#"$tools"/}
	name=${name//\//-}
	run "$name--help" 0 --help && has "$name--help" '^[Uu]sage: '
	n=$((n + 1))
	case $name in
	# the qemu wrapper passes every other argument to qemu; coverage
	# passes the ones it does not know to kunit.py
	qemu-shim-*|coverage) ;;
	*) run "$name-bad" 2 --frobnicate && has "$name-bad" '^[Uu]sage: ' ;;
	esac
	for opt in $(sed -nE 's/^[[:space:]]*(-[-a-zA-Z0-9]+)\) .*\$\{?2.*/\1/p' "$tool"); do
		run "$name$opt" 2 "$opt" && has "$name$opt" '^[Uu]sage: ' &&
			hasnt "$name$opt" 'unbound variable'
		n=$((n + 1))
	done
done
[ "$n" -gt 15 ] || fail "only $n checks: were the tools found in $tools?"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "options: --help, a bad option and a missing option value ($n tools and options)"
