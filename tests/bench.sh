#!/bin/sh
# make bench: speed of each tool's main path on the public master games,
# with the floors (zcat, cat) and the anchor (pgn-extract on chess games)
# measured in the same run, so the figures mean something on a noisy
# machine.  Prints medians of RUNS runs; the 10x input runs once.
#
#   SHARED  path of ../shared (default ../shared)
#   BIN     where the optimised tools are (make bench builds bin/ with make pgo and uses it)
#   BUILD_KIND  how they were built, for the heading (make bench: "make pgo")
#   RUNS    runs per figure on the 1x input (default 5)
#   SCALE   copies of masters.pgn for the large input (default 10; 0 skips it)
#   SMALL   games written one per file for the many-small-files line
#           (default 2000; 0 skips it)
set -u
SHARED=${SHARED:-../shared}
BIN=${BIN:-bin}
RUNS=${RUNS:-5}
SCALE=${SCALE:-10}
SMALL=${SMALL:-2000}
GZ=$SHARED/corpus/ccpd/masters.pgn.gz
CHESS=$SHARED/bench/chess-15842.pgn.gz
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ ! -f "$GZ" ]; then echo "bench: $GZ not found (set SHARED)"; exit 2; fi

zcat "$GZ" > "$TMP/masters.pgn"
BYTES=$(wc -c < "$TMP/masters.pgn")
GAMES=53685
# plies decoded, from xq-parse's summary line ("N games, P plies decoded: ...")
PLIES=$("$BIN/xq-parse" "$GZ" 2>&1 >/dev/null | sed -n 's/^[0-9]* games, \([0-9]*\) plies decoded.*/\1/p')

# run_one CMD... : prints "seconds peak_kib" of one run (output discarded);
# the wall time from the clock in nanoseconds (GNU time's %e has 10 ms
# steps, as long as cat of the whole file takes), the peak from GNU time
run_one() {
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$TMP/time" "$@" >/dev/null 2>&1
  t1=$(date +%s%N)
  # GNU time puts "Command exited with non-zero status N" first
  echo "$(( (t1 - t0) / 1000 )) $(tail -n 1 "$TMP/time")" | awk '{ printf "%.4f %s\n", $1 / 1e6, $2 }'
}

# median N CMD... : median wall seconds and max peak RSS over N runs
median() {
  n=$1; shift
  i=0; : > "$TMP/runs"
  while [ $i -lt "$n" ]; do run_one "$@" >> "$TMP/runs"; i=$((i + 1)); done
  sort -n "$TMP/runs" | awk '{t[NR]=$1; if ($2>m) m=$2} END {print t[int((NR+1)/2)], m}'
}

# report LABEL SECONDS PEAK_KIB GAMES PLIES BYTES FLOOR_SECONDS (0: a floor
# or an anchor, no ratio)
report() {
  awk -v l="$1" -v s="$2" -v m="$3" -v g="$4" -v p="$5" -v b="$6" -v f="$7" 'BEGIN {
    if (s <= 0) s = 0.0001;
    printf "%-38s %7.3f s %9.0f games/s %6.2f M plies/s %7.1f MB/s %6.0f MiB", l, s, g / s, p / s / 1e6, b / s / 1e6, m / 1024
    if (f > 0) printf "  %5.1fx floor", s / f
    printf "\n" }'
}

echo "build: ${BUILD_KIND:-the tools in $BIN} ($("$BIN/xq-validate" --version 2>/dev/null | head -1))"
echo "input: masters.pgn.gz, $GAMES games, $PLIES plies, $BYTES bytes uncompressed (Big5)"
# the load when the run starts: other work on the machine slows every
# figure below (the floors and the anchor too: compare within one run)
LOAD=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
echo "machine: $(nproc) CPUs, load average $LOAD at the start; medians of $RUNS runs"
awk -v l="$LOAD" -v n="$(nproc)" 'BEGIN { if (l > n / 2)
  printf "warning: the machine is busy (load %s on %d CPUs): figures are slower than on an idle machine\n", l, n }'
echo "columns: wall time, games/s, plies/s, MB/s of input, peak memory; 'Nx floor': the time over the"
echo "floor's (zcat of the same gz input, or cat of the same file): how far from just reading the bytes"
echo
set -- $(median "$RUNS" sh -c "zcat '$GZ'")
ZCAT=$1
report "floor: zcat masters.pgn.gz" "$1" "$2" $GAMES "$PLIES" "$BYTES" 0
set -- $(median "$RUNS" cat "$TMP/masters.pgn")
CAT=$1
report "floor: cat masters.pgn" "$1" "$2" $GAMES "$PLIES" "$BYTES" 0

