#!/bin/sh
# xq-validate --keep over files in different encodings (man xq-validate(1),
# --keep): one database in one encoding, set by the first kept record that
# is not all ASCII; records of other encodings transcoded to it; a BOM only
# at the very start; a character the encoding lacks written '?' with a
# warning, the record still kept; same-encoding inputs byte for byte.
. tests/cli/lib.sh
V=$BIN/xq-validate
P=$BIN/xq-parse
C=$BIN/xq-convert
D=tests/data

# parse_clean NAME FILE [WARNINGS]: xq-parse reads FILE back with no error
# (and the inputs' own warnings, 0 unless given)
parse_clean() {
  expect_eq "$1: read back clean" "0 errors in 0 games, ${3:-0} warning$([ "${3:-0}" = 1 ] || echo s)" \
    "$($P "$2" 2>&1 | tail -1 | sed 's/^.*decoded: //')"
}
# same_games NAME FILE INPUT...: FILE holds the games of the inputs, in order
same_games() {
  _n=$1 _f=$2; shift 2
  for _i in "$@"; do $C -q "$_i"; done >"$TMP/want.pgn"
  $C -q "$_f" >"$TMP/got.pgn"
  if cmp -s "$TMP/want.pgn" "$TMP/got.pgn"; then echo "ok - $_n: same games"; else
    echo "not ok - $_n: same games"; diff "$TMP/want.pgn" "$TMP/got.pgn" | head -5; fi
}
# same_bytes NAME A B
same_bytes() {
  if cmp -s "$2" "$3"; then echo "ok - $1"; else echo "not ok - $1"; cmp "$2" "$3"; fi
}

# Big5 first: the UTF-8 record follows it (the user's report)
$V -q --keep valid $D/big5.pgn $D/big5.utf8.pgn >"$TMP/k.pgn" 2>"$TMP/err"
expect_eq "big5 + utf8: exit 0, nothing said" "0:" "$?:$(cat "$TMP/err")"
parse_clean "big5 + utf8" "$TMP/k.pgn"
same_games "big5 + utf8" "$TMP/k.pgn" $D/big5.pgn $D/big5.utf8.pgn
{ cat $D/big5.pgn; iconv -f UTF-8 -t CP950 $D/big5.utf8.pgn; } >"$TMP/want"
same_bytes "big5 + utf8: the UTF-8 bytes in Big5" "$TMP/want" "$TMP/k.pgn"

# UTF-8 first: the Big5 and GBK records follow it, nothing lost
$V -q --keep valid $D/big5.utf8.pgn $D/big5.pgn $D/gbk.pgn >"$TMP/k.pgn" 2>"$TMP/err"
expect_eq "utf8 + big5 + gbk: exit 0, nothing said" "0:" "$?:$(cat "$TMP/err")"
parse_clean "utf8 + big5 + gbk" "$TMP/k.pgn" 1   # (gbk.pgn's own)
same_games "utf8 + big5 + gbk" "$TMP/k.pgn" $D/big5.utf8.pgn $D/big5.pgn $D/gbk.pgn
{ cat $D/big5.utf8.pgn $D/big5.utf8.pgn $D/gbk.utf8.pgn; } >"$TMP/want"
same_bytes "utf8 + big5 + gbk: all UTF-8" "$TMP/want" "$TMP/k.pgn"

# BOM: only at the very start, and it makes the output UTF-8
$V -q --keep valid $D/bom.pgn $D/bom.pgn >"$TMP/k.pgn"
expect_eq "bom + bom: one BOM, at the start" "1 1" \
  "$(grep -c "$(printf '\357\273\277')" "$TMP/k.pgn") $(head -c 3 "$TMP/k.pgn" | grep -c "$(printf '\357\273\277')")"
parse_clean "bom + bom" "$TMP/k.pgn"
$V -q --keep valid $D/bom.pgn $D/big5.pgn >"$TMP/k.pgn"
{ cat $D/bom.pgn; iconv -f CP950 -t UTF-8 $D/big5.pgn; } >"$TMP/want"
same_bytes "bom + big5: UTF-8 with the BOM" "$TMP/want" "$TMP/k.pgn"
$V -q --keep valid $D/big5.pgn $D/bom.pgn >"$TMP/k.pgn"
{ cat $D/big5.pgn; tail -c +4 $D/bom.pgn | iconv -f UTF-8 -t CP950; } >"$TMP/want"
same_bytes "big5 + bom: Big5, no BOM" "$TMP/want" "$TMP/k.pgn"
parse_clean "big5 + bom" "$TMP/k.pgn"

