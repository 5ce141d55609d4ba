#!/bin/sh
# xq-convert: options, every output format on tests/data/convert-sample.pgn
# (expected output in tests/data/convert-sample.out.*), exit statuses and
# diagnostics, atomic -o, output encodings, hostile XML refused with
# nothing fetched, and round trips of the public corpus through XML, WXF,
# ICCS and XBoard back to Chinese.  The corpus round trips use every 10th
# game of ccpd/masters.pgn.gz (5,369 games, a few seconds); FULL=1
# runs all 53,685 games.
. tests/cli/lib.sh
C=$BIN/xq-convert
S=tests/data/convert-sample.pgn

# ---- options (GNU conventions)
expect_status "--help" 0 $C --help
expect_eq "--help: usage line" "Usage: xq-convert [OPTION]... [FILE]..." "$(head -1 $TMP/out)"
expect_status "--version" 0 $C --version
expect_eq "--version: name and suite" "xq-convert (xq-tools)" "$(cut -d' ' -f1,2 $TMP/out)"
expect_status "unknown option" 2 $C --frobnicate $S
expect_eq "unknown option: hint" "Try 'xq-convert --help' for more information." "$(tail -1 $TMP/err)"
expect_status "unknown output format" 2 $C --to=pdf $S
expect_status "unknown notation" 2 $C -n klingon $S
expect_status "--notation does not go with ucci" 2 $C -t ucci -n wxf $S
expect_status "--encoding does not go with jsonl" 2 $C -t jsonl -e gbk $S
expect_status "missing input file" 2 $C /nonexistent/x.pgn
expect_eq "missing input: message" "xq-convert: /nonexistent/x.pgn: No such file or directory" "$(head -1 $TMP/err)"

# ---- the sample: 4 games, one with an illegal move
expect_status "sample: a game not fully converted exits 1" 1 $C $S
expect_eq "sample: diagnostic and summary" "tests/data/convert-sample.pgn:21:17: error: game 3: ply 3 (馬二進四): horse leg blocked; later moves kept untranslated
4 games: 3 converted in full, 1 not fully" "$(cat $TMP/err)"
expect_eq "pgn: expected output" "$(cat tests/data/convert-sample.out.pgn)" "$(cat $TMP/out)"
$C -q -t xml $S > $TMP/sample.xml 2>/dev/null
expect_eq "xml: expected output" "$(cat tests/data/convert-sample.out.xml)" "$(cat $TMP/sample.xml)"
if command -v xmllint >/dev/null 2>&1; then
  expect_status "xml: validates against src/xq-game.rng" 0 xmllint --noout --relaxng src/xq-game.rng $TMP/sample.xml
else
  echo "# skip: xmllint not installed (test_write validates through the libxml2 API)"
fi
$C -t ucci $S > $TMP/out 2>$TMP/err
expect_eq "ucci: one line per game" 4 "$(wc -l < $TMP/out)"
expect_eq "ucci: set-up position" "position fen 3k5/4a4/9/9/9/9/9/9/4A4/4K4 b - - 0 1 moves d9e9 e0f0" "$(sed -n 2p $TMP/out)"
expect_eq "ucci: says what it cannot hold" "xq-convert: note: ucci cannot hold variations: dropped in 1 game" "$(grep variations $TMP/err)"
$C -q -t jsonl $S > $TMP/out 2>/dev/null
expect_eq "jsonl: one line per game" 4 "$(wc -l < $TMP/out)"
expect_eq "jsonl: untranslated moves have no iccs" '{"text":"馬二進四","iccs":null}' "$(grep -o '{"text":"馬二進四","iccs":null}' $TMP/out)"
$C -q -t xboard $S > $TMP/out 2>/dev/null
expect_eq "xboard: tags and SAN" '[White "甲"]|[Variant "xiangqi"]|1. Che2 {central cannon} 1... Hg7 (1... Che7 $2 {same direction} 2. Hg2 (2. Hc2) 2... Hg7)' \
  "$(grep -e '^\[White' -e '^\[Variant' -e '^1. Che2 {' $TMP/out | head -3 | paste -sd'|')"
expect_status "--no-comments --no-variations" 1 $C --no-comments --no-variations $S
expect_eq "no comments, no variations" "1. 炮二平五 马８进７" "$(grep '^1\. 炮二平五' $TMP/out | head -1)"

