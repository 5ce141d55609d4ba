#!/bin/sh
# xq-parse: syntax and decoding diagnostics, --tags TSV, --json, counts.
. tests/cli/lib.sh
P=$BIN/xq-parse

expect_status "broken.pgn exits 1" 1 $P corpus/broken.pgn
expect_eq "broken.pgn diagnostics" "corpus/broken.pgn:12:4: error: game 2: 馬二進四: horse leg blocked
corpus/broken.pgn:28:9: error: game 4: 將５平６: game already over: black is checkmated
corpus/broken.pgn:33:66: error: game 5: bad FEN tag: FEN board: more than 10 ranks (column 60)
corpus/broken.pgn:42:17: error: game 6: 象棋很好: unknown character '棋' (U+68CB) at column 2
corpus/broken.pgn:49:14: error: game 7: b9c7: wrong side to move: it is red's turn
corpus/broken.pgn:55:9: error: game 8: comment '{' not closed at end of input
8 games, 13 plies decoded: 6 errors in 6 games, 0 warnings" "$(cat $TMP/err)"

expect_status "edge cases parse clean" 0 $P corpus/edge-cases.pgn
expect_eq "edge cases summary" "8 games, 24 plies decoded: 0 errors in 0 games, 1 warning" "$(cat $TMP/err)"
expect_eq "--tags TSV" "corpus/edge-cases.pgn	1	*
corpus/edge-cases.pgn	2	*
corpus/edge-cases.pgn	3	1-0
corpus/edge-cases.pgn	4	*
corpus/edge-cases.pgn	5	*
corpus/edge-cases.pgn	6	*
corpus/edge-cases.pgn	7	*
corpus/edge-cases.pgn	8	" "$($P -q --tags Result corpus/edge-cases.pgn)"
expect_eq "--json: decoded ICCS of the tandem move" '"moves":[{"text":"車８平２","iccs":"h4b4"}]' \
  "$($P -q --json corpus/edge-cases.pgn | sed -n 2p | grep -o '"moves":\[[^]]*\]')"
expect_eq "--json: one line per game" 8 "$($P -q --json corpus/edge-cases.pgn | wc -l)"
# every finding counted, listed or not: 20 reader warnings fill a game's
# list of 16, and the illegal move after them is still an error (listed,
# in the place of the latest warning), the exit status 1
awk 'BEGIN { printf "[Event \"w\"]\n\n"; for (i = 0; i < 20; i++) printf ")\n"; printf "1. 炮二平五 馬8進7 2. 車一進五 *\n" }' > "$TMP/crowd.pgn"
expect_status "an error after 20 warnings exits 1" 1 $P "$TMP/crowd.pgn"
expect_eq "an error after 20 warnings: listed and counted" \
  "crowd.pgn:23:17: error: game 1: 車一進五: a piece stands in the way|1 game, 2 plies decoded: 1 error in 1 game, 20 warnings" \
  "$(sed "s|^$TMP/||" $TMP/err | paste -sd'|')"
expect_eq "-W: 15 warnings listed beside the error" 15 "$($P -W "$TMP/crowd.pgn" 2>&1 | grep -c ': warning: ')"
expect_eq "xq-stats counts the illegal move among the kinds" 1 \
  "$($BIN/xq-stats --json "$TMP/crowd.pgn" | grep -o '"findings":{"illegal-move":[0-9]*' | cut -d: -f3)"

# a game's diagnostics in input order, as xq-validate tells them (the
# reader's came first, an illegal move before them on the line after)
printf '1. 炮二平五 馬８進７ 2. 馬二進四 { *\n' > "$TMP/order.pgn"
expect_eq "diagnostics in input order: xq-parse, xq-convert, xq-validate" "1:17 1:22|1:17 1:22|1:17 1:22" \
  "$($P "$TMP/order.pgn" 2>&1 | grep -o ':1:[0-9]*: error' | cut -d: -f2,3 | paste -sd' ')|$($BIN/xq-convert "$TMP/order.pgn" 2>&1 >/dev/null | grep -o ':1:[0-9]*: error' | cut -d: -f2,3 | paste -sd' ')|$($BIN/xq-validate "$TMP/order.pgn" 2>&1 | grep -o ':1:[0-9]*: error' | cut -d: -f2,3 | paste -sd' ')"

expect_status "unknown option" 2 $P --bogus
expect_status "--help" 0 $P --help

