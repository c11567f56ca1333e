# SPDX-License-Identifier: GPL-2.0
#
# skb_pool: the NAPI skb-head cache for process-context drivers (tun, tap,
# veth), as a patch series on Debian's Linux sources (the pinned base
# below), with the tooling that applies, tests, measures and checks it.
# `make help` lists the targets, in the order of the flow.

# The pinned base, its one home: Debian's linux-source-<major>.<minor>
# (tools/common.sh derives the package name from the version), fetched
# by tools/deps from BASE_SUITE on BASE_MIRROR with a private apt
# configuration in $(CACHE)/base (the system's apt sources are not used
# for it and not changed). Until 7.3 the base was bookworm's
# linux-source-6.12 (6.12.117-1~deb12u1), installed with apt-get.
BASE_VERSION := 7.3.4-1~bpo13+1
BASE_SUITE := trixie-backports
BASE_MIRROR ?= http://deb.debian.org/debian

# Everything built or downloaded lives here, outside the checkout; the
# tools' own variable, SKBPOOL_CACHE, is honoured too (CACHE wins). The
# default's one home is tools/common.sh.
ifeq ($(origin CACHE),undefined)
CACHE := $(shell bash -c '. tools/common.sh && printf %s "$$SKBPOOL_CACHE"')
endif

export BASE_VERSION BASE_SUITE BASE_MIRROR
export SKBPOOL_CACHE := $(CACHE)

.NOTPARALLEL:
.PHONY: all test test-all deps tree export check check-modules test-tools kunit-uml kunit-rt kunit-rt-build kunit-x86_64 selftest-tun noise-check modprobe-check check-objdump coverage bench bench-rt tables mbox fresh-check clean help

## all:        install what is missing, prepare the tree, run the UML suites
all: deps tree kunit-uml

## test:       what CI runs: test-tools, tree, check without its builds
##             (the per-patch and modular builds, 81 of the check's 85
##             minutes cold: make check, which make mbox requires, and
##             test-all run them), kunit-uml, kunit-rt, one after the
##             other (the rt cell's kernel built in parallel with check, at
##             nice 15), then a verdict with each step's time
##             (out/test-steps.txt)
test:
	@SKIP=build,modules tools/steps --parallel check:kunit-rt-build test deps \
		test-tools tree check kunit-uml kunit-rt

## test-all:   test, plus the x86_64 KASAN cell, the tun selftest, the
##             modprobe boot and the objdump comparison
test-all:
	@tools/steps --parallel check:kunit-rt-build test-all deps test-tools \
		tree check kunit-uml kunit-rt kunit-x86_64 selftest-tun \
		modprobe-check check-objdump

## deps:       apt-get install the build/test dependencies; fetch the base
##             (BASE_MIRROR=URL: another Debian mirror for it)
deps:
	@tools/deps

## tree:       base + series as a git work tree in $(CACHE)/tree
##             (refuses to clobber unexported work; FORCE=1 sets it aside)
tree: deps
	@tools/tree $(if $(FORCE),--force)

## export:     write the tree's commits back into the series directories
export:
	@tools/export

## check:      the reviewer's checklist: applies to a fresh base, form (<= 15
##             patches, subject, Signed-off-by, no new inline), round trip,
##             checkpatch --strict, kernel-doc, the docs page renders, each
##             patch builds (UML) with no new W=1/sparse warning
##             (SKIP=build: all but the slow per-patch build), and the
##             series' end builds as modules (SKIP=build,modules: neither);
##             a full pass is remembered for make mbox (tools/check-stamp)
check: tree
	@$(if $(SKIP),tools/check-series --skip $(SKIP),tools/check-stamp run --again tools/check-series)

## check-modules: make check's modules step alone: the series' end built
##             once as modules (x86_64 tinyconfig + kunit/modules.config):
##             no modpost error, no new warning, no test in a driver module
check-modules: tree
	@tools/check-series --only modules

## test-tools: the tools' own tests (no kernel build)
test-tools:
	@tests/run

## kunit-uml:  KUnit under UML with the debug fragment -> out/kunit-uml.{json,log},
##             the cell's entry in results/kunit.json
kunit-uml: tree
	@tools/run-kunit uml

