#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# README.md and docs/*.md: every relative link points at a file that
# exists and, with an #anchor, at a heading that exists (GitHub's anchor
# rules); README.md is at most 15 KiB (the front door: details go to
# docs/). Then the same checks on a toy page with a dead link, a dead
# anchor and an oversized README, which must fail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/.." && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

check_links() { # top-dir: prints one line per problem
	python3 - "$1" <<'PY'
import os, re, sys
top = sys.argv[1]
def anchors(path):
    out, seen = set(), {}
    fence = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^(#{1,6}) +(.*?) *#*$", line)
        if not m:
            continue
        a = m.group(2).strip().lower()
        a = re.sub(r"[^\w\- ]", "", a).replace(" ", "-")
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else "%s-%d" % (a, n))
    return out
pages = [os.path.join(top, "README.md")]
d = os.path.join(top, "docs")
if os.path.isdir(d):
    pages += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
bad = 0
for page in pages:
    text = open(page, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        rel = os.path.relpath(page, top)
        if not os.path.exists(dest):
            print("%s: link to %s: no such file" % (rel, target)); bad += 1
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            print("%s: link to %s: no such heading" % (rel, target)); bad += 1
size = os.path.getsize(pages[0])
if size > 15 * 1024:
    print("README.md: %d bytes, more than 15 KiB" % size); bad += 1
sys.exit(1 if bad else 0)
PY
}

if out=$(check_links "$TOP"); then
	ok "README.md and docs/: every relative link and anchor resolves; README <= 15 KiB"
else
	fail "$out"
fi

toy=$tmp/toy
mkdir -p "$toy"
mkdir -p "$toy/docs"
printf '# Toy\n\n## Part one\n\nSee [one](#part-one), [two](docs/two.md#gone), [three](docs/none.md).\n' > "$toy/README.md"
printf '# Two\n\n## Here\n\nBack to [top](../README.md#part-one).\n' > "$toy/docs/two.md"
if out=$(check_links "$toy"); then
	fail "a dead link and a dead anchor passed"
elif [ "$(printf '%s\n' "$out" | wc -l)" = 2 ] &&
     grep -q 'docs/two.md#gone: no such heading' <<<"$out" &&
     grep -q 'docs/none.md: no such file' <<<"$out"; then
	ok "a dead link and a dead anchor are named, the good ones are not"
else
	fail "toy: $out"
fi
head -c 16000 /dev/zero | tr '\0' 'x' >> "$toy/README.md"
printf '[t](docs/two.md#here)\n' >> "$toy/README.md"
sed -i 's/, \[two\](docs\/two.md#gone), \[three\](docs\/none.md)//' "$toy/README.md"
if out=$(check_links "$toy"); then
	fail "a README over 15 KiB passed"
elif grep -q 'more than 15 KiB' <<<"$out" && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then
	ok "a README over 15 KiB fails"
else
	fail "toy size: $out"
fi
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
