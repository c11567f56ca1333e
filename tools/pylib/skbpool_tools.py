# SPDX-License-Identifier: GPL-2.0
"""What the project's Python tools share.

tools/check-kunit-results, tools/matrix-table and tools/scan-splats
import this module (tools/pylib is put on sys.path by each): the usage
error every tool exits with, the walk over kunit.py's --json tree, and
the cache and checkout paths, as tools/common.sh and the Makefile define
them. Standard library only; its tests are tools/pylib/test_skbpool_tools.py
(run by tests/test-pylib.sh).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any, NoReturn


def prog() -> str:
    """The running tool's name, as its messages start."""
    return os.path.basename(sys.argv[0])


def die_usage(msg: str, name: str | None = None,
              usage: str | None = None) -> NoReturn:
    """'PROG: error: MSG' on stderr, then the usage text if given, then
    exit 2 (a usage error, a file missing or unreadable: the tools'
    convention, kept apart from 1, which means the check failed)."""
    print(f"{name or prog()}: error: {msg}", file=sys.stderr)
    if usage:
        print(usage.strip(), file=sys.stderr)
    sys.exit(2)


def leaves(group: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, str]]:
    """Yield (case path, status) for every leaf case under group.

    kunit.py --json puts a test without subtests in its parent's
    test_cases and a test with subtests (a suite, a parameterised case)
    in sub_groups, nested to any depth; only the leaves carry a status.
    A path is the names from group down, joined with '.', after path.
    """
    for case in group.get("test_cases") or []:
        yield f"{path}.{case.get('name', '?')}", str(case.get("status", "?"))
    for sub in group.get("sub_groups") or []:
        yield from leaves(sub, f"{path}.{sub.get('name', '?')}")


def cache_dir(env: Mapping[str, str] | None = None) -> str:
    """The cache: $SKBPOOL_CACHE (the Makefile exports it), else the
    default of tools/common.sh, its one home, asked in env."""
    env = dict(os.environ if env is None else env)
    if env.get("SKBPOOL_CACHE"):
        return env["SKBPOOL_CACHE"]
    env.setdefault("PATH", os.environ.get("PATH", "/usr/bin:/bin"))
    common = os.path.join(top_dir(), "tools", "common.sh")
    return subprocess.run(
        ["bash", "-c", '. "$1" && printf %s "$SKBPOOL_CACHE"', "-", common],
        env=env, check=True, capture_output=True, text=True).stdout


def top_dir() -> str:
    """The checkout these tools are in: the directory above tools/."""
    return os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
