# SPDX-License-Identifier: GPL-2.0
"""Unit tests of skbpool_tools (python3 -m unittest, from tools/pylib)."""

from __future__ import annotations

import contextlib
import io
import os
import unittest

import skbpool_tools as t


class Leaves(unittest.TestCase):
    def test_nested(self) -> None:
        # as kunit.py --json nests a suite, a parameterised case and a
        # suite that crashed before its plan
        root = {"name": "main", "sub_groups": [
            {"name": "tun", "test_cases": [
                {"name": "read_empty", "status": "PASS"}],
             "sub_groups": [
                {"name": "batch", "test_cases": [
                    {"name": "0 buffers", "status": "PASS"},
                    {"name": "1 buffer", "status": "FAILURE"}]}]},
            {"name": "veth", "test_cases": [
                {"name": "xdp", "status": "SKIP"}], "sub_groups": None},
            {"name": "empty", "test_cases": None, "sub_groups": None}],
            "test_cases": [{"name": "tap", "status": "ERROR"}]}
        self.assertEqual(list(t.leaves(root, "main")), [
            ("main.tap", "ERROR"),
            ("main.tun.read_empty", "PASS"),
            ("main.tun.batch.0 buffers", "PASS"),
            ("main.tun.batch.1 buffer", "FAILURE"),
            ("main.veth.xdp", "SKIP")])

    def test_missing_fields(self) -> None:
        self.assertEqual(list(t.leaves({"test_cases": [{}]})), [(".?", "?")])
        self.assertEqual(list(t.leaves({})), [])


class CacheDir(unittest.TestCase):
    def test_order(self) -> None:
        env = {"SKBPOOL_CACHE": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"}
        self.assertEqual(t.cache_dir(env), "/c")
        del env["SKBPOOL_CACHE"]
        self.assertEqual(t.cache_dir(env), "/x/skbpool")
        env["XDG_CACHE_HOME"] = ""
        self.assertEqual(t.cache_dir(env), "/h/.cache/skbpool")
        self.assertEqual(t.cache_dir({"SKBPOOL_CACHE": "", "HOME": "/h"}),
                         "/h/.cache/skbpool")


class DieUsage(unittest.TestCase):
    def test_exit_2(self) -> None:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as e:
            t.die_usage("--out needs a directory", "matrix-table")
        self.assertEqual(e.exception.code, 2)
        self.assertEqual(err.getvalue(),
                         "matrix-table: error: --out needs a directory\n")

    def test_usage(self) -> None:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as e:
            t.die_usage("unknown argument '-x'", "m", "\nUsage: m [-y]\n")
        self.assertEqual(e.exception.code, 2)
        self.assertEqual(err.getvalue(),
                         "m: error: unknown argument '-x'\nUsage: m [-y]\n")


class TopDir(unittest.TestCase):
    def test_checkout(self) -> None:
        top = t.top_dir()
        self.assertTrue(os.path.isfile(
            os.path.join(top, "tools", "pylib", "skbpool_tools.py")))
        self.assertTrue(os.path.isfile(os.path.join(top, "Makefile")))


if __name__ == "__main__":
    unittest.main()