LAST=0 LAST_RSS=0   # seconds and peak KiB of the last bench_tool run
bench_tool() {   # LABEL FLOOR CMD...
  label=$1 floor=$2; shift 2
  if [ ! -x "$1" ]; then echo "$label: $1 not built, skipped"; LAST=0 LAST_RSS=0; return; fi
  set -- $(median "$RUNS" "$@")
  LAST=$1 LAST_RSS=$2
  report "$label" "$1" "$2" $GAMES "$PLIES" "$BYTES" "$floor"
}
for j in 1 2; do
  bench_tool "xq-validate -j$j (gz)" "$ZCAT" "$BIN/xq-validate" -q -j$j "$GZ"
  eval "GZ_J$j=\$LAST"
  bench_tool "xq-validate -j$j (Big5 file)" "$CAT" "$BIN/xq-validate" -q -j$j "$TMP/masters.pgn"
  eval "FILE_J$j=\$LAST FILE_RSS_J$j=\$LAST_RSS"
done
# per core: the CPUs of this machine need not be alike (a virtual
# machine's share their hosts' cores with other work: here one ran perft
# 1.7x slower than the other for an hour): -j1 pinned to each (taskset),
# and pgn-extract below too, so that a figure is compared on one core
per_cpu() {   # LABEL PLIES CMD...: "LABEL per CPU: cpu0 X M plies/s, ..."; BEST the fastest's
  label=$1 plies=$2; shift 2
  BEST=0
  command -v taskset >/dev/null 2>&1 || return 0
  line="$label per CPU:" c=0
  while [ $c -lt "$(nproc)" ]; do
    set -- $(median "$RUNS" taskset -c $c "$@") "$@"
    r=$(awk -v p="$plies" -v s="$1" 'BEGIN { printf "%.2f", p / s / 1e6 }')
    line="$line cpu$c $r M plies/s"
    BEST=$(awk -v a="$BEST" -v b="$r" 'BEGIN { print (b > a ? b : a) }')
    shift 2
    c=$((c + 1))
  done
  echo "$line"
}
per_cpu "xq-validate -j1 (Big5 file)" "$PLIES" "$BIN/xq-validate" -q -j1 "$TMP/masters.pgn"
BEST_XQ=$BEST
# -j not given: on a gzip file one thread fewer than the CPUs, as a
# thread of its own inflates it (pipeline.h xq_pipeline_threads)
bench_tool "xq-validate, default -j (gz)" "$ZCAT" "$BIN/xq-validate" -q "$GZ"
# the speed-up of the second core, and how much of the gzip run is decompression alone
awk -v f1="$FILE_J1" -v f2="$FILE_J2" -v g1="$GZ_J1" -v g2="$GZ_J2" -v z="$ZCAT" 'BEGIN {
  if (f2 > 0 && g2 > 0)
    printf "speed-up of -j2 over -j1: %.2fx (Big5 file), %.2fx (gz); decompressing alone (zcat) takes %.0f%% of the -j2 gz time%s\n",
      f1 / f2, g1 / g2, 100 * z / g2, (z / g2 > 0.85 ? ": decompression is the limit for gzip input" : "") }'