# an ASCII record first sets nothing: the GBK record after it does
printf '[Event "ascii"]\n\n1. h2e2 h9g7 *\n' >"$TMP/ascii.pgn"
$V -q --keep valid "$TMP/ascii.pgn" $D/gbk.pgn $D/big5.utf8.pgn >"$TMP/k.pgn" 2>"$TMP/err"
{ cat "$TMP/ascii.pgn" $D/gbk.pgn; iconv -f UTF-8 -t GBK $D/big5.utf8.pgn; } >"$TMP/want"
same_bytes "ascii + gbk + utf8: GBK" "$TMP/want" "$TMP/k.pgn"
same_games "ascii + gbk + utf8" "$TMP/k.pgn" "$TMP/ascii.pgn" $D/gbk.pgn $D/big5.utf8.pgn

# a character the output lacks: '?', a warning, the game kept; its moves
# (simplified, as GBK records' usually are) written by the PGN writer in
# traditional characters, so that it reads back (below: the place of the
# first lost character when the bytes are kept)
$V --keep valid $D/big5.pgn $D/gbk.pgn >"$TMP/k.pgn" 2>"$TMP/err"
expect_eq "big5 + gbk: exit 0" "0" "$?"
expect_eq "big5 + gbk: the warning, counted" \
  "$D/gbk.pgn:1:1: warning: game 1 (象棋 淺; 胡荣华 vs 杨官璘): kept in big5, the encoding of the records kept before it: written as PGN, its moves in characters big5 has (its bytes would lose some of them); 4 characters it lacks written as '?'
3 games: 3 valid, 0 with errors, 0 unreadable; 2 warnings (-W shows them); 3 kept" "$(cat "$TMP/err")"
expect_eq "big5 + gbk: the kept games read back valid" "3 games: 3 valid, 0 with errors, 0 unreadable" \
  "$($V "$TMP/k.pgn" 2>&1 | tail -1 | cut -d';' -f1)"
expect_eq "big5 + gbk: the game kept, '?' for 荣" '[Red "胡??"]' \
  "$(iconv -f CP950 -t UTF-8 "$TMP/k.pgn" | tr -d '\r' | grep '^\[Red "胡')"
$V -q --fix-results --keep valid $D/big5.pgn $D/gbk.pgn 2>"$TMP/err2" >/dev/null
expect_eq "big5 + gbk --fix-results: the same place" "$(head -1 "$TMP/err")" "$(cat "$TMP/err2")"

# --keep invalid: records of both encodings, in the first one's
printf '[Event "棋"]\n\n1. 車一進五 *\n' >"$TMP/u.pgn"
printf '[Event "將死"]\n[FEN "4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1"]\n[Result "0-1"]\n\n1. 車一進九\n0-1\n' |
  iconv -f UTF-8 -t CP950 >"$TMP/b.pgn"
$V -q --keep invalid "$TMP/u.pgn" "$TMP/b.pgn" >"$TMP/k.pgn" 2>/dev/null
{ cat "$TMP/u.pgn"; iconv -f CP950 -t UTF-8 "$TMP/b.pgn"; } >"$TMP/want"
same_bytes "--keep invalid utf8 + big5: UTF-8" "$TMP/want" "$TMP/k.pgn"
# --keep valid --fix-results: b.pgn's only error is its Result, which the
# fix mends, so it is kept among the valid games, fixed, with a valid
# UTF-8 game between
printf '[Event "棋"]\n\n1. 炮二平五 *\n' >"$TMP/v.pgn"
$V -q --keep valid --fix-results "$TMP/b.pgn" "$TMP/v.pgn" "$TMP/b.pgn" >"$TMP/k.pgn" 2>/dev/null
iconv -f CP950 -t UTF-8 "$TMP/b.pgn" | sed 's/0-1/1-0/' >"$TMP/fixed"
expect_eq "--keep valid --fix-results big5 + utf8 + big5: Big5, the result fixed" \
  "$(cat "$TMP/fixed" "$TMP/v.pgn" "$TMP/fixed")" "$(iconv -f CP950 -t UTF-8 "$TMP/k.pgn")"