# every format (and notation) back to Chinese gives the direct conversion
$C -q $S > $TMP/ref.pgn 2>/dev/null
for route in "-t xml" "-n wxf" "-n iccs" "-n ucci" "-n san" "-n abbr" "-t xboard" "-e gbk" "-e big5" "-t xml -e gbk"; do
  $C -q $route $S 2>/dev/null | $C -q --simplified > $TMP/back.pgn 2>/dev/null
  expect_eq "sample round trip: $route" "$(cat $TMP/ref.pgn)" "$(cat $TMP/back.pgn)"
done
expect_status "standard input" 1 sh -c "$C -q -t xml < $S | $C -q"
expect_eq "standard input: same games" "$(cat $TMP/ref.pgn)" "$(cat $TMP/out)"

# ---- encodings
$C -q -e big5 $S > $TMP/big5.pgn 2>/dev/null
expect_eq "big5: traditional by default" "1. 炮二平五 {central cannon} 1... 馬８進７" "$(iconv -f CP950 -t UTF-8 $TMP/big5.pgn | grep -o '^1\. 炮二平五 {central cannon} 1\.\.\. 馬８進７')"
$C -q -t xml -e gbk $S > $TMP/gbk.xml 2>/dev/null
expect_eq "gbk xml: declaration" '<?xml version="1.0" encoding="GBK"?>' "$(head -1 $TMP/gbk.xml)"
printf '[Red "☃"]\n1. 炮二平五 *\n' > $TMP/snow.pgn
expect_status "a character the encoding lacks: exit 1" 1 $C -e big5 $TMP/snow.pgn
expect_eq "a character the encoding lacks: said" "$TMP/snow.pgn:1:1: error: game 1: 1 characters cannot be written in big5; written as '?'" "$(head -1 $TMP/err)"

# ---- -o FILE: written atomically
mkdir $TMP/o
expect_status "-o: exit 1 with the illegal game" 1 $C -q -o $TMP/o/out.pgn $S
expect_eq "-o: the file holds the output, nothing on stdout" "$(cat $TMP/ref.pgn)|" "$(cat $TMP/o/out.pgn)|$(cat $TMP/out)"
expect_eq "-o: no temporary file left" "out.pgn" "$(ls $TMP/o)"
expect_status "-o: unreadable input exits 2" 2 $C -q -o $TMP/o/out.pgn $S /nonexistent/x.pgn
expect_eq "-o: the old file is left unchanged" "$(cat $TMP/ref.pgn)" "$(cat $TMP/o/out.pgn)"
expect_eq "-o: and said so" "xq-convert: $TMP/o/out.pgn left unchanged" "$(tail -1 $TMP/err)"
expect_eq "-o: still no temporary file" "out.pgn" "$(ls $TMP/o)"
expect_status "-o: unreadable input, a new file: exit 2" 2 $C -q -o $TMP/o/new.pgn /nonexistent/x.pgn
expect_eq "-o: a file that was not there is not written, and said so" "xq-convert: $TMP/o/new.pgn not written|out.pgn" "$(tail -1 $TMP/err)|$(ls $TMP/o)"
expect_status "-o: unwritable directory" 2 $C -q -o /nonexistent/dir/out.pgn $S
# a FILE that is not a regular file is written in place, not replaced by a
# rename (run as root, -o /dev/null once made /dev/null a regular file):
# a named pipe stays a pipe and carries the output; a symbolic link stays
# a link and its target gets the output, replaced once complete
mkfifo $TMP/o/pipe
cat $TMP/o/pipe > $TMP/o/from-pipe &
expect_status "-o: a named pipe, exit 1 with the illegal game" 1 timeout 20 $C -q -o $TMP/o/pipe $S
wait
expect_eq "-o: the pipe carried the output" "$(cat $TMP/ref.pgn)" "$(cat $TMP/o/from-pipe)"
expect_eq "-o: the pipe is still a pipe" "pipe" "$([ -p $TMP/o/pipe ] && echo pipe)"
: > $TMP/o/target.pgn
ln -s target.pgn $TMP/o/link.pgn
$C -q -o $TMP/o/link.pgn $S 2>/dev/null
expect_eq "-o: a symbolic link stays one" "link" "$([ -L $TMP/o/link.pgn ] && echo link)"
expect_eq "-o: its target got the output" "$(cat $TMP/ref.pgn)" "$(cat $TMP/o/target.pgn)"
# -o naming the input itself, through a symbolic link or a hard link: the
# input is read whole before its file is replaced (written in place
# through the link, it was emptied first: 0 games, exit 0); a file with
# hard links keeps them all, every name shows the output
cp corpus/edge-cases.pgn $TMP/o/in.pgn
ln -s in.pgn $TMP/o/in-link.pgn
ln $TMP/o/in.pgn $TMP/o/in-hard.pgn
$C -q --to pgn corpus/edge-cases.pgn > $TMP/o/want.pgn 2>/dev/null
expect_status "-o: the input through a symbolic link" 0 $C -q --to pgn -o $TMP/o/in-link.pgn $TMP/o/in-link.pgn
expect_eq "-o: the input through a symbolic link: converted whole, still a link" "$(cat $TMP/o/want.pgn)|link" \
  "$(cat $TMP/o/in.pgn)|$([ -L $TMP/o/in-link.pgn ] && echo link)"
