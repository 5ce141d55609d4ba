#!/bin/sh
# XQF, CBR/CBL and DhtmlXQ through the tools (formats.md §1f): format
# detection by content, the summary of xq-validate on every public test
# file, the diagnostics of the broken and damaged files, --keep with the
# original bytes, and the XQF and DhtmlXQ writers (round trips).
. tests/cli/lib.sh
V=$BIN/xq-validate
C=$BIN/xq-convert
TD=$SHARED/corpus/cchess-testdata

# summary "NAME|LINE": the last stderr line of xq-validate on each file
if have_shared corpus/cchess-testdata/test.xqf; then
  while IFS='|' read -r f want; do
    $V "$TD/$f" >/dev/null 2>"$TMP/err"
    expect_eq "xq-validate $f" "$want" "$(tail -1 "$TMP/err")"
  done <<'EOF'
test.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
test1.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
BadMoveTest1.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
BadMoveTest2.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
BadMoveTest3.xqf|1 game: 0 valid, 1 with errors, 0 unreadable
BadMoveTest4.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
EmptyTest.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
NoMove.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
FiveGoatsTest.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
WildHouse.xqf|1 game: 0 valid, 1 with errors, 0 unreadable
game_test.xqf|1 game: 1 valid, 0 with errors, 0 unreadable; 1 warning (-W shows them)
ucci_test1.xqf|1 game: 1 valid, 0 with errors, 0 unreadable
test.cbr|1 game: 1 valid, 0 with errors, 0 unreadable
test2.cbr|1 game: 1 valid, 0 with errors, 0 unreadable
1956年全国象棋锦标赛93局.CBL|93 games: 93 valid, 0 with errors, 0 unreadable
1989年龙化杯象棋名师邀请赛35局.CBL|38 games: 36 valid, 2 with errors, 0 unreadable; 3 warnings (-W shows them)
EOF

  $V -q "$TD/BadMoveTest3.xqf" 2>"$TMP/err"
  expect_eq "BadMoveTest3: the illegal 10th ply" \
    "$TD/BadMoveTest3.xqf:1:1: error: game 1, ply 10 (5... e1f0): no piece on e1; FEN before: 2P6/3k5/3aNa3/9/6p2/6P2/9/3A5/9/4KA3 b - - 0 5" \
    "$(cat "$TMP/err")"
  $V -q -W "$TD/game_test.xqf" 2>"$TMP/err"
  expect_eq "game_test: a bad GBK sequence in a comment" \
    "$TD/game_test.xqf:1:1: warning: game 1: XQF comment at byte 1032: 1 invalid GBK sequences replaced by U+FFFD" \
    "$(cat "$TMP/err")"
  $V -q -W "$TD/1989年龙化杯象棋名师邀请赛35局.CBL" 2>"$TMP/err"
  expect_eq "1989 CBL: two section headings" 2 "$(grep -c 'a section heading of the library, not a game' "$TMP/err")"

  # by content, never by name: an XQF called .pgn, a CBL called .txt, stdin, gzip
  cp "$TD/test.xqf" "$TMP/game.pgn"
  expect_status "XQF named .pgn" 0 $V "$TMP/game.pgn"
  cp "$TD/1956年全国象棋锦标赛93局.CBL" "$TMP/lib.txt"
  $V "$TMP/lib.txt" 2>"$TMP/err"
  expect_eq "CBL named .txt" "93 games: 93 valid, 0 with errors, 0 unreadable" "$(tail -1 "$TMP/err")"
  expect_status "XQF on standard input" 0 sh -c "$V < '$TD/test.xqf'"
  gzip -c "$TD/test.cbr" > "$TMP/r.gz"
  expect_status "gzipped CBR" 0 $V "$TMP/r.gz"

  # damaged files: a diagnostic with the byte offset, exit 1, no crash
  head -c 1100 "$TD/test.xqf" > "$TMP/cut.xqf"
  expect_status "cut XQF exits 1" 1 $V -q "$TMP/cut.xqf"
  expect_eq "cut XQF diagnostic" \
    "$TMP/cut.xqf:1:1: error: game 1 (\"中立杯\"象棋电视快棋赛; 柳大华 vs 吕  钦; 1997年11月16日): XQF comment length at byte 1028 is 440, but 68 bytes are left in the file; moves read so far are kept" \
    "$(cat "$TMP/err")"
  head -c 2230 "$TD/test.cbr" > "$TMP/cut.cbr"
  expect_status "cut CBR exits 1" 1 $V -q "$TMP/cut.cbr"
  expect_eq "cut CBR diagnostic" \
    "$TMP/cut.cbr:1:1: error: game 1: CBR record ends at byte 2230 where a move record was announced; moves read so far are kept" \
    "$(cat "$TMP/err")"
  head -c 120000 "$TD/1956年全国象棋锦标赛93局.CBL" > "$TMP/cut.cbl"
  $V "$TMP/cut.cbl" 2>"$TMP/err"
  expect_eq "cut CBL: the whole games and the cut one" "5 games: 4 valid, 1 with errors, 0 unreadable" "$(tail -1 "$TMP/err")"

  # --keep of binary records (XQF, CBR, CBL): one XML document, which reads
  # back as every kept game (their bytes run together read back as one);
  # after PGN records, as PGN
  $V -q --keep valid "$TD/test.xqf" > "$TMP/kept.xml"
  expect_eq "keep: an XQF game as XML, the same moves" "$($C -q -n iccs "$TD/test.xqf")" "$($C -q -n iccs "$TMP/kept.xml")"
  $V -q --keep valid "$TD/1956年全国象棋锦标赛93局.CBL" > "$TMP/kept-cbl.xml" 2>/dev/null
  expect_eq "keep: a CBL's 93 games read back" "93 games: 93 valid, 0 with errors, 0 unreadable" "$($V "$TMP/kept-cbl.xml" 2>&1)"
  $V -q --keep valid "$TD/test.xqf" "$TD/test1.xqf" "$TD/1989年龙化杯象棋名师邀请赛35局.CBL" > "$TMP/kept-bin.xml" 2>/dev/null
  expect_eq "keep: XQF files and a CBL, every valid game" "$($V -r json "$TD/test.xqf" "$TD/test1.xqf" "$TD/1989年龙化杯象棋名师邀请赛35局.CBL" 2>/dev/null | grep -c '"class":"valid"')" \
    "$($V -r json "$TMP/kept-bin.xml" 2>/dev/null | grep -c '"class":"valid"')"
  $V -q --keep valid corpus/sample-games.pgn "$TD/test.xqf" > "$TMP/kept-mix.pgn"
  expect_eq "keep: PGN then XQF, one PGN database" "4 games: 4 valid, 0 with errors, 0 unreadable" "$($V "$TMP/kept-mix.pgn" 2>&1)"

  # the XQF writer: version 10, read back to the same moves (variations too)
  for f in test.xqf game_varations.xqf FiveGoatsTest.xqf ucci_test2.xqf; do
    $C -q -t xqf "$TD/$f" > "$TMP/w.xqf"
    expect_eq "xqf round trip $f" "$($C -q -n iccs "$TD/$f" | sed 1d)" "$($C -q -n iccs "$TMP/w.xqf" | sed 1d)"
  done
  expect_eq "xqf written as version 10" "58510a" "$(head -c 3 "$TMP/w.xqf" | od -An -tx1 | tr -d ' \n')"
  $C -q -t xqf "$TD/test.cbr" > "$TMP/cbr.xqf"
  expect_eq "CBR to XQF keeps the tree" "$($C -q -n iccs "$TD/test.cbr")" "$($C -q -n iccs "$TMP/cbr.xqf")"

  # the DhtmlXQ writer: into a web page and back
  $C -q -t dhtmlxq "$TD/game_varations.xqf" > "$TMP/g.txt"
  expect_eq "dhtmlxq block" "[DhtmlXQ]" "$(head -1 "$TMP/g.txt")"
  { echo '<html><body><p>棋谱</p>'; cat "$TMP/g.txt"; echo '</body></html>'; } > "$TMP/page.html"
  expect_eq "dhtmlxq in a page, read back" "$($C -q -n iccs "$TD/game_varations.xqf")" "$($C -q -n iccs "$TMP/page.html")"
  $C -q -t dhtmlxq "$TD/1956年全国象棋锦标赛93局.CBL" > "$TMP/all.txt"
  $V "$TMP/all.txt" 2>"$TMP/err"
  expect_eq "93 CBL games as DhtmlXQ blocks" "93 games: 93 valid, 0 with errors, 0 unreadable" "$(tail -1 "$TMP/err")"
