#!/usr/bin/env bash
# The UI speed guard (issue 27), run by .ci/run and usable by hand: bench:ui's short form on the head
# and on the baseline commit named in tools/bench/ui-baseline.txt, interleaved in one run; fails when
# a case's click-to-DOM p50 on the head is more than BENCH_UI_MAX_RATIO (1.25) times the baseline's.
#
# The baseline is built from `git archive` of its commit in a temporary directory. Its node_modules:
# a symlink to this checkout's when the two package-lock.json files are the same (no install: the
# usual case); else `npm ci --ignore-scripts` there (a build needs no install scripts: the bundler's
# native parts come as packages). Both builds are served by this checkout's server.
# Settings: UI_GUARD_RUNS (7), UI_GUARD_CASES (sort, next page, open report, tick a row), and
# bench:ui's own (BENCH_UI_MAX_RATIO, BENCH_UI_MIN_DIFF_MS, CHROMIUM_PATH); UI_GUARD_HEAD_DIST: a
# build of the head already made (else it is built here).
set -euo pipefail
cd "$(dirname "$0")/.."

baseline="$(grep -v '^#' tools/bench/ui-baseline.txt | grep -v '^[[:space:]]*$' | head -n 1 | tr -d '[:space:]')"
if ! git cat-file -e "${baseline}^{commit}" 2>/dev/null; then
  echo "ui-guard: the baseline ${baseline:-(none)} in tools/bench/ui-baseline.txt is not a commit of this repository." >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/ui-guard-XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir "$work/base"
git archive "$baseline" | tar -x -C "$work/base"
if cmp -s package-lock.json "$work/base/package-lock.json"; then
  echo "ui-guard: baseline ${baseline:0:12} has the same package-lock.json: its build uses this checkout's node_modules"
  ln -s "$PWD/node_modules" "$work/base/node_modules"
else
  echo "ui-guard: baseline ${baseline:0:12} has another package-lock.json: npm ci --ignore-scripts for its build"
  (cd "$work/base" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
(cd "$work/base" && npx vite build --logLevel error --outDir "$work/base-dist")

head_dist="${UI_GUARD_HEAD_DIST:-}"
if [ -z "$head_dist" ]; then
  head_dist="$work/head-dist"
  npx vite build --logLevel error --outDir "$head_dist"
fi

BENCH_UI_DIST="$head_dist" \
  BENCH_UI_BASELINE_DIST="$work/base-dist" \
  BENCH_UI_RUNS="${UI_GUARD_RUNS:-7}" \
  BENCH_UI_WARMUP=2 \
  BENCH_UI_CASES="${UI_GUARD_CASES:-sort,next page,open report,tick a row}" \
  npx tsx tools/bench/bench-ui.ts