## kunit-rt:   qemu x86_64, 2 vCPUs, PREEMPT_RT + lockdep -> out/kunit-rt.*
kunit-rt: tree
	@tools/run-kunit rt

## kunit-rt-build: only build the rt cell's kernel (make test does it in
##             parallel with check)
kunit-rt-build:
	@tools/run-kunit --build-only rt

## kunit-x86_64: qemu x86_64, 2 vCPUs, KASAN + lockdep -> out/kunit-x86_64.*
kunit-x86_64: tree
	@tools/run-kunit x86_64

## selftest-tun: upstream's tun selftest on the x86_64 cell's kernel (after kunit-x86_64)
selftest-tun: tree
	@tools/run-selftest

## noise-check: a cell (CELL=uml, x86_64 or rt) run RUNS=10 times while
##             unrelated skb traffic moves every CPU's NAPI cache
##             (kunit/noise/, tools/noise-runs) -> out/noise/summary.txt
noise-check: tree
	@tools/noise-runs --runs $(or $(RUNS),10) $(or $(CELL),uml)

## modprobe-check: boot the series' end built as modules in qemu: loading
##             kunit, tun, macvtap and veth runs no test; each suite's
##             module runs its suite; kmemleak then finds no leak
##             -> out/modprobe-check.log
modprobe-check: tree
	@tools/modprobe-check

## check-objdump: skbuff.o and skb_pool.o compiled with and without the
##             skb_pool suite: no instruction differs -> out/check-objdump.txt
check-objdump: tree
	@tools/check-objdump

## coverage:   gcov + lcov of the series under UML KUnit -> out/coverage/
##             {coverage.info,html/,summary.txt}, results/coverage.json; fails under
##             kunit/coverage-threshold (UNCOMMITTED=1: the tree as on disk)
coverage: $(if $(UNCOMMITTED),deps,tree)
	@tools/coverage $(if $(UNCOMMITTED),--uncommitted)

## bench:      qemu -icount runs, base vs patched -> out/bench/results.{json,md},
##             chart.svg, results/bench.json (PROFILE=1: also the profiling
##             kernels, whose profile gives the BH sections per packet)
bench: tree
	@tools/bench $(if $(PROFILE),--profile)

## bench-rt:   the same on a PREEMPT_RT base and series (tools/bench --rt;
##             every packet workload, no v2; PROFILE=1 as for bench)
##             -> out/bench-rt/, results/bench-rt.json
bench-rt: tree
	@tools/bench --rt $(if $(PROFILE),--profile)

## tables:     the tables of README.md and docs/ made again from results/
##             (bench.json, kunit.json, coverage.json: what bench,
##             coverage and the kunit-* cells write); tools/tables --check
##             says whether they agree (make test-tools runs it)
tables:
	@tools/tables

## mbox:       after make check (not run again when it passed on the same
##             series and tools commits), out/mbox/<series>.mbox, net-fixes
##             first: cover 0/y + [RFC PATCH net x/y] for the fixes,
##             [RFC PATCH net-next x/y] for the others (the base is a
##             release), for git send-email; checked to git am onto a fresh
##             base; From and signed off by git's user.name/user.email (or
##             SKBPOOL_SENDER='Name <mail>'); refuses a placeholder identity
mbox: tree
	@tools/check-stamp run tools/check-series
	@tools/mbox

## fresh-check: the README's two commands, cold, in a new Debian 12 root
##             (debootstrap under $(CACHE)/fresh-check) -> out/fresh-check/
fresh-check:
	@tools/fresh-check

## clean:      remove out/ (the cache stays: rm -rf $(CACHE) for a cold start)
clean:
	rm -rf out

## help:       this list, in the order of the flow, with this checkout's
##             paths ($(CACHE), $(CURDIR)/out)
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST) | \
		sed -e 's|$$(CACHE)|$(CACHE)|g' -e 's|\([ (]\)out/|\1$(CURDIR)/out/|g' \
		-e 's|\([ (]\)results/|\1$(CURDIR)/results/|g'
