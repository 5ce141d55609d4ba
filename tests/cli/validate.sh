#!/bin/sh
# xq-validate on the bundled corpus and on the public corpus: exact
# diagnostics, exit statuses, counts.
. tests/cli/lib.sh
V=$BIN/xq-validate

# corpus/broken.pgn: every broken game gets one precise diagnostic
expect_status "broken.pgn exits 1" 1 $V -q corpus/broken.pgn
expect_eq "broken.pgn diagnostics" "$(cat tests/expected/validate-broken.txt)" "$(cat $TMP/err)"
$V corpus/broken.pgn 2>$TMP/err >/dev/null
expect_eq "broken.pgn summary" "8 games: 1 valid, 6 with errors, 1 unreadable" "$(tail -1 $TMP/err)"

expect_status "sample games are valid" 0 $V corpus/sample-games.pgn
expect_eq "sample games summary" "3 games: 3 valid, 0 with errors, 0 unreadable" "$(cat $TMP/err)"
expect_status "edge cases are valid" 0 $V corpus/edge-cases.pgn
expect_eq "edge cases: one warning" "8 games: 8 valid, 0 with errors, 0 unreadable; 1 warning (-W shows them)" "$(cat $TMP/err)"
expect_status "strict makes the tandem warning an error" 1 $V -q --strict corpus/edge-cases.pgn
expect_eq "strict diagnostic" "corpus/edge-cases.pgn:10:8: error: game 2 (Plain file where 前/後 was needed: resolved by legality, a warning), ply 1 (1... 車８平２): 2 chariots on file 8 without 前/後; only the one on h4 can make this move legally" "$(cat $TMP/err)"

# standard input, and the same through gzip
expect_status "stdin" 1 sh -c "$V -q < corpus/broken.pgn"
expect_eq "stdin file name is -" "-:12:4: error: game 2 (Illegal move: the horse leg is blocked), ply 3 (2. 馬二進四): horse leg blocked; FEN before: rnbakabnr/9/1c5c1/p3p1p1p/2p6/6P2/P1P1P3P/1C5C1/9/RNBAKABNR w - - 2 2" "$(head -1 $TMP/err)"
gzip -c corpus/broken.pgn > $TMP/broken.pgn.gz
expect_status "gzip input" 1 $V -q $TMP/broken.pgn.gz
expect_eq "gzip gives the same diagnostics" "$(sed "s|^corpus/broken.pgn|$TMP/broken.pgn.gz|" tests/expected/validate-broken.txt)" "$(cat $TMP/err)"

# a UTF-16 file is refused as such (not read as GBK), an unknown character
# named at its own column
printf '1. 炮二平五 *\n' | iconv -f UTF-8 -t UTF-16 > $TMP/u16.pgn
expect_status "UTF-16 input: exit 2" 2 $V -q $TMP/u16.pgn
expect_eq "UTF-16 input: the message" "xq-validate: $TMP/u16.pgn: UTF-16 input: convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)" "$(cat $TMP/err)"
printf '1. 炮二平五 X８平７\n' > $TMP/badchar.pgn
expect_status "unknown character: exit 1" 1 $V -q $TMP/badchar.pgn
expect_eq "unknown character: its own, at its column" "$TMP/badchar.pgn:1:9: error: game 1, ply 2 (1... X８平７): unknown character 'X' at column 1; FEN before: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1" "$(cat $TMP/err)"

# JSON report: one object per game with the documented keys
$V --report json corpus/broken.pgn > $TMP/out 2>/dev/null
expect_eq "json: one line per game" 8 "$(wc -l < $TMP/out)"
expect_eq "json: game 2" '{"file":"corpus/broken.pgn","game":2,"line":7,"status":"illegal","class":"with-errors","event":"Illegal move: the horse leg is blocked","date":null,"red":null,"black":null,"plies":2,"ply":3,"move":"馬二進四","reason":"horse leg blocked","fen":"rnbakabnr/9/1c5c1/p3p1p1p/2p6/6P2/P1P1P3P/1C5C1/9/RNBAKABNR w - - 2 2","result_tag":"0-1","result_board":"0-1","termination":"illegal-move","repetition":null,"errors":1,"warnings":0,"findings":[{"kind":"illegal-move","severity":"error","ply":3,"line":12,"col":4,"message":"horse leg blocked"}]}' "$(sed -n 2p $TMP/out)"

