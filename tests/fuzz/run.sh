#!/bin/sh
# Run libFuzzer targets: each first on its saved crashers
# (tests/fuzz/regressions/NAME/), then for FUZZ_SECONDS seconds from its
# seeds (tests/fuzz/corpus/NAME/ plus what earlier runs found, kept in
# build-fuzz/corpus/NAME/).  Any crash, hang (-timeout), leak, out-of-memory
# (-rss_limit_mb) or sanitizer report fails the run; the input is saved as
# build-fuzz/artifacts/NAME-crash-* (add it to tests/fuzz/regressions/NAME/
# once fixed).  Prints one line per target: seconds, runs, runs per second.
#
# usage: FUZZ_SECONDS=N sh tests/fuzz/run.sh build-fuzz/fuzz/fuzz_pgn ...
S=${FUZZ_SECONDS:-30}
out=build-fuzz/logs
mkdir -p "$out" build-fuzz/artifacts
failed=0
summary=""
for bin in "$@"; do
  name=$(basename "$bin")          # fuzz_pgn
  short=${name#fuzz_}              # pgn
  seeds=tests/fuzz/corpus/$short
  regs=tests/fuzz/regressions/$short
  work=build-fuzz/corpus/$short
  mkdir -p "$work"
  dict=""
  [ -f tests/fuzz/$short.dict ] && dict="-dict=tests/fuzz/$short.dict"
  common="-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536 -artifact_prefix=build-fuzz/artifacts/$name-"
  # 1. the saved crashers, once each
  if [ -d "$regs" ] && [ -n "$(ls "$regs")" ]; then
    if ! "$bin" $common "$regs"/* >"$out/$name.regressions.log" 2>&1; then
      echo "FAIL $name: a saved crasher fails again (see $out/$name.regressions.log)"
      grep -E 'ERROR|SUMMARY|fuzz check' "$out/$name.regressions.log" | head -5
      failed=1
      continue
    fi
  fi
  # extra seeds for the binary readers: the shared corpus's XQF, CBR/CBL
  # and DhtmlXQ files when present (copied into build-fuzz/, never into git)
  extra=""
  # the hostile inputs of corpus/broken/ seed the text readers (read only)
  case $short in pgn|xml) extra=corpus/broken ;; esac
  if [ "$short" = binary ] && [ -d "${SHARED:-../shared}/corpus" ]; then
    extra=build-fuzz/seeds-shared/binary
    mkdir -p "$extra"
    find "${SHARED:-../shared}/corpus" -type f -size -256k \( -iname '*.xqf' -o -iname '*.cbr' \
      -o -iname '*.cbl' -o -path '*dhtmlxq*' -name '*.txt' \) | while IFS= read -r f; do
      cp "$f" "$extra/$(echo "$f" | md5sum | cut -c1-16)"; done
  fi
  # 2. fuzz
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
  "$bin" $common $dict -max_total_time="$S" -print_final_stats=1 -close_fd_mask=1 \
    "$work" $( [ -d "$seeds" ] && echo "$seeds" ) $extra >"$out/$name.log" 2>&1
  st=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -1)
  secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/$name.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$out/$name.log" | tail -1)
  line="$name: ${S}s, ${runs:-?} runs, ${secs:-?} runs/s, $cov, corpus $(ls "$work" | wc -l) inputs"
  if [ $st -ne 0 ]; then
    echo "FAIL $line (exit $st, see $out/$name.log)"
    grep -E '^==[0-9]+==ERROR|SUMMARY|fuzz check|runtime error|Test unit written' "$out/$name.log" | head -8
    failed=1
  else
    echo "ok   $line"
  fi
done
exit $failed