# the same file with each game once (a record whose moves an earlier one
# has, tags aside, left out): the replay takes a repeated main line from
# its memo, and about half of masters.pgn repeats another game, so this
# is the speed on games that are all new
awk '/^\[Game /{ if (r != "" && !seen[m]++) printf "%s", r; r = ""; m = "" }
  { r = r $0 "\n"; if ($0 !~ /^\[/) m = m $0 "\n" }
  END { if (r != "" && !seen[m]++) printf "%s", r }' "$TMP/masters.pgn" > "$TMP/once.pgn"
set -- $("$BIN/xq-parse" "$TMP/once.pgn" 2>&1 >/dev/null | sed -n 's/^\([0-9]*\) games, \([0-9]*\) plies decoded.*/\1 \2/p')
ONCE_GAMES=${1:-0} ONCE_PLIES=${2:-0}
set -- $(median "$RUNS" cat "$TMP/once.pgn")
ONCE_CAT=$1
set -- $(median "$RUNS" "$BIN/xq-validate" -q -j1 "$TMP/once.pgn")
report "xq-validate -j1, each game once ($ONCE_GAMES)" "$1" "$2" "$ONCE_GAMES" "$ONCE_PLIES" "$(wc -c < "$TMP/once.pgn")" "$ONCE_CAT"
# the same games in UTF-8 (real databases come in Big5, GBK and UTF-8):
# its own cat floor, as the file is longer
if iconv -f BIG5 -t UTF-8 "$TMP/masters.pgn" > "$TMP/masters-u8.pgn" 2>/dev/null; then
  U8_BYTES=$(wc -c < "$TMP/masters-u8.pgn")
  set -- $(median "$RUNS" cat "$TMP/masters-u8.pgn")
  U8_CAT=$1
  report "floor: cat of the UTF-8 file" "$1" "$2" $GAMES "$PLIES" "$U8_BYTES" 0
  set -- $(median "$RUNS" "$BIN/xq-validate" -q -j1 "$TMP/masters-u8.pgn")
  report "xq-validate -j1 (UTF-8 file)" "$1" "$2" $GAMES "$PLIES" "$U8_BYTES" "$U8_CAT"
  rm -f "$TMP/masters-u8.pgn"
else
  echo "xq-validate -j1 (UTF-8 file): iconv could not convert masters.pgn, skipped"
fi
bench_tool "xq-parse (Big5 file)" "$CAT" "$BIN/xq-parse" -q "$TMP/masters.pgn"
bench_tool "xq-convert --to xml -j2" "$CAT" "$BIN/xq-convert" -q -j2 --to xml "$TMP/masters.pgn"
bench_tool "xq-convert --to pgn iccs -j2" "$CAT" "$BIN/xq-convert" -q -j2 --to pgn --notation iccs "$TMP/masters.pgn"
bench_tool "xq-stats -j2" "$CAT" "$BIN/xq-stats" -j2 "$TMP/masters.pgn"

# many small files: the first SMALL games, one file each (what a fuzzer or
# a directory of downloaded games gives): the cost per file must stay
# small next to the cost of its game (a per-file set-up cost shows here,
# not on one big file)
if [ "$SMALL" -gt 0 ]; then
  echo
  mkdir "$TMP/small"
  awk -v d="$TMP/small" -v n="$SMALL" '/^\[Game /{ if (f) close(f); if (++i > n) exit; f = sprintf("%s/g%05d.pgn", d, i) }
    f { print > f }' "$TMP/masters.pgn"
  SMALL_BYTES=$(cat "$TMP/small"/*.pgn | wc -c)
  SMALL_PLIES=$("$BIN/xq-parse" "$TMP/small"/*.pgn 2>&1 >/dev/null |
    sed -n 's/^[0-9]* games, \([0-9]*\) plies decoded.*/\1/p')
  set -- $(median "$RUNS" sh -c "cat '$TMP/small'/*.pgn")
  SMALL_CAT=$1
  report "floor: cat $SMALL files" "$1" "$2" "$SMALL" "$SMALL_PLIES" "$SMALL_BYTES" 0
  set -- $(median "$RUNS" sh -c "'$BIN/xq-validate' -q -j1 '$TMP/small'/*.pgn")
  report "xq-validate -j1, $SMALL files" "$1" "$2" "$SMALL" "$SMALL_PLIES" "$SMALL_BYTES" "$SMALL_CAT"
  # the default -j (every CPU): a file of one batch starts no thread
  set -- $(median "$RUNS" sh -c "'$BIN/xq-validate' -q '$TMP/small'/*.pgn")
  report "xq-validate (default -j), $SMALL files" "$1" "$2" "$SMALL" "$SMALL_PLIES" "$SMALL_BYTES" "$SMALL_CAT"
fi

if [ "$SCALE" -gt 0 ]; then
  echo
  i=0; : > "$TMP/big.pgn"
  while [ $i -lt "$SCALE" ]; do cat "$TMP/masters.pgn" >> "$TMP/big.pgn"; i=$((i + 1)); done
  set -- $(median 1 cat "$TMP/big.pgn")
  BIGCAT=$1
  report "floor: cat ${SCALE}x" "$1" "$2" $((GAMES * SCALE)) $((PLIES * SCALE)) $((BYTES * SCALE)) 0
  set -- $(median 1 "$BIN/xq-validate" -q -j2 "$TMP/big.pgn")
  BIG_RSS=$2
  report "xq-validate -j2 ${SCALE}x (Big5 file)" "$1" "$2" $((GAMES * SCALE)) $((PLIES * SCALE)) $((BYTES * SCALE)) "$BIGCAT"
fi

# instructions per ply: stable where wall times are not (valgrind's
# callgrind counts them; skipped without valgrind)
if command -v valgrind >/dev/null 2>&1; then
  echo
  head -c 7000000 "$TMP/masters.pgn" > "$TMP/sample.pgn"   # the first 5,255 games
  SP=$("$BIN/xq-parse" "$TMP/sample.pgn" 2>&1 >/dev/null | sed -n 's/^[0-9]* games, \([0-9]*\) plies decoded.*/\1/p')
  valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" "$BIN/xq-validate" -q -j1 "$TMP/sample.pgn" \
    >/dev/null 2>"$TMP/cg.err"
  IR=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$TMP/cg.err")
  [ -n "$IR" ] || IR=$(grep -o 'refs: *[0-9,]*' "$TMP/cg.err" | tr -dc 0-9)
  awk -v ir="$IR" -v p="$SP" 'BEGIN { if (ir > 0 && p > 0)
    printf "xq-validate -j1 instructions: %.0f per ply (callgrind, first 7 MB of masters: %d plies)\n", ir / p, p }'
fi

echo
set -- $(median 1 "$BIN/xq-validate" --perft 5)
PERFT=$1
awk -v s="$1" 'BEGIN { printf "perft 5 from the start position: 133312995 nodes in %.2f s = %.1f M nodes/s (one core)\n", s, 133312995 / s / 1e6 }'

echo
PATH=$PATH:/usr/games   # where Debian puts pgn-extract
if ! command -v pgn-extract >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  (apt-get install -y -qq pgn-extract || (apt-get update -qq && apt-get install -y -qq pgn-extract)) >/dev/null 2>&1
fi
if command -v pgn-extract >/dev/null 2>&1 && [ -f "$CHESS" ]; then
  zcat "$CHESS" > "$TMP/chess.pgn"
  CP=1326381 CB=$(wc -c < "$TMP/chess.pgn")
  set -- $(median "$RUNS" pgn-extract -s --quiet -o /dev/null "$TMP/chess.pgn")
  report "anchor: pgn-extract validate+write" "$1" "$2" 15842 $CP "$CB" 0
  set -- $(median "$RUNS" pgn-extract -r -s --quiet "$TMP/chess.pgn")
  ANCHOR=$(awk -v s="$1" -v p=$CP 'BEGIN { printf "%.2f", p / s / 1e6 }')
  report "anchor: pgn-extract -r (validate)" "$1" "$2" 15842 $CP "$CB" 0
  per_cpu "anchor: pgn-extract -r" "$CP" pgn-extract -r -s --quiet "$TMP/chess.pgn"
  BEST_ANCHOR=$BEST
  echo "(the anchor: pgn-extract, the batch tool of chess records, checking 15,842 chess games on this"
  echo " machine in the same run: the figure of the field to compare plies/s with)"
else
  ANCHOR=
  echo "anchor: pgn-extract or $CHESS not available, skipped"
fi

# the goals (issue #8: per core, this machine), met or not, in this run
echo
echo "goals:"
awk -v f="$FILE_J1" -v p="$PLIES" -v a="$ANCHOR" 'BEGIN { if (f > 0) { r = p / f / 1e6
  printf "  xq-validate -j1 on the Big5 file: %.1f M plies/s, goal 20 M: %s (%.0f%%)", r, (r >= 20 ? "met" : "NOT met"), 5 * r
  if (a != "") printf "; %.1fx pgn-extract -r", r / a
  printf "\n" } }'
awk -v x="${BEST_XQ:-0}" -v a="${BEST_ANCHOR:-0}" 'BEGIN { if (x > 0) {
  printf "  the same on its fastest CPU: %.1f M plies/s: %s (%.0f%%)", x, (x >= 20 ? "met" : "NOT met"), 5 * x
  if (a > 0) printf "; %.1fx pgn-extract -r on its fastest", x / a
  printf "\n" } }'
awk -v s="$PERFT" 'BEGIN { if (s > 0) { r = 133312995 / s / 1e6
  printf "  perft: %.1f M nodes/s, goal 50 M: %s (%.0f%%)\n", r, (r >= 50 ? "met" : "NOT met"), 2 * r } }'
if [ "$SCALE" -gt 0 ]; then
  awk -v a="$FILE_RSS_J2" -v b="${BIG_RSS:-0}" -v k="$SCALE" 'BEGIN { if (a > 0 && b > 0)
    printf "  memory flat: -j2 peak %.0f MiB on the %dx input against %.0f MiB on 1x: %s\n", b / 1024, k, a / 1024,
      (b <= a * 1.25 + 4096 ? "met" : "NOT met") }'
fi
