#!/bin/sh
# make pgo's training games (tests/train_games.c): the same bytes on every
# run, in each encoding the same games, every move legal, and the cases the
# profile must see: checkmates, repetitions judged, records that repeat
# an earlier game's moves.
. tests/cli/lib.sh
BUILD=${BUILD:-build}
T=$BUILD/train_games
if [ ! -x "$T" ]; then echo "not ok - $T was not built (make check builds it)"; exit 0; fi

"$T" 300 big5 >"$TMP/a.pgn"; "$T" 300 big5 >"$TMP/b.pgn"
expect_eq "the same bytes on every run" "" "$(cmp "$TMP/a.pgn" "$TMP/b.pgn" 2>&1)"
"$T" 300 >"$TMP/u.pgn"
"$T" 300 gbk >"$TMP/g.pgn"
$BIN/xq-convert -q -n iccs "$TMP/a.pgn" >"$TMP/a.iccs"
$BIN/xq-convert -q -n iccs "$TMP/u.pgn" >"$TMP/u.iccs"
$BIN/xq-convert -q -n iccs "$TMP/g.pgn" >"$TMP/g.iccs"
expect_eq "Big5, GBK and UTF-8: the same games" "" "$(cmp "$TMP/a.iccs" "$TMP/u.iccs" 2>&1; cmp "$TMP/a.iccs" "$TMP/g.iccs" 2>&1)"

$BIN/xq-stats "$TMP/a.pgn" >"$TMP/stats" 2>&1
count() { sed -n "s/^  $1  *\([0-9][0-9]*\).*/\1/p" "$TMP/stats" | head -1; }
expect_eq "300 records, every move legal" "300 300" "$(count records) $(count 'valid (every move legal)')"
distinct=$(count 'distinct games by moves')
expect_eq "records that repeat an earlier game" "yes" "$([ "$distinct" -gt 100 ] && [ "$distinct" -lt 250 ] && echo yes)"
judged() { sed -n "s/^  $1  *\([0-9]*\)  *\([0-9]*\)  *\([0-9]*\).*/\1 \2 \3/p" "$TMP/stats" | awk '{print $1 + $2 + $3}'; }
expect_eq "checkmates and repetition verdicts" "yes yes" \
  "$([ "$(judged checkmate)" -gt 5 ] && echo yes) $([ "$(judged 'repetition (verdict)')" -gt 2 ] && echo yes)"