cp corpus/edge-cases.pgn $TMP/o/in.pgn   # (in place: the hard link sees it too)
expect_status "-o: a hard link of the input" 0 $C -q --to pgn -o $TMP/o/in-hard.pgn $TMP/o/in.pgn
expect_eq "-o: a hard link of the input: both names show the output, still one file" \
  "$(cat $TMP/o/want.pgn)|$(cat $TMP/o/want.pgn)|2" \
  "$(cat $TMP/o/in.pgn)|$(cat $TMP/o/in-hard.pgn)|$(stat -c %h $TMP/o/in.pgn)"
expect_eq "-o: no temporary file left beside them" "in-hard.pgn in-link.pgn in.pgn" \
  "$(cd $TMP/o && ls in*.pgn | paste -sd' ')"
expect_status "-o: /dev/null, exit 1 with the illegal game" 1 $C -q -o /dev/null $S
expect_eq "-o: /dev/null is still a device" "device" "$([ -c /dev/null ] && echo device)"

# ---- hostile XML: refused, nothing read or fetched
for f in convert-xxe convert-billion-laughs; do
  expect_status "$f: refused" 2 $C tests/data/$f.xml
  expect_eq "$f: clear error" "DOCTYPE) are refused" "$(grep -o 'DOCTYPE) are refused' $TMP/err)"
  expect_eq "$f: nothing written" "" "$(cat $TMP/out)"
done
# the same DOCTYPEs behind a 70 KB comment: libxml2 sees them, the reader refuses
for f in convert-xxe convert-billion-laughs; do
  { echo '<?xml version="1.0"?>'; printf '<!--'; head -c 70000 /dev/zero | tr '\0' a; echo '-->'; sed 1d tests/data/$f.xml; } > $TMP/late.xml
  expect_status "$f (late DOCTYPE): refused" 2 $C $TMP/late.xml
  expect_eq "$f (late DOCTYPE): no /etc/passwd content" "" "$(grep root: $TMP/out $TMP/err)"
done
if command -v python3 >/dev/null 2>&1; then
  port=$((20000 + $$ % 20000))
  python3 -m http.server $port --bind 127.0.0.1 >$TMP/http.log 2>&1 &
  http_pid=$!
  i=0; while [ $i -lt 50 ] && ! grep -q Serving $TMP/http.log; do sleep 0.1; i=$((i + 1)); done
  sed "s/PORT/$port/" tests/data/convert-external-dtd.xml > $TMP/dtd.xml
  { echo '<?xml version="1.0"?>'; printf '<!--'; head -c 70000 /dev/zero | tr '\0' a; echo '-->'; sed 1d $TMP/dtd.xml; } > $TMP/dtd-late.xml
  expect_status "external DTD: refused" 2 $C $TMP/dtd.xml
  expect_status "external DTD (late): refused" 2 $C -f xml $TMP/dtd-late.xml
  sleep 0.2
  kill $http_pid 2>/dev/null; wait $http_pid 2>/dev/null
  expect_eq "external DTD: nothing fetched" "" "$(grep GET $TMP/http.log)"
else
  echo "# skip: python3 not installed (no local HTTP server to watch for fetches)"
fi

