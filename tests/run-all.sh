#!/bin/sh
# Runs every cmocka unit-test binary given as arguments, then every
# command-line test script tests/cli/*.sh, and prints one closing line
# "N passed, N failed".  Exit status 0 only when nothing failed.
#
# CLI scripts use tests/cli/lib.sh and print one "ok - ..." or
# "not ok - ..." line per check, and "# skip: ..." for checks left out
# (a missing tool or corpus file).  Skipped tests are counted and named
# before the closing line: a run without ../shared passes, but says
# what it did not test.
passed=0 failed=0 skipped=0 skipped_in=
log=${BUILD:-build}/test-logs
mkdir -p "$log"
for t in "$@"; do
  name=$(basename "$t")
  "$t" >"$log/$name.out" 2>&1
  st=$?
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log/$name.out" | awk '{s+=$1} END {print s+0}')
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log/$name.out" | awk '{s+=$1} END {print s+0}')
  k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log/$name.out" | awk '{s+=$1} END {print s+0}')
  if [ $st -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or aborted
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
  [ "$k" -ne 0 ] && skipped_in="$skipped_in $name"
  if [ "$f" -ne 0 ]; then
    echo "FAIL $name (see $log/$name.out):"; grep -E '^\[  (FAILED|  ERROR) \]|error:|ERROR|Assert|Sanitizer|runtime error' "$log/$name.out" | head -20
  else
    echo "ok   $name: $p passed"
  fi
done
for s in tests/cli/*.sh; do
  [ -f "$s" ] || continue
  [ "$(basename "$s")" = lib.sh ] && continue
  name=$(basename "$s" .sh)
  BIN=${BIN:-bin} SHARED=${SHARED:-../shared} sh "$s" >"$log/cli-$name.out" 2>&1
  st=$?
  p=$(grep -c '^ok ' "$log/cli-$name.out")
  f=$(grep -c '^not ok ' "$log/cli-$name.out")
  k=$(grep -c '^# skip' "$log/cli-$name.out")
  if [ $st -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "cli $name exited $st"; fi
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
  [ "$k" -ne 0 ] && skipped_in="$skipped_in cli/$name"
  if [ "$f" -ne 0 ]; then
    echo "FAIL cli/$name (see $log/cli-$name.out):"; grep -A8 '^not ok ' "$log/cli-$name.out" | head -40
  else
    echo "ok   cli/$name: $p passed"
  fi
done
if [ "$skipped" -ne 0 ]; then
  echo "$skipped skipped (a tool or file they need is missing; see their logs in $log):$skipped_in"
  sh_dir=${SHARED:-../shared}
  [ -d "$sh_dir/corpus" ] || echo "note: $sh_dir/corpus is not there: the tests of the public corpus were skipped (make check SHARED=/path/to/shared)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