if have_shared corpus/ccpd/masters.pgn.gz; then
  $P -q --tags Red,Black,Result $SHARED/corpus/ccpd/masters.pgn.gz > $TMP/tags 2>/dev/null
  expect_eq "masters: one TSV line per record" 53685 "$(wc -l < $TMP/tags)"
  $P $SHARED/corpus/ccpd/masters.pgn.gz > /dev/null 2> $TMP/err
  expect_eq "masters: summary" "53685 games, 4683603 plies decoded: 1 error in 1 game, 32870 warnings" "$(tail -1 $TMP/err)"
fi

# -j: the same output for every number of threads; -J is --json
if have_shared corpus/ccpd/middlegames.pgn.gz; then
  expect_eq "-j1 and -j2 JSON identical" "$($P -q -j1 -J $SHARED/corpus/ccpd/middlegames.pgn.gz | md5sum)" \
    "$($P -q -j2 --json $SHARED/corpus/ccpd/middlegames.pgn.gz | md5sum)"
fi

# xq-parse(1) says what xq-parse decodes on the board and so reports: every
# kind of finding it prints (is_parse_finding) but the reader's own, and a
# move after checkmate ("game already over"), which it reports
for kind in 'undecodable\-move' 'ambiguous\-move' 'illegal\-move' 'move\-after\-game\-end' 'tandem\-plain\-file'; do
  expect_eq "xq-parse(1) names the finding $kind" yes "$(grep -q -F -- "$kind" man/xq-parse.1 && echo yes)"
done
expect_eq "xq-parse reports a move after checkmate, as its page says" \
  "corpus/broken.pgn:28:9: error: game 4: 將５平６: game already over: black is checkmated" \
  "$("$BIN/xq-parse" -q corpus/broken.pgn 2>&1 | grep 'already over')"
# a FEN position where the side to move could take a general: no move can
# be decoded; reported as xq-validate reports it (the replay's one check)
printf '[FEN "4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1"]\n\n1. 帥四平五 *\n' > $TMP/incheck.pgn
expect_status "side not to move in check: an error" 1 $P $TMP/incheck.pgn
expect_eq "side not to move in check: the line and the summary" "$TMP/incheck.pgn:1:7: error: game 1: FEN position cannot arise: the side not to move is in check
1 game, 0 plies decoded: 1 error in 1 game, 0 warnings" "$(cat $TMP/err)"
expect_eq "side not to move in check: as xq-validate says it" "$(head -1 $TMP/err)" "$($BIN/xq-validate $TMP/incheck.pgn 2>&1 | head -1)"
# other impossible positions are replayed, their moves decoded: not
# xq-parse's (xq-validate reports them), a missing general included
printf '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1"]\n\n1. 炮二平五 *\n' > $TMP/nogeneral.pgn
expect_status "no red general: no error" 0 $P $TMP/nogeneral.pgn
expect_eq "no red general: one ply decoded" "1 game, 1 ply decoded: 0 errors in 0 games, 0 warnings" "$(cat $TMP/err)"
printf '[FEN "4k4/9/9/9/9/9/9/9/P8/3K5 w - - 0 1"]\n\n1. 帥六進一 *\n' > $TMP/soldier.pgn
expect_status "a soldier behind its start rank: no error" 0 $P -W $TMP/soldier.pgn
expect_eq "a soldier behind its start rank: one ply decoded" "1 game, 1 ply decoded: 0 errors in 0 games, 0 warnings" "$(cat $TMP/err)"
# --tags values as the diagnostics write a name (xq_name_put): an escape
# sequence, a tab and a backslash escaped when the value holds a control
# character; a value without one as it is, backslash and all
printf '[Event "a\033[31mred\tx\\\\y"]\n[Site "c:\\\\d"]\n\n1. 炮二平五 *\n' > $TMP/ctl.pgn
expect_eq "--tags: control characters escaped" 'a\033[31mred\tx\\y	c:\d' "$($P -q --tags Event,Site $TMP/ctl.pgn | cut -f3-)"
# summary and report lines in the singular for one
printf '1. 炮二平五 *\n' > $TMP/one.pgn
$P $TMP/one.pgn >/dev/null 2>$TMP/err
expect_eq "one game, one ply" "1 game, 1 ply decoded: 0 errors in 0 games, 0 warnings" "$(cat $TMP/err)"
expect_eq "xq-stats: one ECCO code" "Openings (ECCO; 1 code)" "$($BIN/xq-stats $TMP/one.pgn | grep '^Openings')"
printf '[Event "E"]\n[Red "A"]\n[Black "B"]\n[Result "1-0"]\n1. 炮二平五 1-0\n' > $TMP/one.pgn
expect_eq "xq-stats: one event game" 'Event "E": 2 players, 1 game' "$($BIN/xq-stats --event E $TMP/one.pgn | grep '^Event "E"')"