# ---- the public corpus: every format back to Chinese gives the same moves and tags
if have_shared corpus/ccpd/masters.pgn.gz; then
  if [ -n "$FULL" ]; then zcat $SHARED/corpus/ccpd/masters.pgn.gz > $TMP/m.pgn
  else zcat $SHARED/corpus/ccpd/masters.pgn.gz | LC_ALL=C awk '/^\[Game /{n++} n % 10 == 1' > $TMP/m.pgn; fi
  games=$(grep -c '^\[Game ' $TMP/m.pgn)
  $C -q $TMP/m.pgn > $TMP/ref.pgn 2>/dev/null
  expect_eq "masters: every game written" "$games" "$(grep -c '^\[Game ' $TMP/ref.pgn)"
  $C -q -t xml $TMP/m.pgn > $TMP/m.xml 2>/dev/null
  if command -v xmllint >/dev/null 2>&1; then   # the first 1,000 games: xmllint is slow
    LC_ALL=C awk '/^\[Game /{n++} n <= 1000' $TMP/m.pgn | $C -q -t xml > $TMP/m1000.xml 2>/dev/null
    expect_status "masters: the XML validates" 0 xmllint --noout --relaxng src/xq-game.rng $TMP/m1000.xml
  fi
  $C -q $TMP/m.xml > $TMP/back.pgn 2>/dev/null
  expect_eq "masters round trip: xml" "" "$(cmp $TMP/ref.pgn $TMP/back.pgn 2>&1)"
  for route in "-n wxf" "-n iccs" "-t xboard"; do
    $C -q $route $TMP/m.pgn 2>/dev/null | $C -q > $TMP/back.pgn 2>/dev/null
    expect_eq "masters round trip: $route" "" "$(cmp $TMP/ref.pgn $TMP/back.pgn 2>&1)"
  done
fi

# -j: byte-identical output whatever the number of threads
if have_shared corpus/ccpd/middlegames.pgn.gz; then
  $BIN/xq-convert -q -j1 --to xml $SHARED/corpus/ccpd/middlegames.pgn.gz > $TMP/x1 2>/dev/null
  $BIN/xq-convert -q -j2 --to xml $SHARED/corpus/ccpd/middlegames.pgn.gz > $TMP/x2 2>/dev/null
  expect_eq "-j1 and -j2 XML identical" "$(md5sum < $TMP/x1)" "$(md5sum < $TMP/x2)"
fi
# an XQF file holds one game: the second is refused, the first written
expect_status "xqf: one game only" 1 $BIN/xq-convert -q --to xqf -o $TMP/two.xqf corpus/sample-games.pgn
expect_eq "xqf: second game refused" "corpus/sample-games.pgn:26:1: error: game 2: not written: an XQF file holds one game" "$(grep 'game 2' $TMP/err)"
expect_eq "xqf: the tag it has no field for named" "corpus/sample-games.pgn:1:1: note: game 1: xqf cannot hold tags Round: dropped" "$(grep 'note: game 1' $TMP/err)"
expect_eq "xqf: the first game reads back" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($BIN/xq-validate $TMP/two.xqf 2>&1)"

# --to xqf holds the run's first game: the games of later files are read,
# counted and refused as the later games of the first file are (exit 1),
# and an empty first file leaves the first game to the next
"$BIN/xq-convert" -t xqf corpus/sample-games.pgn > "$TMP/one.xqf" 2>/dev/null
expect_status "xqf over two files: exit 1" 1 "$BIN/xq-convert" -t xqf -o "$TMP/two.xqf" corpus/sample-games.pgn corpus/broken.pgn
expect_eq "xqf over two files: every game counted" "11 games: 0 converted in full, 11 not fully" "$(tail -n 1 "$TMP/err")"
expect_eq "xqf over two files: the later file's games refused" 8 "$(grep -c '^corpus/broken.pgn:.*not written: an XQF file holds one game' "$TMP/err")"
: > "$TMP/empty.pgn"
"$BIN/xq-convert" -t xqf "$TMP/empty.pgn" corpus/sample-games.pgn > "$TMP/after-empty.xqf" 2>/dev/null
expect_eq "xqf: an empty first file leaves the first game to the next" "$(od -c "$TMP/one.xqf")" "$(od -c "$TMP/after-empty.xqf")"

# Fairy-Stockfish's plain UCI counts ranks 1 to 10 (formats.md §1c): a game
# that writes rank 10 and no rank 0 is read so, variations too; a game of
# ICCS (0-9) beside it keeps its reading; an illegal move's reason says how
# the game was read
printf '[Event "fsf"]\n\n1. h3e3 h10g8 (b10c8 2. h1g3) 2. h1g3 i10h10 *\n\n[Event "fsf bad"]\n\n1. h3e3 h10g8 2. e3e9 *\n\n[Event "iccs"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n' > "$TMP/fsf.pgn"
expect_status "ranks 1-10: one game not fully converted" 1 $C -q -t ucci "$TMP/fsf.pgn"
expect_eq "ranks 1-10: read as ICCS 0-9 moves" "moves h2e2 h9g7 h0g2 i9h9
moves h2e2 h9g7
moves h2e2 h9g7 h0g2 i9h9" "$(sed 's/.* moves/moves/' $TMP/out)"
expect_eq "ranks 1-10: the illegal move's reason says how the game was read" "$TMP/fsf.pgn:7:18: error: game 2: ply 3 (e3e9): a piece stands in the way (this game's ranks read 1 to 10, as Fairy-Stockfish writes them; squares named 0 to 9); later moves not written" "$(head -n 1 $TMP/err)"
$C -q -n chinese "$TMP/fsf.pgn" > $TMP/out 2>/dev/null
expect_eq "ranks 1-10: the variation read so too" "1. 炮二平五 马８进７ (1... 马２进３ 2. 马二进三)" "$(sed -n 4p $TMP/out)"

