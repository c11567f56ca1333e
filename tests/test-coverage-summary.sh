#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/coverage-summary on a tiny synthetic tree: two C files, the diff
# that "added" and changed their functions, and an lcov tracefile for
# them. Checks the per-file numbers (and, when lcov is installed, that
# 'lcov --summary' counts the same), the hunk-to-function mapping, the
# worst-first order, the threshold with and without justified unreachable lines, the
# 'nodata' and 'exclude' rules, stale entries and usage errors.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
summary=$top/tools/coverage-summary
tool=$summary
# shellcheck source=lib.sh
source "$top/tests/lib.sh"

# --- the synthetic tree at "SERIES" ------------------------------------------

src=$tmp/src
mkdir -p "$src/net/core" "$src/include"
# Line numbers matter: the diff and the tracefile below refer to them.
cat >"$src/net/core/foo.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <foo.h>

static int old_fn(int a)
{
	return a + 1;
}

/* a new function */
int new_fn(int a)
{
	if (a)
		return old_fn(a);
	return 0;
}

static int
changed_fn(int a)
{
	int b = a * 2;

	if (WARN_ON_ONCE(b < 0))
		return -EINVAL;
	return b;
}

static void deleted_in(void)
{
	pr_info("x\n");
}

static const int table[] = {
	1, 2,
};

#ifdef CONFIG_NOT_SET
int not_built(void)
{
	return 1;
}
#endif
EOF
cat >"$src/include/foo.h" <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FOO_H
#define _FOO_H

static inline int foo_inline(int x)
{
	return x + 1;
}

int new_fn(int a);

#endif
EOF