# "class" is what the summary counts and --keep valid keeps; "status" how
# the moves replayed (game 3: legal moves, a Result tag against a checkmate)
expect_eq "json: class of game 3" '"status":"valid","class":"with-errors"' "$(sed -n 3p $TMP/out | grep -o '"status":"[a-z]*","class":"[a-z-]*"')"
for f in corpus/*.pgn; do
  expect_eq "json: class valid = what --keep valid keeps ($f)" "$($V -q --keep valid $f 2>/dev/null | $V --report json - 2>/dev/null | wc -l)" \
    "$($V --report json $f 2>/dev/null | grep -c '"class":"valid"')"
done
# --keep valid cleans a database; the kept games are byte-identical
$V -q --keep valid corpus/broken.pgn > $TMP/clean.pgn 2>/dev/null
expect_eq "keep valid: first record unchanged" "$(sed -n 1,6p corpus/broken.pgn)" "$(cat $TMP/clean.pgn)"
expect_status "kept games validate clean" 0 $V -q $TMP/clean.pgn
$V -q --keep invalid corpus/broken.pgn > $TMP/bad.pgn 2>/dev/null
expect_eq "keep invalid: 7 records" 7 "$($V --report json $TMP/bad.pgn 2>/dev/null | wc -l)"
# --fix-results rewrites the Result tag with what the board proves
sed -n '/Result tag contradicts/,/^0-1$/p' corpus/broken.pgn | sed '1i [Game "Chinese Chess"]' > $TMP/mismatch.pgn
$V -q --keep valid --fix-results $TMP/mismatch.pgn > $TMP/fixed.pgn 2>/dev/null
expect_eq "fix-results sets 1-0" '[Result "1-0"]' "$(grep '^\[Result' $TMP/fixed.pgn)"
expect_eq "fix-results: the movetext result too" "1-0" "$(grep -v '^$' $TMP/fixed.pgn | tail -1)"
expect_status "fix-results: the fixed record validates clean" 0 $V -q $TMP/fixed.pgn
# with --fix-results, --keep valid and --keep invalid still split the input
# in two: a game whose only error the fix mends is among the valid ones
expect_eq "fix-results: the mended game is not kept as invalid" "" \
  "$($V -q --keep invalid --fix-results $TMP/mismatch.pgn 2>/dev/null)"
$V -q --keep valid --fix-results corpus/broken.pgn > $TMP/fv.pgn 2>/dev/null
$V -q --keep invalid --fix-results corpus/broken.pgn > $TMP/fi.pgn 2>/dev/null
expect_eq "fix-results: valid and invalid kept, 2 + 6 of the 8 games, in order" \
  "A valid game among broken ones|Result tag contradicts a checkmate on the board|8" \
  "$(grep '^\[Event' $TMP/fv.pgn | cut -d'"' -f2 | paste -sd'|')|$(cat $TMP/fv.pgn $TMP/fi.pgn | grep -c '^\[Event')"
# ... but never from a repetition verdict, a claim: the tester's represign.pgn
# (a perpetual check over by ply 8, play went on, black resigned) keeps 1-0
printf '[Event "rep then resign"]\n[FEN "3k5/9/9/9/9/9/9/9/9/R4K2R w - - 0 1"]\n[Result "1-0"]\n\n1. a0a9 d9d8 2. a9a0 d8d9 3. a0a9 d9d8 4. a9a0 d8d9 5. i0i8 d9e9 1-0\n' > $TMP/represign.pgn
$V -q --keep valid --fix-results $TMP/represign.pgn > $TMP/fixed.pgn 2>/dev/null
expect_eq "fix-results: a repetition verdict changes nothing" "$(cat $TMP/represign.pgn)" "$(cat $TMP/fixed.pgn)"

# usage errors exit 2
expect_status "unknown option" 2 $V --no-such-option
expect_status "missing file" 2 $V /nonexistent/file.pgn
expect_eq "missing file message" "xq-validate: /nonexistent/file.pgn: No such file or directory" "$(head -1 $TMP/err)"
expect_status "bad --keep" 2 $V --keep maybe corpus/broken.pgn
expect_status "bad perft FEN" 2 $V --perft 1 --fen "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"
expect_eq "bad perft FEN message" "xq-validate: FEN board: unexpected 'X' at column 59" "$(cat $TMP/err)"

# perft from the command line
expect_eq "perft 3" 79666 "$($V --perft 3)"
expect_eq "perft 2 from a FEN" 222 "$($V --perft 2 --fen 'C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1')"

# The public corpus ($SHARED/corpus): exact counts and the exact games with findings.
# error_kinds: "GAME KIND" of the first error of each JSON report line with errors
error_kinds() {
  grep -v '"errors":0' | sed 's/{"kind":"[a-z-]*","severity":"warning"[^}]*},\{0,1\}//g' |
    sed 's/.*"game":\([0-9]*\).*"findings":\[{"kind":"\([a-z-]*\)".*/\1 \2/'
}
if have_shared corpus/ccpd/masters.pgn.gz; then
  $V $SHARED/corpus/ccpd/masters.pgn.gz >/dev/null 2>$TMP/err; st=$?
  expect_eq "masters: exit 1" 1 $st
  # (39,569 warnings: 16 more Result tags contradict a repetition verdict
  # since a chase is new per piece chased, CXA1999 §29.2, ch.7 item 6)
  expect_eq "masters: summary" "53685 games: 53680 valid, 5 with errors, 0 unreadable; 39569 warnings (-W shows them)" "$(tail -1 $TMP/err)"
  # Checked by hand: game 38029 ply 70 (35... 士６進５): the red cannon on a9
  # checks the black general on e9 over the advisor on d9; moving the f9
  # advisor to e8 leaves the check (CXA1999 §3.1). 士４進５ would answer it.
  expect_eq "masters: games with findings" \