# UCCI position lines (as -t ucci writes them) read back, a game a line:
# the same lines again, and the same games as the record they came from
$C -q -t ucci corpus/sample-games.pgn > $TMP/sample.ucci 2>/dev/null
expect_status "ucci: read back" 0 $C -q -t ucci $TMP/sample.ucci
expect_eq "ucci: read back to the same lines" "$(cat $TMP/sample.ucci)" "$(cat $TMP/out)"
movetext_only() {   # the main lines' ICCS moves, a game a line, without results
  $C -q -n iccs --no-comments --no-variations "$1" 2>/dev/null | grep -v '^\[' | grep . | sed 's/ \(1-0\|0-1\|1\/2-1\/2\|\*\)$//'
}
expect_eq "ucci: each line one game, the moves of the record's" "$(movetext_only corpus/sample-games.pgn)" "$(movetext_only $TMP/sample.ucci)"
printf 'position startpos\n\n  position startpos moves h2e2 h9g7\nposition fen 4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1 moves e0f0\nposition fen 4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1 moves e0e9\n' > $TMP/pos.txt
expect_status "ucci lines: an illegal move exits 1" 1 $BIN/xq-parse $TMP/pos.txt
expect_eq "ucci lines: every line a game, the move placed on its line" "$TMP/pos.txt:5:57: error: game 4: e0e9: that piece cannot move so
4 games, 3 plies decoded: 1 error in 1 game, 0 warnings" "$(cat $TMP/err)"
$C -q -t jsonl $TMP/pos.txt > $TMP/out 2>/dev/null
expect_eq "ucci lines: the FEN is the FEN tag, startpos none" "0 0 1 1" "$(awk '{printf "%s%d", (NR > 1 ? " " : ""), (index($0, "4k4/9") > 0)}' $TMP/out)"

# ranks 1-10 are decided per game, from the main line: a game that writes
# rank 0 reads 0-9, and a rank 10 in it is an error, never read 1-10 for
# that move alone; a variation's error in a game read 1-10 says so
printf '1. h2e2 h10g8 2. h0g2 *\n' > "$TMP/mixed.pgn"
expect_status "ranks 0 and 10 in one game: exit 1" 1 $BIN/xq-validate "$TMP/mixed.pgn"
expect_eq "ranks 0 and 10 in one game: the rank 10 refused" "$TMP/mixed.pgn:1:9: error: game 1, ply 2 (1... h10g8): no rank 10 (ranks are 0-9)" "$(head -n 1 $TMP/err | sed 's/; FEN before.*//')"
printf '1. h3e3 (1. h2d2) h10g8 *\n' > "$TMP/var10.pgn"
expect_eq "ranks 1-10: a variation's error says how the game was read" "$TMP/var10.pgn:1:13: error: game 1: variation at ply 1 (h2d2): no piece on h1 (this game's ranks read 1 to 10, as Fairy-Stockfish writes them; squares named 0 to 9)" "$($BIN/xq-validate "$TMP/var10.pgn" 2>&1 | head -n 1)"

