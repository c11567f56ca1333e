#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Extract a posted patch series from a mailing-list thread as mbox files,
and apply a rebase (a diff of a patch file) to one of them; tools/posted-series
runs it.

Usage: posted-series.py extract THREAD TAG COUNT OUTDIR DATE
       posted-series.py rebase POSTED PORT OUT

The thread is plain text, one message after another, each opening with
three lines and a blank one:

    SUBJECT
    <blank>
    [AUTHOR NAME]
    <blank>

then the message's text up to the next message's opening. A patch is a
message whose subject is "[PATCH ... N/M] summary" (not "Re: ..."); its
text is the commit message, "---", the diffstat, the diff and the
"-- " signature, as git format-patch wrote it. Replies and the cover
letter (0/M) are ignored.

extract: the patches "[TAG N/COUNT]" of the thread (other subjects are
ignored), written as OUTDIR/NNNN-summary.patch for N = 1..COUNT, each an
mbox message that git am takes: From: (the author's name with the
address of their Signed-off-by), Date: (DATE: the thread carries no
dates), Subject: (the posted subject) and the posted text, verbatim.
Prints the files written, one a line, in order. Exits 1 with a message
on stderr unless the thread holds the series [TAG N/COUNT] with every
patch 1..COUNT exactly once and no other total.

rebase: PORT is a unified diff of the patch file POSTED (text before its
first '--- ' line is its explanation, ignored); writes POSTED with it
applied to OUT. Every hunk must match exactly where it says: the rebase
was written against this posted text and no other. Exits 1 when a hunk
does not.
"""

import re
import sys
from dataclasses import dataclass
from pathlib import Path

SUBJECT = re.compile(r"^(?:Re: )?\[[^\]]*\] .+$")
AUTHOR = re.compile(r"^\[([^\]]+)\]$")
PATCH = re.compile(r"^\[([^\]]*?) (\d+)/(\d+)\] (.+)$")
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class ThreadError(Exception):
    """The thread does not hold one complete series."""


@dataclass
class Message:
    line: int  # 1-based line of the subject in the thread
    subject: str
    author: str
    text: list[str]


@dataclass
class Patch:
    tag: str  # "PATCH net-next v2"
    number: int
    total: int
    summary: str
    message: Message


def messages(lines: list[str]) -> list[Message]:
    """Split the thread at each message's opening."""
    starts = []
    for i in range(len(lines) - 3):
        if (SUBJECT.match(lines[i]) and lines[i + 1] == ""
                and AUTHOR.match(lines[i + 2]) and lines[i + 3] == ""
                and (i == 0 or lines[i - 1] == "")):
            starts.append(i)
    out = []
    for k, i in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        text = lines[i + 4:end]
        while text and text[-1] == "":
            text.pop()
        author = AUTHOR.match(lines[i + 2])
        assert author
        out.append(Message(i + 1, lines[i], author.group(1), text))
    return out


def series(msgs: list[Message], want: str, count: int) -> list[Patch]:
    """The patches 1..count of the series [want n/count], in order."""
    patches: dict[int, Patch] = {}
    tags: set[tuple[str, int]] = set()
    for m in msgs:
        p = PATCH.match(m.subject)
        if not p or p.group(1) != want:
            continue
        tag, number, total = p.group(1), int(p.group(2)), int(p.group(3))
        if number == 0:
            continue  # the cover letter
        tags.add((tag, total))
        if number in patches:
            raise ThreadError(f"line {m.line}: patch {number}/{total} is there twice "
                            f"(first at line {patches[number].message.line})")
        patches[number] = Patch(tag, number, total, p.group(4), m)
    if not patches:
        raise ThreadError(f"no '[{want} n/{count}]' patch in it")
    if len(tags) > 1:
        found = ", ".join(f"[{t} n/{n}]" for t, n in sorted(tags))
        raise ThreadError(f"more than one series in it: {found}")
    tag, total = tags.pop()
    if total != count:
        raise ThreadError(f"[{tag} n/{total}] has {total} patches, not {count}")
    missing = [n for n in range(1, total + 1) if n not in patches]
    extra = [n for n in patches if n > total]
    if missing or extra:
        what = []
        if missing:
            what.append("no patch " + ", ".join(f"{n}/{total}" for n in missing))
        if extra:
            what.append("patch " + ", ".join(f"{n}/{total}" for n in extra) +
                        f" is beyond {total}")
        raise ThreadError(f"[{tag} n/{total}] is not complete: {'; '.join(what)}")
    return [patches[n] for n in range(1, total + 1)]