# git diff -U0 BASE..SERIES: new_fn added (9-16), line 20 of changed_fn
# changed, lines removed after line 28 (inside deleted_in), the table
# changed (not code), not_built added (36-41), foo.h new, a test file and
# a Kconfig file touched.
cat >"$tmp/series.diff" <<'EOF'
diff --git a/include/foo.h b/include/foo.h
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/include/foo.h
@@ -0,0 +1,12 @@
+/* SPDX-License-Identifier: GPL-2.0 */
+#ifndef _FOO_H
+#define _FOO_H
+
+static inline int foo_inline(int x)
+{
+	return x + 1;
+}
+
+int new_fn(int a);
+
+#endif
diff --git a/net/Kconfig b/net/Kconfig
index 2222222..3333333 100644
--- a/net/Kconfig
+++ b/net/Kconfig
@@ -1,0 +2 @@ menu
+config FOO
diff --git a/net/core/foo.c b/net/core/foo.c
index 4444444..5555555 100644
--- a/net/core/foo.c
+++ b/net/core/foo.c
@@ -8,0 +9,8 @@ static int old_fn(int a)
+/* a new function */
+int new_fn(int a)
+{
+	if (a)
+		return old_fn(a);
+	return 0;
+}
+
@@ -12 +20 @@ changed_fn(int a)
-	int b = a;
+	int b = a * 2;
@@ -20,2 +28,0 @@ static void deleted_in(void)
-	pr_info("y\n");
-	pr_info("z\n");
@@ -25 +33 @@ static const int table[] = {
-	1,
+	1, 2,
@@ -27,0 +36,6 @@ static const int table[] = {
+#ifdef CONFIG_NOT_SET
+int not_built(void)
+{
+	return 1;
+}
+#endif
diff --git a/net/core/foo_test.c b/net/core/foo_test.c
new file mode 100644
index 0000000..6666666
--- /dev/null
+++ b/net/core/foo_test.c
@@ -0,0 +1 @@
+// a KUnit suite
diff --git a/net/core/gone.c b/net/core/gone.c
deleted file mode 100644
index 7777777..0000000
--- a/net/core/gone.c
+++ /dev/null
@@ -1 +0,0 @@
-int gone;
EOF

# lcov's view: foo.c 9 of 13 lines, 3 of 4 functions; foo.h 2/2, 1/1;
# plus a file the series does not touch.
tracefile() {
	cat <<EOF
TN:
SF:$src/net/core/foo.c
FN:4,old_fn
FN:10,new_fn
FN:18,changed_fn
FN:27,deleted_in
FNDA:3,old_fn
FNDA:3,new_fn
FNDA:5,changed_fn
FNDA:0,deleted_in
FNF:4
FNH:3
DA:4,3
DA:6,3
DA:10,3
DA:12,3
DA:13,3
DA:14,0
DA:18,5
DA:20,5
DA:22,5
DA:23,0
DA:24,5
DA:27,0
DA:29,0
LF:13
LH:9
end_of_record
EOF
	[ "${1:-}" = no-header ] || cat <<EOF
TN:
SF:$src/include/foo.h
FN:5,foo_inline
FNDA:2,foo_inline
FNF:1
FNH:1
DA:5,2
DA:7,2
LF:2
LH:2
end_of_record
EOF
	cat <<EOF
TN:
SF:/elsewhere/kernel/other.c
FN:1,other
FNDA:1,other
DA:1,1
end_of_record
EOF
}
tracefile >"$tmp/cov.info"
tracefile no-header >"$tmp/noheader.info"

config() {
	cat <<EOF
# test config
threshold $1
exclude 'net/core/*_test.c' KUnit test code
EOF
	shift
	printf '%s\n' "$@"
}
args=(--diff "$tmp/series.diff" --source-root "$src")

# --- the files --------------------------------------------------------------

config 95 >"$tmp/c95"
if run list 0 "${args[@]}" --tracefile /nonexistent --config "$tmp/c95" --list-files; then
	[ "$(cat "$tmp/list.out")" = "include/foo.h
net/core/foo.c" ] || { fail "list: wrong files:"; sed 's/^/  | /' "$tmp/list.out"; }
fi

# --- below the threshold, nothing justified ----------------------------------

if run plain 1 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/c95" --title "synthetic"; then
	has plain '^synthetic$'
	# per file, lcov's and genhtml's numbers and rounding
	has plain '^net/core/foo\.c +9/13 +69\.2 +3/4 +75\.0$'
	has plain '^include/foo\.h +2/2 +100\.0 +1/1 +100\.0$'
	has plain '^total +11/15 +73\.3 +4/5 +80\.0$'
	hasnt plain 'other\.c'
	has plain 'not measured: net/core/foo_test\.c: KUnit test code'
	has plain 'not C code: net/Kconfig'
	hasnt plain 'gone\.c'
	# the functions: the comment above new_fn is not part of it; the
	# return type line of changed_fn is; worst first
	has plain '^deleted_in +net/core/foo\.c:27 +changed +0/2 +0\.0 +0$'
	has plain '^new_fn +net/core/foo\.c:10 +new +3/4 +75\.0 +3$'
	has plain '^changed_fn +net/core/foo\.c:17 +changed +4/5 +80\.0 +5$'
	has plain '^foo_inline +include/foo\.h:5 +new +2/2 +100\.0 +2$'
	has plain '^not_built +net/core/foo\.c:37 +new +no data .*NOT LISTED'
	hasnt plain '^old_fn'
	order=$(grep -Eo '^(deleted_in|new_fn|changed_fn|foo_inline|not_built) ' \
		"$tmp/plain.out" | tr -d ' ' | tr '\n' ' ')
	[ "$order" = "deleted_in new_fn changed_fn foo_inline not_built " ] ||
		fail "plain: functions not worst first: $order"
	has plain '^total +9/13 +69\.2$'
	# every line that did not run, with its source
	has plain '^  net/core/foo\.c:14 new_fn: return 0;$'
	has plain '^  net/core/foo\.c:23 changed_fn: return -EINVAL;$'
	# a function that never ran is one line, not one per line
	has plain '^  net/core/foo\.c:27-30 deleted_in: none of its 2 lines ran$'
	hasnt plain 'foo\.c:29 '
	has plain 'New and changed functions: 9/13 lines = 69\.2%'
	has plain 'threshold 95%: FAIL'
	has plain 'FAIL: new and changed functions at 69\.2% of their lines, under the threshold of 95%'
	has plain 'FAIL: net/core/foo\.c: not_built\(\) is new or changed but has no coverage data'
fi

# --- justified: unreachable lines leave the count, nodata accepted -----------

config 75 \
	"# WARN_ON_ONCE(b < 0) cannot fire: b is a * 2 of a non-negative" \
	"unreachable net/core/foo.c changed_fn \"return -EINVAL;\" b can't be negative: it's a * 2" \
	"nodata net/core/foo.c not_built CONFIG_NOT_SET is not set in the coverage config" \
	>"$tmp/c75"
if run justified 0 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/c75"; then
	# free-text reasons (quotes, colons), a "double-quoted" TEXT
	has justified "^  net/core/foo\\.c:23 changed_fn: return -EINVAL;  \\[unreachable: b can't be negative: it's a \\* 2\\]\$"
	has justified '^not_built .*no data .*\(CONFIG_NOT_SET is not set in the coverage config\)$'
	has justified 'without the 1 uncovered line\(s\) listed as unreachable from KUnit: 9/12 = 75\.0%'
	has justified 'threshold 75%: PASS'
	hasnt justified 'FAIL'
	hasnt justified 'warning'
fi
# the same just above 75%: fails
sed 's/^threshold 75$/threshold 75.1/' "$tmp/c75" >"$tmp/c751"
if run justified-751 1 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/c751"; then
	has justified-751 'threshold 75\.1%: FAIL'
fi

# --- +N: a block of lines from an anchor ------------------------------------

config 90 \
	"unreachable net/core/foo.c changed_fn 'return -EINVAL;' b is never negative" \
	"unreachable net/core/foo.c deleted_in 'static void deleted_in(void)' +3 nothing calls it" \
	"nodata net/core/foo.c not_built not built" >"$tmp/cblock"
if run block 0 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/cblock"; then
	has block '^  net/core/foo\.c:27-30 deleted_in: none of its 2 lines ran \(2 listed as unreachable\)$'
	has block 'without the 3 uncovered line\(s\) listed as unreachable from KUnit: 9/10 = 90\.0%'
	has block 'threshold 90%: PASS'
	hasnt block 'warning'
fi
printf 'threshold 90\nunreachable a.c f x +2\n' >"$tmp/badblock"
run badblock 2 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/badblock" &&
	has badblock "expected 'unreachable FILE FUNCTION 'TEXT' \[\+N\|\+A\.\.B\] REASON'"
# +A..B: from A lines after the anchor (a covered condition line) to B
config 75 "unreachable net/core/foo.c changed_fn 'if (WARN_ON_ONCE(b < 0))' +1..1 b is never negative" \
	"nodata net/core/foo.c not_built not built" >"$tmp/crange"
if run range 0 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/crange"; then
	has range '^  net/core/foo\.c:23 changed_fn: return -EINVAL;  \[unreachable: b is never negative\]$'
	has range '9/12 = 75\.0%'
	hasnt range 'warning'
fi
printf 'threshold 90\nunreachable a.c f x +3..2 why\n' >"$tmp/badrange"
run badrange 2 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/badrange" &&
	has badrange 'empty range \+3\.\.2'

# --- stale entries warn ------------------------------------------------------

config 50 \
	"unreachable net/core/foo.c new_fn 'return old_fn(a);' it ran: stale" \
	"unreachable net/core/foo.c new_fn 'no such text' nothing matches" \
	"nodata net/core/foo.c new_fn it has data" \
	"nodata net/core/foo.c not_built not built" \
	"exclude 'drivers/*' matches nothing" >"$tmp/cstale"
if run stale 0 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/cstale"; then
	has stale "warning: .*unreachable net/core/foo\.c new_fn 'return old_fn\(a\);': 1 of its line\(s\) ran: not unreachable"
	has stale "warning: .*unreachable net/core/foo\.c new_fn 'no such text': no executable line"
	has stale "warning: .*nodata net/core/foo\.c new_fn: no such new or changed function without data"
	has stale "warning: .*exclude drivers/\*: matches no file"
fi

# --- a touched file without data fails --------------------------------------

if run noheader 1 "${args[@]}" --tracefile "$tmp/noheader.info" --config "$tmp/c75"; then
	has noheader '^include/foo\.h +NO COVERAGE DATA$'
	has noheader 'FAIL: include/foo\.h: touched by the series but not in the tracefile'
	has noheader 'FAIL: include/foo\.h: foo_inline\(\) is new or changed but has no coverage data'
fi
# an empty tracefile: nothing measured
: >"$tmp/empty.info"
if run empty 1 "${args[@]}" --tracefile "$tmp/empty.info" --config "$tmp/c75"; then
	has empty 'FAIL: no line of a new or changed function has coverage data'
fi

# --- usage errors ------------------------------------------------------------

printf 'exclude x\n' >"$tmp/bad1"
run nothreshold 2 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/bad1" &&
	has nothreshold 'expected .exclude GLOB REASON.'
printf 'unreachable a b c\n' >"$tmp/bad2"
run noreason 2 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/bad2" &&
	has noreason "expected 'unreachable FILE FUNCTION"
printf 'threshold 95\n' >"$tmp/bad3"
printf 'garbage\n' >"$tmp/bad.info"
run badinfo 2 "${args[@]}" --tracefile "$tmp/bad.info" --config "$tmp/bad3" &&
	has badinfo 'not an lcov tracefile'
run noconfig 2 "${args[@]}" --tracefile "$tmp/cov.info" --config "$tmp/none" &&
	has noconfig 'cannot read config'
run help 0 --help && has help 'threshold PERCENT'

# --- lcov --summary counts the same ------------------------------------------

if command -v lcov >/dev/null; then
	# what tools/coverage does: extract the touched files, then compare
	# with 'lcov --summary' of them, in all and per file
	# lcov_has NAME INFO LINES FUNCTIONS: lcov --summary INFO says so
	lcov_has() {
		local out=$tmp/lcov-summary.out
		if ! lcov --summary "$2" >"$out" 2>&1; then
			fail "$1: lcov --summary failed:"; sed 's/^/  | /' "$out"
			return
		fi
		grep -Eq "^ *lines\.+: $3 lines\)" "$out" &&
		grep -Eq "^ *functions\.+: $4 functions?\)" "$out" ||
			{ fail "$1: lcov --summary does not say $3 lines, $4 functions:"
			  sed 's/^/  | /' "$out"; }
	}
	if lcov --quiet --extract "$tmp/cov.info" "$src/*" -o "$tmp/touched.info" \
		>"$tmp/lcov.out" 2>&1; then
		# the numbers coverage-summary printed above ("plain")
		lcov_has total "$tmp/touched.info" '73\.3% \(11 of 15' '80\.0% \(4 of 5'
		for f in net/core/foo.c:69.2:9:13:75.0:3:4 include/foo.h:100.0:2:2:100.0:1:1; do
			IFS=: read -r path r hit found fr fhit ffound <<<"$f"
			lcov --quiet --extract "$tmp/cov.info" "$src/$path" -o "$tmp/one.info" \
				>"$tmp/lcov.out" 2>&1 ||
				{ fail "lcov --extract $path:"; sed 's/^/  | /' "$tmp/lcov.out"; continue; }
			lcov_has "$path" "$tmp/one.info" "${r//./\\.}% \\($hit of $found" \
				"${fr//./\\.}% \\($fhit of $ffound"
		done
	else
		fail "lcov --extract failed:"; sed 's/^/  | /' "$tmp/lcov.out"
	fi
else
	echo "note: lcov not installed, the cross-check with lcov --summary skipped"
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "all checks passed"
