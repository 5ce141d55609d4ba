#!/bin/sh
# Findings about a record's start position (a FEN that does not parse, a
# position that cannot arise) are placed at the FEN's value, the same
# LINE:COL in every tool and report: the bad character's column when the
# value is as the file has it (FEN columns in the message count within the
# FEN), else the value's first character; for XML the element's line, for
# DhtmlXQ the binit/fen field's place.  Not the record's first line, nor
# (xq-convert) the first move.
. tests/cli/lib.sh
V=$BIN/xq-validate
C=$BIN/xq-convert
P=$BIN/xq-parse
MSG="bad FEN tag: FEN board: unexpected 'X' at column 59"
printf '[Game "Chinese Chess"]\n[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1"]\n[Result "*"]\n\n1. h2e2 *\n' > "$TMP/f.pgn"
F=$TMP/f.pgn
expect_eq "xq-validate: at the bad character of the FEN tag" "$F:2:65: error: game 1: $MSG" "$($V -q "$F" 2>&1)"
expect_eq "xq-parse: the same place" "$F:2:65: error: game 1: $MSG" "$($P -q "$F" 2>&1)"
expect_eq "xq-convert: the same place, not the first move's" \
  "$F:2:65: error: game 1: ply 1 (h2e2): $MSG; later moves kept untranslated" "$($C -q -n iccs "$F" 2>&1 >/dev/null)"
expect_eq "xq-validate --report json: the finding's line and col" '"line":2,"col":65' \
  "$($V -q --report json "$F" | grep -o '"line":[0-9]*,"col":[0-9]*')"

# a second tag on the line, blanks: the value's column counts them
printf '[Event "x"]  [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1"]\n\n1. h2e2 *\n' > "$TMP/two.pgn"
expect_eq "a FEN tag second on its line" "$TMP/two.pgn:1:78: error: game 1 (x): $MSG" "$($V -q "$TMP/two.pgn" 2>&1)"
# an escape in the value: the value's first character (the columns no longer match)
printf '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB\\\\X w - - 0 1"]\n\n1. h2e2 *\n' > "$TMP/esc.pgn"
expect_eq "an escaped value: at its first character" \
  "$TMP/esc.pgn:1:7: error: game 1: bad FEN tag: FEN board: unexpected '\\' at column 58" "$($V -q "$TMP/esc.pgn" 2>&1)"
# a Chinese character before the bad one: columns are characters (the
# message's FEN column counts bytes: 71)
printf '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 红 - 0 x"]\n\n1. h2e2 *\n' > "$TMP/cjk.pgn"
expect_eq "a multibyte character before the bad one: its character column" \
  "$TMP/cjk.pgn:1:75: error: game 1: bad FEN tag: FEN field 6: 'x' is not a move counter (column 71)" "$($V -q "$TMP/cjk.pgn" 2>&1)"
# GBK file, the same place
iconv -f UTF-8 -t GBK < "$TMP/cjk.pgn" > "$TMP/cjk-gbk.pgn"
expect_eq "the same in GBK" "$TMP/cjk-gbk.pgn:1:75" "$($V -q -e gbk "$TMP/cjk-gbk.pgn" 2>&1 | cut -d: -f1-3)"
# a record read the general way (a tag line with a comment after it) and
# the window's fast way (many records before it) agree
{ for i in $(seq 300); do printf '[Game "Chinese Chess"]\n[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]\n\n1. h2e2 h9g7 *\n\n'; done
  cat "$F"; } > "$TMP/many.pgn"
expect_eq "after 300 records (the fast tag run)" "$TMP/many.pgn:1502:65: error: game 301: $MSG" "$($V -q "$TMP/many.pgn" 2>&1)"

# a position that cannot arise: at the value too, as a warning or an error
printf '[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]\n\n1. h2e2 *\n' > "$TMP/face.pgn"
expect_eq "impossible position (error): at the FEN value" \
  "$TMP/face.pgn:1:7: error: game 1: FEN position cannot arise: the generals face each other" "$($V -q "$TMP/face.pgn" 2>&1)"
expect_eq "impossible position: xq-convert at the FEN value too" "$TMP/face.pgn:1:7" \
  "$($C -q "$TMP/face.pgn" 2>&1 >/dev/null | cut -d: -f1-3)"
printf '[Game "Chinese Chess"]\n[FEN "3k5/9/9/9/9/9/9/9/3P5/4K4 w - - 0 1"]\n\n1. e0f0 *\n' > "$TMP/warn.pgn"
expect_eq "impossible position (warning): at the FEN value" "$TMP/warn.pgn:2:7: warning" \
  "$($V -q -W "$TMP/warn.pgn" 2>&1 | grep 'cannot arise' | cut -d: -f1-4)"

# the other record formats: JSON Lines (the string's character), XML (the element's line)
$C -q --to jsonl "$F" > "$TMP/f.jsonl" 2>/dev/null
col=$(awk '{ print index($0, "NX w") + 1 }' "$TMP/f.jsonl")
expect_eq "JSON Lines: at the bad character of the fen" "$TMP/f.jsonl:1:$col: error: game 1: $MSG" "$($V -q "$TMP/f.jsonl" 2>&1)"
sed 's/RNBAKABNX/RNBAKABN\\u0058/' "$TMP/f.jsonl" > "$TMP/u.jsonl"
col=$(awk '{ print index($0, "\"FEN\":\"") + 7 }' "$TMP/u.jsonl")
expect_eq "JSON Lines with an escape: at the string's first character" "$TMP/u.jsonl:1:$col" "$($V -q "$TMP/u.jsonl" 2>&1 | cut -d: -f1-3)"
$C -q --to xml "$F" > "$TMP/f.xml" 2>/dev/null
line=$(grep -n 'RNBAKABNX' "$TMP/f.xml" | cut -d: -f1)
expect_eq "XML: at the FEN's element" "$TMP/f.xml:$line:1: error: game 1: $MSG" "$($V -q "$TMP/f.xml" 2>&1)"
# DhtmlXQ: binit giving a position that cannot arise (no black general), at the binit field
printf '[DhtmlXQ]\n[DhtmlXQ_title]t[/DhtmlXQ_title]\n[DhtmlXQ_binit]8979695949392919097717866646260600999999999999999999999999999999[/DhtmlXQ_binit]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n' > "$TMP/d.txt"
expect_eq "DhtmlXQ: at the binit field" "$TMP/d.txt:3" "$($V -q "$TMP/d.txt" 2>&1 | grep 'cannot arise' | cut -d: -f1-2)"