# UCCI position lines among other records: after Chinese moves (the
# reader's runs of lines), after tags; an open comment ends with its line;
# 'position fen' without a FEN is an error
printf '1. 炮二平五 马8进7\nposition startpos moves h0g2\n[Event "b"]\nposition startpos moves h0g2\n' > "$TMP/posmix.pgn"
expect_eq "ucci lines after Chinese moves and tags: records of their own" "3 games: 3 valid, 0 with errors, 0 unreadable" "$($BIN/xq-validate "$TMP/posmix.pgn" 2>&1)"
printf 'position startpos moves h2e2 {open\nposition startpos moves h0g2\n' > "$TMP/posopen.pgn"
expect_eq "ucci lines: an open comment ends with its line" "$TMP/posopen.pgn:1:30: error: game 1: comment '{' not closed before the next record at line 2
2 games: 1 valid, 1 with errors, 0 unreadable" "$($BIN/xq-validate "$TMP/posopen.pgn" 2>&1)"
printf 'position fen moves h2e2\n' > "$TMP/posnofen.pgn"
expect_eq "ucci lines: no FEN after 'position fen'" "$TMP/posnofen.pgn:1:14: error: game 1: no FEN after 'position fen'" "$($BIN/xq-validate "$TMP/posnofen.pgn" 2>&1 | head -n 1)"

# coordinates in a game whose first move is Chinese read 0-9: a rank 10 is
# an error, never a move read 1-10 among moves read 0-9
printf '1. 炮二平五 馬8進7 2. h0g2 i10i9 *\n' > "$TMP/zh10.pgn"
expect_eq "a Chinese game's coordinate rank 10 refused" "$TMP/zh10.pgn:1:22: error: game 1, ply 4 (2... i10i9): no rank 10 (ranks are 0-9)" \
  "$($BIN/xq-validate "$TMP/zh10.pgn" 2>&1 | head -n 1 | sed 's/; FEN before.*//')"
# position lines: a move written without 'moves' ends the FEN; a FEN tag
# before the line is read, another start named there an error; a comment
# line after the line belongs to its game; prose after a result is no line
printf 'position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w h2e2 h9g7\n' > "$TMP/posnomoves.pgn"
expect_eq "ucci lines: moves without 'moves'" "moves h2e2 h9g7" "$($C -q -t ucci "$TMP/posnomoves.pgn" | sed 's/.* moves/moves/')"
printf '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"]\nposition startpos moves h2e2\n' > "$TMP/posfen.pgn"
expect_eq "ucci lines: another start than the FEN tag's" "$TMP/posfen.pgn:2:10: error: game 1: the position line's start differs from the FEN tag's (the tag's is read)" \
  "$($BIN/xq-validate "$TMP/posfen.pgn" 2>&1 | head -n 1)"
printf 'position startpos moves h2e2\n{note\nmore}\nposition startpos moves h0g2\n' > "$TMP/poscomment.pgn"
expect_eq "ucci lines: a comment after a line is its game's" "2 games: 2 valid, 0 with errors, 0 unreadable" "$($BIN/xq-validate "$TMP/poscomment.pgn" 2>&1)"
printf '1. 炮二平五 馬8進7 1-0\nposition startpos is better\n' > "$TMP/posprose.pgn"
expect_eq "ucci lines: prose after a result is no line" "$TMP/posprose.pgn:2:1: warning: game 1: text after the result ignored" "$($BIN/xq-validate -W "$TMP/posprose.pgn" 2>&1 | head -n 1)"
# a ';' comment line after a position line is its game's; a FEN tag whose
# side is 'r' names the start that 'w' does
printf 'position startpos moves h2e2\n; semi\nposition startpos moves h0g2\n' > "$TMP/possemi.pgn"
expect_eq "ucci lines: a ';' comment line is its game's" '"comment":" semi"' "$($C -q -t jsonl "$TMP/possemi.pgn" | head -n 1 | grep -o '"comment":" semi"' | head -n 1)"
printf '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1"]\nposition startpos moves h2e2\n' > "$TMP/posr.pgn"
expect_eq "ucci lines: side r is w" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($BIN/xq-validate "$TMP/posr.pgn" 2>&1)"
# a record of no game converted to PGN stays no game (no Game tag or '*' added)
expect_eq "no game through PGN" "-:1:1: error: game 1: no game: a comment alone, with no tag, move or result" \
  "$(printf '{just a note}\n' | $C -q -t pgn | $BIN/xq-validate - 2>&1 | head -n 1)"
# a damaged FEN on a position line (a PGN delimiter inside it) is read
# field by field: an error at it, the next line read (it hung: fuzz_pgn)
printf 'position fen 4k4/9/;/9 w - - 0 1 moves e0f0\nposition startpos moves h2e2\n' > "$TMP/posbad.pgn"
expect_eq "ucci lines: a damaged FEN, then the next line" "$TMP/posbad.pgn:1:20: error: game 1: bad FEN tag: FEN board: unexpected ';' at column 7
2 games: 1 valid, 0 with errors, 1 unreadable" "$($BIN/xq-validate "$TMP/posbad.pgn" 2>&1)"