def address(p: Patch) -> str:
    """The author's address, from their Signed-off-by in the patch."""
    sob = re.compile(r"^Signed-off-by: " + re.escape(p.message.author) + r" <([^<>\s]+@[^<>\s]+)>$")
    for line in p.message.text:
        m = sob.match(line)
        if m:
            return m.group(1)
    raise ThreadError(f"line {p.message.line}: patch {p.number}/{p.total} has no "
                    f"Signed-off-by of its author {p.message.author}")


def check_diff(p: Patch) -> None:
    """A patch has a '---' separator and a diff after it."""
    text = p.message.text
    if "---" not in text or not any(t.startswith("diff --git ") for t in text):
        raise ThreadError(f"line {p.message.line}: patch {p.number}/{p.total} has no "
                        "'---' and diff")


def file_name(p: Patch) -> str:
    """git format-patch's name: NNNN-summary-with-dashes.patch."""
    name = re.sub(r"[^A-Za-z0-9._]+", "-", p.summary)
    name = re.sub(r"\.+", ".", name).strip("-.")[:52].rstrip("-.")
    return f"{p.number:04d}-{name}.patch"


def mbox(p: Patch, date: str) -> str:
    head = [
        "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001",
        f"From: {p.message.author} <{address(p)}>",
        f"Date: {date}",
        f"Subject: {p.message.subject}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
        "",
    ]
    return "\n".join(head + p.message.text) + "\n"


def apply_rebase(posted: list[str], rebase: list[str], name: str) -> list[str]:
    """posted with the unified diff rebase applied; every hunk exact."""
    i = 0
    while i < len(rebase) and not (rebase[i].startswith("--- ") and i + 1 < len(rebase)
                                 and rebase[i + 1].startswith("+++ ")):
        i += 1
    if i == len(rebase):
        raise ThreadError(f"{name}: no '--- '/'+++ ' diff in it")
    out: list[str] = []
    at = 0  # lines of posted consumed
    i += 2
    while i < len(rebase):
        h = HUNK.match(rebase[i])
        if not h:
            raise ThreadError(f"{name}:{i + 1}: not a hunk header: {rebase[i]!r}")
        start = int(h.group(1))
        old_n = int(h.group(2) if h.group(2) is not None else 1)
        new_n = int(h.group(4) if h.group(4) is not None else 1)
        first = start - 1 if old_n else start
        if first < at:
            raise ThreadError(f"{name}:{i + 1}: hunks out of order")
        out.extend(posted[at:first])
        at = first
        i += 1
        old_seen = new_seen = 0
        while i < len(rebase) and (old_seen < old_n or new_seen < new_n):
            line = rebase[i]
            tag, text = line[:1], line[1:]
            if tag in (" ", "-"):
                if at >= len(posted) or posted[at] != text:
                    got = posted[at] if at < len(posted) else "end of file"
                    raise ThreadError(f"{name}:{i + 1}: the posted patch has {got!r} at "
                                    f"line {at + 1}, the rebase expects {text!r}")
                at += 1
                old_seen += 1
                if tag == " ":
                    out.append(text)
                    new_seen += 1
            elif tag == "+":
                out.append(text)
                new_seen += 1
            else:
                raise ThreadError(f"{name}:{i + 1}: not a hunk line: {line!r}")
            i += 1
        if old_seen != old_n or new_seen != new_n:
            raise ThreadError(f"{name}: the hunk ending at line {i} is short")
    out.extend(posted[at:])
    return out


def extract(thread: Path, tag: str, count: int, outdir: Path, date: str) -> None:
    lines = thread.read_text(encoding="utf-8").split("\n")
    try:
        patches = series(messages(lines), tag, count)
        for p in patches:
            check_diff(p)
            address(p)
    except ThreadError as e:
        raise ThreadError(f"{thread}: {e}") from None
    files = []
    for p in patches:
        f = outdir / file_name(p)
        f.write_text(mbox(p, date), encoding="utf-8")
        files.append(f)
    for f in files:
        print(f)


def rebase(posted: Path, diff: Path, out: Path) -> None:
    text = posted.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    diff_lines = diff.read_text(encoding="utf-8").split("\n")
    if diff_lines[-1] == "":
        diff_lines.pop()
    result = apply_rebase(lines, diff_lines, str(diff))
    out.write_text("\n".join(result) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    try:
        if len(argv) == 7 and argv[1] == "extract" and argv[4].isdigit():
            extract(Path(argv[2]), argv[3], int(argv[4]), Path(argv[5]), argv[6])
        elif len(argv) == 5 and argv[1] == "rebase":
            rebase(Path(argv[2]), Path(argv[3]), Path(argv[4]))
        else:
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
    except ThreadError as e:
        print(e, file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