$V -q --keep valid --fix-results "$TMP/v.pgn" "$TMP/b.pgn" >"$TMP/k.pgn" 2>/dev/null
expect_eq "--keep valid --fix-results utf8 + big5: UTF-8, the result fixed" \
  "$(cat "$TMP/v.pgn"; iconv -f CP950 -t UTF-8 "$TMP/b.pgn" | sed 's/0-1/1-0/')" "$(cat "$TMP/k.pgn")"

# bytes that are no character of their file's encoding: U+FFFD in UTF-8,
# at the place the reader reports
sed 's/\[Event "/[Event "\xff/' $D/gbk.pgn >"$TMP/bad.pgn"
$V -q --keep invalid "$TMP/u.pgn" "$TMP/bad.pgn" >"$TMP/k.pgn" 2>"$TMP/err"
expect_eq "utf8 + bad gbk: U+FFFD" "$(printf '[Event "\357\277\275象棋 淺"]\r')" "$(grep -a "^\[Event \".*象棋" "$TMP/k.pgn")"
expect_eq "utf8 + bad gbk: the note where the reader's error is" \
  "$TMP/bad.pgn:2:9: error: game 1 (�象棋 淺; 胡荣华 vs 杨官璘): invalid GBK byte sequence replaced by U+FFFD
$TMP/bad.pgn:2:9: warning: game 1 (�象棋 淺; 胡荣华 vs 杨官璘): kept in utf8, the encoding of the records kept before it: 1 byte invalid in gbk written as '�'" \
  "$(grep 'bad.pgn' "$TMP/err")"

# an XML record after Big5 ones: PGN in Big5
$C -q --to xml $D/big5.utf8.pgn >"$TMP/x.xml"
$V -q --keep valid $D/big5.pgn "$TMP/x.xml" >"$TMP/k.pgn"
parse_clean "big5 + xml" "$TMP/k.pgn"
same_games "big5 + xml" "$TMP/k.pgn" $D/big5.pgn $D/big5.utf8.pgn
expect_eq "big5 + xml: Big5 text" "" "$(iconv -f CP950 -t UTF-8 "$TMP/k.pgn" >/dev/null 2>&1 || echo bad)"

# same encoding: byte for byte
$V -q --keep valid $D/big5.pgn $D/big5.pgn >"$TMP/k.pgn"
cat $D/big5.pgn $D/big5.pgn >"$TMP/want"
same_bytes "big5 + big5: unchanged" "$TMP/want" "$TMP/k.pgn"
$V -q --keep valid $D/bom.pgn >"$TMP/k.pgn"
same_bytes "bom alone: unchanged" $D/bom.pgn "$TMP/k.pgn"

# a record whose moves the output's encoding cannot spell (simplified
# 马 进 车 into Big5): written by the PGN writer, its moves in traditional
# characters, with a warning; the kept game reads back valid, the same game
printf '[Event "s"]\n[Red "红方"]\n\n1. 炮二平五 马８进７\n2. 马二进三 车９平８ *\n' > "$TMP/simpl.pgn"
$V -q --keep valid $D/big5.pgn "$TMP/simpl.pgn" >"$TMP/ks.pgn" 2>"$TMP/err"
expect_eq "big5 + simplified moves: one warning, the game written anew" 1 \
  "$(grep -c "simpl.pgn:1:1: warning: game 1 (s; 红方 vs ?): kept in big5, the encoding of the records kept before it: written as PGN, its moves in characters big5 has (its bytes would lose some of them); 1 character it lacks written as '?'" "$TMP/err")"
expect_eq "big5 + simplified moves: every kept game reads back valid" \
  "$($V $D/big5.pgn "$TMP/simpl.pgn" 2>&1 | tail -1 | cut -d';' -f1)" "$($V "$TMP/ks.pgn" 2>&1 | tail -1 | cut -d';' -f1)"
expect_eq "big5 + simplified moves: the moves in traditional characters" "1. 炮二平五 馬８進７|2. 馬二進三 車９平８ *" \
  "$(iconv -f CP950 -t UTF-8 "$TMP/ks.pgn" | tr -d '\r' | tail -3 | head -2 | paste -sd'|')"
