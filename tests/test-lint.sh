#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lint gate: every bash script in tools/ and tests/ (a bash shebang,
# or '# shellcheck shell=bash' for the sourced tools/common.sh and
# tests/lib.sh) has no finding of 'shellcheck -S warning' (with the
# checkout's .shellcheckrc: sourced files followed); every Python tool
# (tools/**/*.py, and the files under tools/ with a python shebang)
# compiles (python3 -m py_compile) and has no finding of mypy (with the
# checkout's mypy.ini: every function body checked). Exits 77 only when
# either linter is not installed ('make deps' installs both).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

bash_files=() py_files=()
while IFS= read -r -d '' f; do
	first=$(head -n 1 "$f" 2>/dev/null | tr -d '\0') || first=
	if [[ $first =~ ^#!.*[/\ ]bash ]] ||
		grep -qx '# shellcheck shell=bash' "$f"; then
		bash_files+=("$f")
	elif [[ $f == "$top"/tools/* ]] &&
		{ [[ $f == *.py ]] || [[ $first =~ ^#!.*python ]]; }; then
		py_files+=("$f")
	fi
done < <(find "$top/tools" "$top/tests" -path "$top/tests/data" -prune -o \
	-name __pycache__ -prune -o -type f -print0 | sort -z)

# the lists are what they should be: a find that found nothing passes
for f in tools/common.sh tests/lib.sh tools/run-kunit tests/run; do
	[[ " ${bash_files[*]} " == *" $top/$f "* ]] ||
		fail "$f is not among the bash files checked"
done
for f in tools/scan-splats tools/pylib/skbpool_tools.py; do
	[[ " ${py_files[*]} " == *" $top/$f "* ]] ||
		fail "$f is not among the Python files checked"
done

missing=()
if command -v shellcheck >/dev/null; then
	if shellcheck -S warning -f gcc "${bash_files[@]}" > "$tmp/sc.out" 2>&1; then
		ok "shellcheck -S warning: ${#bash_files[@]} bash files, 0 findings"
	else
		fail "shellcheck -S warning: $(grep -c '' "$tmp/sc.out") finding(s):"
		sed -e "s|$top/||" -e "s/^/  /" "$tmp/sc.out"
	fi
else
	missing+=(shellcheck)
fi

# compiled to $tmp, not to __pycache__ directories in the checkout
bad=0
for f in "${py_files[@]}"; do
	PYTHONPYCACHEPREFIX=$tmp/pycache python3 -m py_compile "$f" \
		> "$tmp/pyc.out" 2>&1 && continue
	fail "python3 -m py_compile ${f#"$top"/}:"; sed 's/^/  | /' "$tmp/pyc.out"
	bad=$((bad + 1))
done
[ "$bad" -gt 0 ] || ok "python3 -m py_compile: ${#py_files[@]} Python files"

if command -v mypy >/dev/null; then
	# One file a run: the tools without .py are all module __main__ to
	# mypy. One cache for the runs, in $tmp.
	bad=0
	for f in "${py_files[@]}"; do
		mypy --config-file "$top/mypy.ini" --cache-dir "$tmp/mypy" \
			--scripts-are-modules --no-error-summary "$f" \
			> "$tmp/mypy.out" 2>&1 && continue
		fail "mypy ${f#"$top"/}:"; sed -e "s|$top/||" -e "s/^/  /" "$tmp/mypy.out"
		bad=$((bad + 1))
	done
	[ "$bad" -gt 0 ] || ok "mypy: ${#py_files[@]} Python files, 0 findings"
else
	missing+=(mypy)
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
if [ ${#missing[@]} -gt 0 ]; then
	echo "not installed: ${missing[*]} (make deps installs it)"
	exit 77
fi
ok "lint: ${#bash_files[@]} bash and ${#py_files[@]} Python files clean"
