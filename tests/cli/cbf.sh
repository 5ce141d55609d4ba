#!/bin/sh
# 象棋橋 CBF records (cbf_read.h) through the tools: the two public corpus
# files valid, their tags and results, stdin and gzip, recognised by
# content even when a comment quotes [DhtmlXQ], xq-convert --from cbf,
# --keep (written as our XML, which reads back to the same moves), and
# broken copies: a bad value and a cut document give their line and
# column, and the games of the files before them are kept.
. tests/cli/lib.sh
V=$BIN/xq-validate
C=$BIN/xq-convert
P=$BIN/xq-parse
TD=$SHARED/corpus/cchess-testdata

if have_shared corpus/cchess-testdata/test.cbf; then
  for f in test.cbf test2.cbf; do
    expect_status "xq-validate $f exits 0" 0 $V -W "$TD/$f"
    expect_eq "xq-validate $f summary" "1 game: 1 valid, 0 with errors, 0 unreadable" "$(cat "$TMP/err")"
  done
  expect_eq "tags and results" \
"1	第一局 屏风马巡河炮抵当头炮局(和)	居荣鑫《象棋古谱全局三种》	C03	*
1	第十局 当头炮抵当头炮局(和)		D04	1/2-1/2" \
    "$($P -q --tags Title,Event,ECCO,Result "$TD/test.cbf" "$TD/test2.cbf" | cut -f2-)"
  $C -q --to ucci "$TD/test2.cbf" > "$TMP/ucci"
  expect_eq "test2.cbf: 75 plies, h2e2 first, c3c6 last" "75 h2e2 c3c6" \
    "$(tr ' ' '\n' < "$TMP/ucci" | sed -n '/^moves$/,$p' | sed 1d | awk '{ n++; if (n == 1) f = $0; l = $0 } END { print n, f, l }')"
  $C -q "$TD/test.cbf" > "$TMP/pgn"
  expect_eq "test.cbf as PGN: the start's comment, 炮二平五 first" "{中炮横车盘头马对屏风马双炮巡河}
1. 炮二平五 马８进７" "$(grep -A1 '^{中炮' "$TMP/pgn")"

  # by content, on standard input, gzipped; --from cbf as --from xml
  expect_status "CBF on standard input" 0 sh -c "$V < '$TD/test.cbf'"
  gzip -c "$TD/test2.cbf" > "$TMP/g.gz"
  expect_status "gzipped CBF" 0 $V "$TMP/g.gz"
  sed 's/中炮横车盘头马对屏风马双炮巡河/see [DhtmlXQ]/' "$TD/test.cbf" > "$TMP/dh.cbf"
  $V "$TMP/dh.cbf" 2>"$TMP/err"
  expect_eq "a comment quoting [DhtmlXQ] stays CBF" "1 game: 1 valid, 0 with errors, 0 unreadable" "$(cat "$TMP/err")"
  expect_eq "--from cbf is --from xml" "$($C -q --from xml --to ucci "$TD/test.cbf")" "$($C -q --from cbf --to ucci "$TD/test.cbf")"
  $C --from cbff "$TD/test.cbf" 2>"$TMP/err"
  expect_eq "--from lists cbf" "xq-convert: unknown input format 'cbff' (auto, pgn, xml, cbf or jsonl)" "$(head -1 "$TMP/err")"

  # --keep: our XML, the same moves
  $V -q --keep valid "$TD/test.cbf" "$TD/test2.cbf" > "$TMP/kept.xml"
  expect_eq "--keep writes the CBF games as XML with the same moves" \
    "$($C -q --to ucci "$TD/test.cbf" "$TD/test2.cbf")" "$($C -q --to ucci "$TMP/kept.xml")"

  # broken: a square off the board, a cut document
  sed 's/"63-64"/"63-94"/' "$TD/test.cbf" > "$TMP/bad.cbf"
  expect_status "a move off the board exits 1" 1 $V -q "$TMP/bad.cbf"
  expect_eq "a move off the board: its line" \
    "$TMP/bad.cbf:43:1: error: game 1 (居荣鑫《象棋古谱全局三种》): CBF <Move> value \"63-94\" has file 9, off the board (files 0-8); this move and the ones after it are dropped" \
    "$(cat "$TMP/err")"
  head -c 2000 "$TD/test.cbf" > "$TMP/cut.cbf"
  $V "$TD/test2.cbf" "$TMP/cut.cbf" "$TD/test.cbf" 2>"$TMP/err"; st=$?
  expect_eq "a cut CBF exits 2" 2 "$st"
  expect_eq "a cut CBF: the game as far as read, the error's place, the other files kept" \
"$TMP/cut.cbf:55:32: error: game 1 (居荣鑫《象棋古谱全局三种》): XML error: the document ends early: <Move> (line 55) is not closed; the record is cut here
xq-validate: $TMP/cut.cbf:55:32: XML error: the document ends early: <Move> (line 55) is not closed
3 games: 2 valid, 1 with errors, 0 unreadable" "$(cat "$TMP/err")"
  $C -q --to ucci "$TMP/cut.cbf" 2>/dev/null > "$TMP/ucci"
  expect_eq "a cut CBF: its 16 plies before the cut" 16 \
    "$(tr ' ' '\n' < "$TMP/ucci" | sed -n '/^moves$/,$p' | sed 1d | grep -c .)"
fi