"5652 result-mismatch
6934 result-missing
17590 result-mismatch
17736 result-mismatch
38029 illegal-move" \
    "$($V --report json $SHARED/corpus/ccpd/masters.pgn.gz 2>/dev/null | error_kinds)"
fi
if have_shared corpus/ccpd/middlegames.pgn.gz; then
  # Checked by hand: game 2173 ply 18: the red chariot on g9 checks the
  # black general on e9 along rank 9; 士４進５ (d9-e8) does not block f9.
  expect_eq "middlegames: games with findings" \
"2096 impossible-position
2173 illegal-move
2680 illegal-move" \
    "$($V --report json $SHARED/corpus/ccpd/middlegames.pgn.gz 2>/dev/null | error_kinds)"
fi
if have_shared corpus/ccpd/openings.pgn.gz; then
  # five FEN tags lack the red general ("RNBA1ABNR"): data errors
  expect_eq "openings: games with findings" \
"68 impossible-position
100 impossible-position
207 impossible-position
226 impossible-position
240 impossible-position" \
    "$($V --report json $SHARED/corpus/ccpd/openings.pgn.gz 2>/dev/null | error_kinds)"
fi
for f in endgames:244 openings:961 tactics:433 mating-drills:130; do
  set=${f%%:*} want=${f##*:}
  if have_shared corpus/ccpd/$set.pgn.gz; then
    [ $set = openings ] || expect_status "$set: valid" 0 $V -q $SHARED/corpus/ccpd/$set.pgn.gz
    expect_eq "$set: $want games" "$want" "$($V --report json $SHARED/corpus/ccpd/$set.pgn.gz 2>/dev/null | wc -l)"
  fi
done
if have_shared corpus/wukong-samples/xqdb_international.pgn; then
  for f in xqdb_international xqdb_traditional bulk_games_uci; do
    # game 7 (LE Thien Vi vs BI BingJian, 1997) ends in checkmate without a result
    expect_eq "wukong $f" "7 result-missing" \
      "$($V --report json $SHARED/corpus/wukong-samples/$f.pgn 2>/dev/null | error_kinds)"
  done
fi

# -j: the output is the same for every number of threads
if have_shared corpus/ccpd/middlegames.pgn.gz; then
  $V -j 1 --report json -W $SHARED/corpus/ccpd/middlegames.pgn.gz > $TMP/j1 2>&1
  $V -j 3 --report json -W $SHARED/corpus/ccpd/middlegames.pgn.gz > $TMP/j3 2>&1
  expect_eq "-j 1 and -j 3 give identical output" "$(md5sum < $TMP/j1)" "$(md5sum < $TMP/j3)"
  $V -j 2 -W $SHARED/corpus/ccpd/middlegames.pgn.gz > $TMP/t2 2>&1
  $V -j 1 -W $SHARED/corpus/ccpd/middlegames.pgn.gz > $TMP/t1 2>&1
  expect_eq "-j 2 diagnostics identical" "$(md5sum < $TMP/t1)" "$(md5sum < $TMP/t2)"
fi
expect_status "bad -j" 2 $V -j 0 corpus/broken.pgn

# variations are replayed from their branch position: an illegal move there is an error
printf '1. 炮二平五 馬８進７ (1... 馬８進９ 2. 車一進五) 2. 馬二進三 *\n' > $TMP/var.pgn
expect_status "illegal move in a variation" 1 $V $TMP/var.pgn
expect_eq "variation diagnostic" "$TMP/var.pgn:1:28: error: game 1: variation at ply 3 (車一進五): a piece stands in the way
1 game: 0 valid, 1 with errors, 0 unreadable" "$(cat $TMP/err)"
printf '1. 炮二平五 馬８進７ (1... 馬８進９ 2. 車九進一) 2. 馬二進三 *\n' > $TMP/var2.pgn
expect_status "legal variation" 0 $V -q $TMP/var2.pgn

# gzip: members in a row are one stream; bytes after the gzip data are an error, never dropped silently
gzip -c corpus/sample-games.pgn > $TMP/a.gz; gzip -c corpus/edge-cases.pgn > $TMP/b.gz
cat $TMP/a.gz $TMP/b.gz > $TMP/ab.gz
expect_status "two gzip members" 0 $V $TMP/ab.gz
expect_eq "two gzip members: all games" "11 games: 11 valid, 0 with errors, 0 unreadable; 1 warning (-W shows them)" "$(cat $TMP/err)"
# a member whose CRC-32 does not match (one bit of it flipped): its games
# all read (as zcat reads them), then the fault, exit 2; the next member read
cp $TMP/a.gz $TMP/crc.gz
o=$(( $(wc -c < $TMP/a.gz) - 8 )); b=$(od -An -tu1 -j $o -N1 $TMP/a.gz | tr -d ' ')
printf "$(printf '\\%03o' $(( (b + 1) % 256 )))" | dd of=$TMP/crc.gz bs=1 seek=$o conv=notrunc 2>/dev/null
cat $TMP/crc.gz $TMP/b.gz > $TMP/crcb.gz
expect_status "a member's CRC-32 fails: exit 2" 2 $V -q $TMP/crcb.gz
expect_eq "a member's CRC-32 fails: every game read, the fault told once" \
  "xq-validate: $TMP/crcb.gz: gzip data damaged: the CRC-32 of the member ending at byte offset 832 does not match (every game was read, some may differ from the original)|11 games: 11 valid, 0 with errors, 0 unreadable; 1 warning (-W shows them)" \
  "$($V $TMP/crcb.gz 2>&1 >/dev/null | paste -sd"|")"
cat $TMP/a.gz corpus/edge-cases.pgn > $TMP/ap.gz
expect_status "plain text after gzip data" 2 $V -q $TMP/ap.gz
expect_eq "plain text after gzip data: said, the games whole" "xq-validate: $TMP/ap.gz: 1094 bytes after the end of the gzip data at byte offset 832 are not read; the games before them were read whole|3 games: 3 valid, 0 with errors, 0 unreadable" "$($V $TMP/ap.gz 2>&1 >/dev/null | paste -sd"|")"
# the games before trailing bytes are whole: none is marked cut (gzip -t: "trailing garbage ignored"), in
# every tool, small files (inflated inline), large ones (a thread) and standard input
for t in xq-parse xq-stats xq-convert; do
  "$BIN/$t" -q $TMP/ap.gz >/dev/null 2>$TMP/err; st=$?
  expect_eq "$t: trailing bytes after gzip data: exit 2, one message" "2|$TMP/ap.gz: 1094 bytes after the end of the gzip data at byte offset 832 are not read; the games before them were read whole" "$st|$(sed "s/^$t: //" $TMP/err | paste -sd"|")"
done
expect_eq "trailing bytes: every game whole in the JSON report" "3 games, 0 errors" \
  "$($V --report json $TMP/ap.gz 2>/dev/null | grep -c '"errors":0,') games, $($V --report json $TMP/ap.gz 2>/dev/null | grep '"game":' | grep -vc '"errors":0,') errors"
{ printf '[Event "noise"]\n{'; head -c 200000 /dev/urandom | base64; printf '}\n1. 炮二平五 *\n\n'; cat corpus/*.pgn; } | gzip -1 > $TMP/big.gz
cat $TMP/big.gz corpus/edge-cases.pgn > $TMP/bigp.gz
expect_eq "trailing bytes after a large gzip file (inflated by a thread): the same games, the error" \
  "$(zcat $TMP/big.gz | $V -j1 2>&1 | tail -1)|2" "$($V -j1 $TMP/bigp.gz 2>&1 | grep -v ': error: '| grep -v 'are not read; the games before them were read whole$')|$($V -q $TMP/bigp.gz >/dev/null 2>&1; echo $?)"
expect_eq "trailing bytes on standard input" "xq-validate: -: 1094 bytes after the end of the gzip data at byte offset 832 are not read; the games before them were read whole|3 games: 3 valid, 0 with errors, 0 unreadable" \
  "$(cat $TMP/ap.gz | $V 2>&1 | paste -sd"|")"

# record text quoted in diagnostics cannot send terminal escape sequences
printf '[Event "a\033[31mred"]\n1. 炮二平五 \033[2J\n' > $TMP/esc.pgn
expect_status "escapes: exit 1" 1 $V -q $TMP/esc.pgn
expect_eq "escapes: no control character reaches stderr" "0" "$(tr -d '\n' < $TMP/err | tr -d '[:print:]' | tr -d '\200-\377' | wc -c)"

# a FEN whose generals stand outside their palaces (an impossible position:
# a warning, and replayed): the repetition judge gives its verdict, and the
# search's debug cross-checks, which hold only for generals in their
# palaces, do not abort a build with asserts (found by the break-it tester)
printf '[FEN "9/C3K4/1ak6/9/5P3/9/9/9/9/9 b - - 0 1"]\n\nc7d7 f5e5 d7d8 e5d5 d8e8 d5e5 e8d8 e5d5 d8e8 d5e5 e8d8 e5d5\n d8e8 d5e5 e8d8 a8a5 d8d7 a5a8 d7d8 a8a5 d8d7 a5a8 d7d8 a8a5\n d8d7 a5a8 d7d8 a8a5 d8d7 a5a8 d7d8 a8c8 d8e8 *\n' > $TMP/offpalace.pgn
expect_status "generals outside their palaces: replayed, warnings only" 0 $V -W $TMP/offpalace.pgn
expect_eq "generals outside their palaces: the repetition judged" \
  "$TMP/offpalace.pgn:4:7: warning: game 1, ply 14 (8. d5e5): move recorded after the repetition at ply 13 was judged: both sides allowed, 1/2-1/2 (CXA1999 §26.2, §24.2)" \
  "$(sed -n 2p $TMP/err)"

# --keep over files whose last record has no final line feed: each kept
# record starts a line of its own (a line feed added, in the record's own
# line ending), so the kept file reads back as the same games
printf '%s' "$(cat corpus/sample-games.pgn)" > "$TMP/nonl.pgn"
"$BIN/xq-validate" -q --keep valid "$TMP/nonl.pgn" "$TMP/nonl.pgn" > "$TMP/kept2.pgn" 2>/dev/null
expect_eq "--keep: records of files without a final line feed stay apart" 6 "$(grep -c '^\[Game' "$TMP/kept2.pgn")"
expect_status "--keep: that kept file validates" 0 "$BIN/xq-validate" -q "$TMP/kept2.pgn"
expect_eq "--keep: the added line feed is the only change" \
  "$(cat corpus/sample-games.pgn corpus/sample-games.pgn | od -c)" "$(od -c < "$TMP/kept2.pgn")"
printf '[Game "Chinese Chess"]\r\n\r\n1. 炮二平五 馬８進７ *' > "$TMP/crlf-nonl.pgn"
"$BIN/xq-validate" -q --keep valid "$TMP/crlf-nonl.pgn" > "$TMP/kept-crlf.pgn" 2>/dev/null
# lines that end in a lone CR (old Mac OS): every record read, placed by
# lines as with LF (every game after the first was lost in one line,
# exit 0); --keep writes them back as they were
printf '[Event "A"]\r\r1. 炮二平五 *\r\r[Event "B"]\r\r1. 炮二平五 馬二進四 *\r' > $TMP/cr.pgn
expect_status "CR line ends: the second game's illegal move, exit 1" 1 $V $TMP/cr.pgn
expect_eq "CR line ends: two games, the error at line 7" \
  "cr.pgn:7:9: error: game 2 (B), ply 2 (1... 馬二進四): horse leg blocked; FEN before: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1|2 games: 1 valid, 1 with errors, 0 unreadable" \
  "$(sed "s|^$TMP/||" $TMP/err | paste -sd'|')"
expect_eq "CR line ends: --keep valid and invalid, byte for byte" "$(od -c < $TMP/cr.pgn)" \
  "$({ $V -q --keep valid $TMP/cr.pgn; $V -q --keep invalid $TMP/cr.pgn; } 2>/dev/null | od -c)"
tr '\n' '\r' < corpus/sample-games.pgn > $TMP/sample-cr.pgn
expect_eq "CR line ends: the sample games read as with LF, gzip too" "$($V -W --report json corpus/sample-games.pgn 2>&1 | sed 's|"file":"[^"]*"||')" \
  "$(gzip -c $TMP/sample-cr.pgn > $TMP/sample-cr.pgn.gz; $V -W --report json $TMP/sample-cr.pgn.gz 2>&1 | sed 's|"file":"[^"]*"||')"
expect_eq "--keep: a CRLF record gets CRLF" "$(printf '[Game "Chinese Chess"]\r\n\r\n1. 炮二平五 馬８進７ *\r\n' | od -c)" \
  "$(od -c < "$TMP/kept-crlf.pgn")"

# a start without both generals (an empty board, a CBL library's empty
# slot) is an error, and no checkmate, stalemate or dead position is
# read into it afterwards (once: "the board gives 0-1 (stalemate)")
printf '[Game "Chinese Chess"]\n[FEN "9/9/9/9/9/9/9/9/9/9 w - - 0 1"]\n\n*\n' > "$TMP/empty-board.pgn"
expect_status "an empty board: exit 1" 1 "$BIN/xq-validate" "$TMP/empty-board.pgn"
expect_eq "an empty board: one error, no stalemate" \
  "$TMP/empty-board.pgn:2:7: error: game 1: FEN position cannot arise: no red general
1 game: 0 valid, 1 with errors, 0 unreadable" "$(cat "$TMP/err")"
expect_eq "an empty board: no board result in the report" '"termination":"none"' \
  "$("$BIN/xq-validate" -q --report json "$TMP/empty-board.pgn" | grep -o '"termination":"[a-z_ ]*"')"

# option words are read with case ignored in every tool, as --to XML is
expect_eq "--report JSON is --report json" "$($V -q --report json corpus/sample-games.pgn 2>&1)" "$($V -q --report JSON corpus/sample-games.pgn 2>&1)"
expect_eq "--keep VALID is --keep valid" "$($V -q --keep valid corpus/broken.pgn 2>&1)" "$($V -q --keep Valid corpus/broken.pgn 2>&1)"
expect_eq "--from PGN is --from pgn" "$($BIN/xq-convert -q --from pgn corpus/sample-games.pgn 2>&1)" "$($BIN/xq-convert -q --from PGN corpus/sample-games.pgn 2>&1)"
expect_eq "--to XML is --to xml" "$($BIN/xq-convert -q --to xml corpus/sample-games.pgn 2>&1)" "$($BIN/xq-convert -q --to XML corpus/sample-games.pgn 2>&1)"
expect_eq "--system SWISS is --system swiss" "$($BIN/xq-stats --event '' --system swiss corpus/sample-games.pgn 2>&1)" "$($BIN/xq-stats --event '' --system SWISS corpus/sample-games.pgn 2>&1)"
expect_status "an unknown word is still refused" 2 $V --report yaml corpus/sample-games.pgn

# --report json places each finding where the text diagnostic does: a
# finding about the whole game (the result) at the record's first line,
# column 1, not at 0:0 (xq_finding_place)
places_json() { $V -q -W --report json "$@" 2>/dev/null | grep -o '"severity":"[a-z]*","ply":[0-9]*,"line":[0-9]*,"col":[0-9]*' | sed 's/.*"line":\([0-9]*\),"col":\([0-9]*\)/\1:\2/'; }
places_text() { $V -q -W "$@" 2>&1 >/dev/null | grep -o '^.*:[0-9]*:[0-9]*: \(error\|warning\):' | sed 's/.*:\([0-9]*\):\([0-9]*\): [a-z]*:$/\1:\2/'; }
printf '\n[Game "Chinese Chess"]\n[Result "0-1"]\n\n1. 炮二平五 *\n[Game "Chinese Chess"]\n[FEN "4k3R/R8/9/9/9/9/9/9/9/3K5 b - - 0 1"]\n[Result "1/2-1/2"]\n\n1/2-1/2\n' > $TMP/places.pgn
expect_eq "JSON places a result finding at the record's first line" "6:1" "$(places_json $TMP/places.pgn | tr '\n' ' ' | sed 's/ $//')"
for f in corpus/*.pgn corpus/broken/*.pgn $TMP/places.pgn; do
  expect_eq "JSON and text place the findings of $f alike" "$(places_text "$f")" "$(places_json "$f")"
done

# diagnostics in input order: the reader's (a tag value not closed, the cut) and the replay's (the FEN) merged
gzip -c corpus/broken.pgn | head -c 300 > $TMP/cut.gz
expect_eq "a cut gzip file: diagnostics of one line in input order" "17:6|17:7|17:12" \
  "$($V -j1 $TMP/cut.gz 2>&1 | grep ':17:' | cut -d: -f2,3 | paste -sd'|')"
expect_eq "a cut gzip file: JSON findings in the same order" "17:6|17:7|17:12" \
  "$($V -j1 --report json $TMP/cut.gz 2>/dev/null | sed -n 3p | grep -o '"line":17,"col":[0-9]*' | sed 's/"line":17,"col":/17:/' | paste -sd'|')"

# standard input is named "-" in every message, as in diagnostics (xq(7)):
# an XML error and a cut gzip stream read from it
expect_eq "stdin: an XML error names it -" "xq-validate: -:1:25: XML error: Couldn't find end of Start Tag xq" \
  "$(printf '<?xml version="1.0"?><xq' | $V 2>&1 | head -1)"
expect_eq "stdin: a cut gzip stream names it -" "xq-validate: -: unexpected end of file: the gzip data is cut short" \
  "$(printf '\037\213\010\000' | $V 2>&1 | head -1)"

# --strict makes the record reader's warnings errors too (a tag name
# repeated before any move, text after the result), as every other warning
printf '[Event "B"]\n[Result "0-1"]\n[Event "C"]\n\n1. 炮二平五 馬８進７\n*\n' > $TMP/split.pgn
printf '[Event "B"]\n\n1. 炮二平五 馬８進７ * extra\n' > $TMP/after.pgn
expect_status "--strict: the reader's warning (a record split) is an error: exit 1" 1 $V -q --strict $TMP/split.pgn
expect_eq "--strict: ... told as an error" 1 "$(grep -c ':1:1: error: game 1 (B): tags and no moves' $TMP/err)"
expect_eq "--strict: ... and counted as one" "2 games: 1 valid, 1 with errors, 0 unreadable" "$($V --strict $TMP/split.pgn 2>&1 | tail -1)"
expect_status "without --strict it stays a warning: exit 0" 0 $V -q $TMP/split.pgn
expect_status "--strict: text after the result is an error: exit 1" 1 $V -q --strict $TMP/after.pgn
expect_eq "--strict: ... its line says error" 1 "$(grep -c ':3:.*: error: .*text after the result' $TMP/err)"

# --fix-results sets a Result tag that is not the first tag of its line
# (it added a second Result line, which then split the record)
F=tests/data/fix-result-mid-line.pgn
$V -q --keep valid --fix-results $F > $TMP/fixed.pgn 2>/dev/null
expect_eq "--fix-results: a Result tag later on its line is set" '[Red "x"] [Result "1-0"]' "$(sed -n 2p $TMP/fixed.pgn)"
expect_eq "--fix-results: ... and no Result tag added" 1 "$(grep -c Result $TMP/fixed.pgn)"
expect_eq "--fix-results: ... the record reads back as one valid game" "1 game: 1 valid, 0 with errors, 0 unreadable" \
  "$($V --strict $TMP/fixed.pgn 2>&1 | tail -1)"

# Inputs read as they come (tests/unit/test_input_live.c reads files that
# grow or are truncated while read, and pipes): a file of over a megabyte
# gives the same findings read by name, from a pipe, as /dev/stdin, and as
# standard input from the file at an offset other than 0 (after its first
# line) the same as the lines after that one from a pipe
i=0; : > $TMP/big.pgn
while [ $i -lt 400 ]; do cat corpus/sample-games.pgn corpus/edge-cases.pgn >> $TMP/big.pgn; i=$((i+1)); done
expect_eq "input: the big file is over a megabyte" 1 "$([ $(wc -c < $TMP/big.pgn) -gt 1048576 ] && echo 1)"
$V -j1 -W $TMP/big.pgn 2>&1 | sed "s|^$TMP/big.pgn:|-:|" > $TMP/by-name.txt
expect_eq "input: a pipe reads as the file" "$(cat $TMP/by-name.txt)" "$(cat $TMP/big.pgn | $V -j1 -W - 2>&1)"
expect_eq "input: /dev/stdin reads as the file" "$(cat $TMP/by-name.txt)" \
  "$($V -j1 -W /dev/stdin < $TMP/big.pgn 2>&1 | sed 's|^/dev/stdin:|-:|')"
expect_eq "input: standard input at an offset reads the rest of the file" \
  "$(tail -n +2 $TMP/big.pgn | $V -j1 -W - 2>&1)" "$({ read -r first; $V -j1 -W - 2>&1; } < $TMP/big.pgn)"

# a line of several tags: each warning at its tag's column, counted on
# from the tag before (CJK values count one column a character); a line
# of 3,000 repeats: 2,999 warnings, each counted (past the reader's list
# of 200 only counted), none an error: exit 0 (the cap was an error, and
# 201 warnings exited 1 where 200 exited 0)
printf '[Event "象棋"] [Red "甲"] [Event "b"] [Site x] [Event "c"]\n\n1. 炮二平五 *\n' > "$TMP/cols.pgn"
expect_eq "a line of tags: the warnings' columns" "1:24 1:36 1:45" \
  "$($BIN/xq-validate -W "$TMP/cols.pgn" 2>&1 | sed -n 's/^[^:]*:\([0-9]*:[0-9]*\): warning.*/\1/p' | paste -sd' ')"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "[Event \"v%d\"] ", i; printf "\n\n1. h2e2 *\n" }' > "$TMP/many.pgn"
$BIN/xq-validate "$TMP/many.pgn" >/dev/null 2>"$TMP/many.err"
expect_eq "a line of 3,000 repeated tags: every warning counted, exit 0" \
  "1 game: 1 valid, 0 with errors, 0 unreadable; 2999 warnings (-W shows them)|0" \
  "$(sed "s|^$TMP/||" "$TMP/many.err" | paste -sd'|')|$($V -q "$TMP/many.pgn" 2>/dev/null; echo $?)"
expect_eq "... --strict: 2,999 errors, 16 listed" \
  "16|many.pgn:1:1: error: game 1 (v0): 2983 more errors than listed (a game's report lists at most 16 findings)" \
  "$($V --strict "$TMP/many.pgn" 2>&1 | grep -c 'repeats')|$($V --strict "$TMP/many.pgn" 2>&1 | sed "s|^$TMP/||" | grep 'than listed')"
{ printf '1. 炮二平五 '; for i in $(seq 300); do printf ') '; done; printf '馬８進７ *\n'; } > "$TMP/stray.pgn"
expect_eq "300 stray ')': 300 warnings in every tool, exit 0 (xq-convert: converted in full)" \
  "0 0 0|300 warnings|300 warnings|1 converted in full" \
  "$($V -q "$TMP/stray.pgn" 2>/dev/null; a=$?; $BIN/xq-parse -q "$TMP/stray.pgn" 2>/dev/null; b=$?; $BIN/xq-convert -q "$TMP/stray.pgn" >/dev/null 2>&1; echo $a $b $?)|$($V "$TMP/stray.pgn" 2>&1 | grep -o '300 warnings')|$($BIN/xq-parse "$TMP/stray.pgn" 2>&1 | grep -o '300 warnings')|$($BIN/xq-convert "$TMP/stray.pgn" 2>&1 >/dev/null | grep -o '1 converted in full')"

# more than 16 errors: the first 16 listed, one line for the rest
awk 'BEGIN { printf "[Event \"e\"]\n\n"; for (i = 0; i < 20; i++) printf "(h2e2)\n"; printf "1. h2e2 *\n" }' > "$TMP/errs.pgn"
$BIN/xq-validate "$TMP/errs.pgn" >/dev/null 2>"$TMP/errs.err"
expect_eq "20 errors: 16 listed, the rest in one line" \
  "16|errs.pgn:1:1: error: game 1 (e): 4 more errors than listed (a game's report lists at most 16 findings)" \
  "$(grep -c 'variation before any move' "$TMP/errs.err")|$(sed "s|^$TMP/||" "$TMP/errs.err" | grep 'than listed')"

# an illegal move of the mover's own piece is told as such, though the
# other side could make a move of the same text (not "wrong side to move")
printf '[FEN "5k2C/9/3P5/2c6/3R3p1/2Cr5/5PC2/8C/4K4/R3p4 w - - 0 1"]\n[Result "*"]\n\n1. 炮三平四 *\n' > "$TMP/own.pgn"
expect_eq "an own piece on the target: that reason, not the side" \
  "own.pgn:4:4: error: game 1, ply 1 (1. 炮三平四): the target square holds a piece of the same side" \
  "$($BIN/xq-validate "$TMP/own.pgn" 2>&1 | head -1 | sed "s|^$TMP/||; s/; FEN before.*//")"

# a record of a comment and nothing else holds no game: kept (converted,
# counted), an error, never a valid game; a JSON object that is no JSON
# Lines record is told so; a comment before a record's tags joins it
printf '{just notes}\n' > "$TMP/notes.pgn"
expect_status "a comment alone: exit 1" 1 $V "$TMP/notes.pgn"
expect_eq "a comment alone: an error, no valid game" "notes.pgn:1:1: error: game 1: no game: a comment alone, with no tag, move or result
1 game: 0 valid, 1 with errors, 0 unreadable" "$(sed "s|^$TMP/||" $TMP/err)"
printf '\n{"a":1}\n' > "$TMP/obj.pgn"
expect_eq "a JSON object of no record field: told so, at its line" "obj.pgn:2:1: error: game 1: no game: a comment alone, with no tag, move or result (JSON Lines records have one of the fields tags, moves, fen, result, comment, file or game)" \
  "$($V "$TMP/obj.pgn" 2>&1 | head -1 | sed "s|^$TMP/||")"
printf '{notes}\n\n[Event "x"]\n\n1. 炮二平五 *\n' > "$TMP/lead.pgn"
expect_eq "a comment before the tags joins the record" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($V "$TMP/lead.pgn" 2>&1)"
expect_eq "a comment alone is converted all the same, as no game" "{just notes}" "$($BIN/xq-convert "$TMP/notes.pgn" 2>/dev/null | tail -n 2 | head -1)"
# the same for a record of no tag, move or result in any form: % lines,
# stray ')' or move numbers, a JSON Lines object of no field
for rec in '%% generated\n' ')\n' '1.\n'; do
  printf "$rec" > "$TMP/nogame.pgn"
  expect_eq "no game: $rec" "nogame.pgn:1:1: error: game 1: no game: no tag, move or result" "$($V "$TMP/nogame.pgn" 2>&1 | head -n 1 | sed "s|^$TMP/||")"
done
printf '{"tags":{"Red":"x"}}\n{}\n' > "$TMP/nogame.jsonl"
expect_eq "no game: a JSON Lines record of no field" "nogame.jsonl:2:1: error: game 2: no game: no tag, move or result
2 games: 1 valid, 1 with errors, 0 unreadable" "$($V "$TMP/nogame.jsonl" 2>&1 | sed "s|^$TMP/||")"

# --keep says how many games it wrote, and --fix-results of them how many
# had their Result fixed (the counts before are the input's, unchanged)
expect_eq "--keep: the games kept counted" "8 games: 1 valid, 6 with errors, 1 unreadable; 1 kept" \
  "$($V --keep valid corpus/broken.pgn 2>&1 >/dev/null | tail -n 1)"
expect_eq "--keep --fix-results: the results fixed counted" "8 games: 1 valid, 6 with errors, 1 unreadable; 2 kept (1 with the Result fixed)" \
  "$($V --keep valid --fix-results corpus/broken.pgn 2>&1 >/dev/null | tail -n 1)"