# a record whose moves fit (only a tag lacks characters) keeps its bytes
printf '[Event "s"]\n[Red "红方"]\n\n1. 炮二平五 馬８進７ *\n' > "$TMP/simpl2.pgn"
$V -q --keep valid $D/big5.pgn "$TMP/simpl2.pgn" >"$TMP/ks2.pgn" 2>"$TMP/err"
expect_eq "big5 + a simplified tag: its bytes kept, the place of the tag's character" 1 \
  "$(grep -c "simpl2.pgn:2:7: warning: .*: 1 character it lacks written as '?'" "$TMP/err")"
expect_eq "big5 + a simplified tag: no rewrite" 0 "$(grep -c 'written as PGN' "$TMP/err")"
# the warning quotes the record's tags by the one escaping rule (xq(7)):
# an ESC in the Event tag is written \033, never raw
printf '[Event "a\033[31mb"]\n[Red "红方"]\n\n1. 炮二平五 馬８進７ *\n' > "$TMP/esc.pgn"
$V -q --keep valid $D/big5.pgn "$TMP/esc.pgn" >/dev/null 2>"$TMP/err"
expect_eq "big5 + an ESC in a tag: the warning escapes it" "1 0" \
  "$(grep -c 'esc.pgn:2:7: warning: game 1 (a\\033\[31mb; 红方 vs ?): kept in big5' "$TMP/err") $(grep -c "$(printf '\033')" "$TMP/err")"

# an XML or JSON Lines record whose text the output's encoding lacks: the
# warning at that character's line and column in the file (its source,
# game.h), as a PGN record's (above), not at the game's start; -j 1 and 3
# alike; a second game of the file placed in its own lines
printf '[Event "s"]\n[Red "红方"]\n\n1. 炮二平五 馬８進７ *\n\n[Event "t"]\n\n1. 炮二平五 馬８進７\n{plain, then ☃}\n*\n' > "$TMP/lack.pgn"
$C -q --to xml "$TMP/lack.pgn" > "$TMP/lack.xml"
$C -q --to jsonl "$TMP/lack.pgn" > "$TMP/lack.jsonl"
want_xml=$(grep -n '红方' "$TMP/lack.xml" | cut -d: -f1):$(($(grep '红方' "$TMP/lack.xml" | sed 's/红方.*//' | wc -m)))
want_xml2=$(grep -n '☃' "$TMP/lack.xml" | cut -d: -f1):$(($(grep '☃' "$TMP/lack.xml" | sed 's/☃.*//' | wc -m)))
want_jsonl=1:$(($(head -1 "$TMP/lack.jsonl" | sed 's/红方.*//' | wc -m)))
want_jsonl2=2:$(($(sed -n 2p "$TMP/lack.jsonl" | sed 's/☃.*//' | wc -m)))
for j in 1 3; do
  $V -q -j $j --keep valid $D/big5.pgn "$TMP/lack.xml" "$TMP/lack.jsonl" >/dev/null 2>"$TMP/err"
  expect_eq "big5 + xml, jsonl lacking characters (-j $j): the warnings at the characters" \
"$TMP/lack.xml:$want_xml: warning: game 1 (s; 红方 vs ?): kept in big5, the encoding of the records kept before it: 1 character it lacks written as '?'
$TMP/lack.xml:$want_xml2: warning: game 2 (t): kept in big5, the encoding of the records kept before it: 1 character it lacks written as '?'
$TMP/lack.jsonl:$want_jsonl: warning: game 1 (s; 红方 vs ?): kept in big5, the encoding of the records kept before it: 1 character it lacks written as '?'
$TMP/lack.jsonl:$want_jsonl2: warning: game 2 (t): kept in big5, the encoding of the records kept before it: 1 character it lacks written as '?'" \
    "$(cat "$TMP/err")"
done
# the character written as an escape in the file: no place there, the game's start
sed 's/红/\\u7ea2/' "$TMP/lack.jsonl" > "$TMP/esc.jsonl"
$V -q --keep valid $D/big5.pgn "$TMP/esc.jsonl" >/dev/null 2>"$TMP/err"
expect_eq "big5 + jsonl, the character as an escape: at the line's start" \
  "$TMP/esc.jsonl:1:1: warning: game 1 (s; 红方 vs ?): kept in big5, the encoding of the records kept before it: 1 character it lacks written as '?'" \
  "$(head -1 "$TMP/err")"