fi

if have_shared corpus/dhtmlxq/dhtmlxq.txt; then
  D=$SHARED/corpus/dhtmlxq/dhtmlxq.txt
  $V "$D" 2>"$TMP/err"
  # variations are replayed too: the one illegal move of its 1,446 variations
  expect_eq "xq-validate dhtmlxq.txt" "$D:1517:244: error: game 1: variation at ply 65 (e2g4): general left in check
1 game: 0 valid, 1 with errors, 0 unreadable" "$(cat "$TMP/err")"
  $C -q -t dhtmlxq "$D" > "$TMP/d1.txt" 2>"$TMP/err"
  expect_eq "dhtmlxq.txt: its one illegal variation move is reported" \
    "$D:1517:244: error: game 1: variation at ply 65 (e2g4): e2g4 is illegal: general left in check; later moves not written
$D:1:1: note: game 1: dhtmlxq cannot hold untranslated moves: 4 dropped" \
    "$(cat "$TMP/err")"
  $C -q -t dhtmlxq "$TMP/d1.txt" > "$TMP/d2.txt"
  expect_eq "dhtmlxq.txt written twice: the same bytes" "$(cksum < "$TMP/d1.txt")" "$(cksum < "$TMP/d2.txt")"
fi

# our XML quoting "[DhtmlXQ" in a comment or a tag value is XML (its
# namespace decides), not an HTML page carrying DhtmlXQ: every game is read
printf '[Game "Chinese Chess"]\n[Event "[DhtmlXQ_title]t[/DhtmlXQ_title]"]\n\n1. 炮二平五 {see [DhtmlXQ] pages} 馬８進７ *\n\n[Game "Chinese Chess"]\n\n1. 兵七進一 *\n' > "$TMP/dq.pgn"
$C -q --to xml "$TMP/dq.pgn" > "$TMP/dq.xml"
expect_eq "XML quoting [DhtmlXQ: both games read" "2 games: 2 valid, 0 with errors, 0 unreadable" "$($V "$TMP/dq.xml" 2>&1)"
expect_eq "XML quoting [DhtmlXQ: the same games as the PGN" "$($C -q --to pgn "$TMP/dq.pgn")" "$($C -q --to pgn "$TMP/dq.xml")"
# an HTML page carrying DhtmlXQ that names our namespace in its text is
# still DhtmlXQ: only the root element's namespace makes our XML
printf '<html><body>\n<p>Also as xq-tools XML (namespace urn:xq-tools:game:1).</p>\n[DhtmlXQ]\n[DhtmlXQ_title]t[/DhtmlXQ_title]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n</body></html>\n' > "$TMP/ns.html"
expect_eq "a DhtmlXQ page naming our namespace: DhtmlXQ" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($V "$TMP/ns.html" 2>&1)"
