#!/bin/sh
# JSON Lines read back (jsonl_read.h): `xq-convert --to jsonl F | xq-convert
# --to pgn -` gives `xq-convert --to pgn F` byte for byte for every file of
# corpus/ and of the public corpus (masters included), XML too (its result
# attribute, the movetext's result, included: "movetext_result" carries it
# where it is not the Result tag's "result"); xq-validate's and
# xq-stats' findings the same but for the reader's own diagnostics (syntax:
# the JSON holds the record as read, not its reading);
# each kind of error as one FILE:LINE:COL diagnostic through every tool,
# reading going on; --from jsonl; stdin, gzip, CRLF, a BOM; xq-stats
# --merge unchanged by the shared parser (tests/cli/stats.sh has the rest).
. tests/cli/lib.sh
V=$BIN/xq-validate
C=$BIN/xq-convert
P=$BIN/xq-parse
S=$BIN/xq-stats

# round trip NAME FILE: pgn and xml through jsonl against direct
round_trip() {
  $C -q --to pgn "$1" > "$TMP/a.pgn" 2>/dev/null
  $C -q --to jsonl "$1" 2>/dev/null | $C -q --to pgn - > "$TMP/b.pgn" 2>/dev/null
  if cmp -s "$TMP/a.pgn" "$TMP/b.pgn"; then echo "ok - pgn through jsonl: $1"; else
    echo "not ok - pgn through jsonl: $1"; diff "$TMP/a.pgn" "$TMP/b.pgn" | head -5; fi
  $C -q --to xml "$1" > "$TMP/a.xml" 2>/dev/null
  $C -q --to jsonl "$1" 2>/dev/null | $C -q --to xml - > "$TMP/b.xml" 2>/dev/null
  if cmp -s "$TMP/a.xml" "$TMP/b.xml"; then echo "ok - xml through jsonl: $1"; else
    echo "not ok - xml through jsonl: $1"; diff "$TMP/a.xml" "$TMP/b.xml" | head -5; fi
}

for f in corpus/*.pgn corpus/broken/*.pgn; do round_trip "$f"; done
if have_shared corpus/ccpd/masters.pgn.gz; then
  find "$SHARED/corpus" -type f ! -name '*.md' ! -name '*.sh' ! -name 'masters.pgn.gz' | sort > "$TMP/files"
  while IFS= read -r f; do round_trip "$f"; done < "$TMP/files"
  # masters: PGN through jsonl, and the same errors and statistics (but
  # for the reader's own diagnostics: 472 syntax findings, all warnings)
  M=$SHARED/corpus/ccpd/masters.pgn.gz
  $C -q --to jsonl "$M" > "$TMP/m.jsonl" 2>/dev/null
  $C -q --to pgn "$M" > "$TMP/a.pgn" 2>/dev/null
  $C -q --to pgn "$TMP/m.jsonl" > "$TMP/b.pgn" 2>/dev/null
  expect_eq "masters: pgn through jsonl" "" "$(cmp "$TMP/a.pgn" "$TMP/b.pgn" 2>&1)"
  $V -q "$M" 2>&1 | sed 's/^[^ ]* //' > "$TMP/a.txt"
  $V -q "$TMP/m.jsonl" 2>&1 | sed 's/^[^ ]* //' > "$TMP/b.txt"
  expect_eq "masters: xq-validate's errors through jsonl" "" "$(diff "$TMP/a.txt" "$TMP/b.txt")"
  $S "$M" > "$TMP/a.txt"
  $S "$TMP/m.jsonl" > "$TMP/b.txt"
  expect_eq "masters: xq-stats through jsonl, less the 472 syntax findings" \
    "48d47
<   syntax               472   0.9%" "$(diff "$TMP/a.txt" "$TMP/b.txt")"
  rm -f "$TMP/m.jsonl" "$TMP/a.pgn" "$TMP/b.pgn"
fi

# xq-validate's findings but the reader's on the project's corpus
for f in corpus/*.pgn; do
  $V -W "$f" 2>&1 | grep -v 'not closed\|replaced by U+FFFD\| games\{0,1\}: ' | sed 's/^[^ ]* //' > "$TMP/a.txt"
  $C -q --to jsonl "$f" 2>/dev/null | $V -W - 2>&1 | grep -v ' games\{0,1\}: ' | sed 's/^[^ ]* //' > "$TMP/b.txt"
  expect_eq "xq-validate through jsonl: $f" "" "$(diff "$TMP/a.txt" "$TMP/b.txt")"
done

# errors: one diagnostic per bad line, FILE:LINE:COL, the next line read
printf '%s\n' '{"tags":{"Event":1}}' '{bad' '[1,2]' '{"moves":[{"text":"h2e2","nags":[1,"x"]}]}' \
  '{"result":"2-0"}' '{"moves":{}}' '{"moves":[{"comment":"c"}]}' \
  '{"tags":{"Event":"ok"},"moves":[{"text":"h2e2"},{"text":"h9g7"}],"result":"*"}' > "$TMP/bad.jsonl"
printf '{"moves":[{"text":"\377"}]}\n{"comment":"x"' >> "$TMP/bad.jsonl"
cat > "$TMP/want" <<EOF
$TMP/bad.jsonl:1:18: error: game 1: tags.Event: expected a string, not a number
$TMP/bad.jsonl:2:2: error: game 2: not valid JSON: expected a key
$TMP/bad.jsonl:3:1: error: game 3: expected a JSON object (a record), not an array
$TMP/bad.jsonl:4:36: error: game 4: moves[0].nags[1]: expected a whole number from 0 to 65535, not a string
$TMP/bad.jsonl:5:11: error: game 5: result: expected 1-0, 0-1, 1/2-1/2, * or null
$TMP/bad.jsonl:6:10: error: game 6: moves: expected an array, not an object
$TMP/bad.jsonl:7:11: error: game 7: moves[0]: a move without "text" or "iccs"
$TMP/bad.jsonl:9:20: error: game 9: not valid JSON: invalid UTF-8 in a string
$TMP/bad.jsonl:10:15: error: game 10: not valid JSON: expected ',' or '}'
EOF
expect_status "xq-parse: bad lines exit 1" 1 $P "$TMP/bad.jsonl"
expect_eq "xq-parse: one diagnostic per bad line" "$(cat "$TMP/want")" "$(grep -v ' games, ' "$TMP/err")"
expect_eq "xq-parse: every line a record" "10 games, 2 plies decoded: 9 errors in 9 games, 0 warnings" "$(tail -1 "$TMP/err")"
expect_status "xq-validate: bad lines exit 1" 1 $V "$TMP/bad.jsonl"
expect_eq "xq-validate: the same diagnostics" "$(cat "$TMP/want")" "$(grep -v ' games: ' "$TMP/err")"
expect_eq "xq-validate: counted as a bad PGN record is (with errors)" \
  "10 games: 1 valid, 9 with errors, 0 unreadable" "$(tail -1 "$TMP/err")"
expect_eq "xq-stats: every record counted" "counts,records,10" "$($S --csv "$TMP/bad.jsonl" | grep '^counts,records,')"

# stdin, gzip, CRLF, a BOM, blank lines; --from jsonl
$C -q --to jsonl corpus/sample-games.pgn > "$TMP/s.jsonl"
$C -q --to pgn corpus/sample-games.pgn > "$TMP/s.pgn"
expect_eq "stdin" "" "$($C -q < "$TMP/s.jsonl" | cmp - "$TMP/s.pgn" 2>&1)"
gzip -c "$TMP/s.jsonl" > "$TMP/s.jsonl.gz"
expect_eq "gzip" "" "$($C -q "$TMP/s.jsonl.gz" | cmp - "$TMP/s.pgn" 2>&1)"
{ printf '\357\273\277\n  \n'; sed 's/$/\r/' "$TMP/s.jsonl"; printf '\r\n'; } > "$TMP/crlf.jsonl"
expect_eq "BOM, CRLF, blank lines" "" "$($C -q "$TMP/crlf.jsonl" | cmp - "$TMP/s.pgn" 2>&1)"
{ echo; cat "$TMP/s.jsonl"; } > "$TMP/lead.jsonl"
expect_eq "--from jsonl" "" "$($C -q --from jsonl "$TMP/lead.jsonl" | cmp - "$TMP/s.pgn" 2>&1)"
expect_status "--from jsonl on PGN: every line an error" 1 $C --from jsonl corpus/sample-games.pgn
expect_eq "--from jsonl on PGN: the first line's error" \
  "corpus/sample-games.pgn:1:2: error: game 1: not valid JSON: unexpected character" "$(head -1 "$TMP/err")"
expect_status "--from json is unknown" 2 $C --from json "$TMP/s.jsonl"
expect_eq "--from: the formats named" \
  "xq-convert: unknown input format 'json' (auto, pgn, xml, cbf or jsonl)" "$(head -1 "$TMP/err")"

# jq in the middle, as users do
if command -v jq >/dev/null 2>&1; then
  $C -q --to jsonl corpus/sample-games.pgn | jq -c 'select(.result == "1-0")' | $C -q --to pgn - > "$TMP/jq.pgn"
  expect_eq "through jq: the games Red won" "2" "$(grep -c '^\[Result "1-0"\]' "$TMP/jq.pgn")"
else
  echo "# skip: jq not installed"
fi

# --keep of JSON Lines records: written through a writer (no bytes of their own)
expect_status "--keep valid of jsonl" 0 $V -q --keep valid "$TMP/s.jsonl"
expect_eq "--keep valid of jsonl: an XML document" '<?xml version="1.0" encoding="UTF-8"?>' "$(head -1 "$TMP/out")"

# sniffing: a PGN file that starts with a {comment} stays PGN, even when the
# comment is valid JSON ({} or {"Note": ...} names no record field)
for c in '{}' '{"Note": annotated by me}' '{ "a":1}'; do
  printf '%s\n[Event "x"]\n\n1. 炮二平五 馬８進７ *\n' "$c" > "$TMP/lead.pgn"
  expect_eq "a PGN file starting with $c is PGN" "1 game, 2 plies decoded: 0 errors in 0 games, 0 warnings" \
    "$("$BIN/xq-parse" "$TMP/lead.pgn" 2>&1 | tail -n 1)"
done
# tag names a PGN tag line cannot hold: refused at their value
printf '{"tags":{"":"x"},"moves":[]}\n{"tags":{"A\\u0000B":"x"},"moves":[]}\n{"tags":{"Red Side":"x"},"moves":[]}\n' > "$TMP/names.jsonl"
expect_eq "bad tag names: one error each" \
  "$TMP/names.jsonl:1:13: error: game 1: tags.: a tag name must be a word (not empty, no blank, '\"', '[' or ']')
$TMP/names.jsonl:2:10: error: game 2: not valid JSON: a NUL character (\\u0000) in a key
$TMP/names.jsonl:3:21: error: game 3: tags.Red Side: a tag name must be a word (not empty, no blank, '\"', '[' or ']')" \
  "$("$BIN/xq-parse" -q "$TMP/names.jsonl" 2>&1)"

# JSON Lines in GBK or Big5: the input encoding is honoured when forced
# (-e / -i), each line decoded before its JSON is read; the
# same games as from the UTF-8 file; a byte sequence not of the encoding
# is the line's one error at its place
iconv -f UTF-8 -t GBK < corpus/sample-games.pgn > /dev/null 2>&1
$C -q --to jsonl corpus/sample-games.pgn > "$TMP/u8.jsonl"
iconv -f UTF-8 -t GBK "$TMP/u8.jsonl" > "$TMP/gbk.jsonl"
$C -q --to pgn "$TMP/u8.jsonl" > "$TMP/u8.pgn"
expect_eq "GBK JSON Lines, -i gbk --from jsonl: the games of the UTF-8 file" "" \
  "$($C -q -i gbk --from jsonl --to pgn "$TMP/gbk.jsonl" | cmp - "$TMP/u8.pgn" 2>&1)"
expect_eq "GBK JSON Lines, -i gbk, sniffed: the same" "" "$($C -q -i gbk --to pgn "$TMP/gbk.jsonl" | cmp - "$TMP/u8.pgn" 2>&1)"
expect_eq "GBK JSON Lines from stdin, -i gbk" "" "$($C -q -i gbk --to pgn - < "$TMP/gbk.jsonl" | cmp - "$TMP/u8.pgn" 2>&1)"
gzip -c "$TMP/gbk.jsonl" > "$TMP/gbk.jsonl.gz"
expect_eq "GBK JSON Lines gzipped, -i gbk" "" "$($C -q -i gbk --to pgn "$TMP/gbk.jsonl.gz" | cmp - "$TMP/u8.pgn" 2>&1)"
expect_eq "xq-validate -e gbk: as the UTF-8 file" "$($V "$TMP/u8.jsonl" 2>&1 | tail -1)" "$($V -e gbk "$TMP/gbk.jsonl" 2>&1 | tail -1)"
expect_eq "xq-stats -e gbk: as the UTF-8 file" "$($S --csv "$TMP/u8.jsonl" | grep -v '^counts,files')" \
  "$($S --csv -e gbk "$TMP/gbk.jsonl" | grep -v '^counts,files')"
expect_eq "xq-parse -e gbk --tags: the Chinese tag values" "$($P -q --tags Event,Red "$TMP/u8.jsonl" | cut -f2-)" \
  "$($P -q -e gbk --tags Event,Red "$TMP/gbk.jsonl" | cut -f2-)"
$C -q --to jsonl tests/data/big5.utf8.pgn > "$TMP/b.jsonl"
iconv -f UTF-8 -t BIG5 "$TMP/b.jsonl" > "$TMP/big5.jsonl"
expect_eq "Big5 JSON Lines, -i big5: the games of the UTF-8 file" "" \
  "$($C -q -i big5 --to pgn "$TMP/big5.jsonl" | cmp - "$($C -q --to pgn "$TMP/b.jsonl" > "$TMP/b.pgn"; echo "$TMP/b.pgn")" 2>&1)"
printf '{"tags":{"Event":"\377\376"},"moves":[]}\n{"tags":{"Event":"ok"}}\n' > "$TMP/badgbk.jsonl"
expect_eq "a byte not of GBK: the line's one error at its column, the next line read" \
  "$TMP/badgbk.jsonl:1:19: error: game 1: invalid GBK byte sequence (the line read as gbk)
2 games: 1 valid, 1 with errors, 0 unreadable" "$($V -e gbk "$TMP/badgbk.jsonl" 2>&1)"
# -e utf8 still reads UTF-8 only: a GBK line is not valid JSON (strict UTF-8)
expect_eq "-e utf8 on GBK JSON Lines: errors, not GBK" "3" \
  "$($V -q -e utf8 "$TMP/gbk.jsonl" 2>&1 | grep -c 'not valid JSON: invalid UTF-8')"

# what the writer writes comes back: records built with a comment before a
# variation's first move, a variation of a comment alone, empty
# variations, variations after the last move, nested ones; and a leading
# comment element whose "text" / "iccs" are null (every field may be
# null: jq's {comment, text} writes them so)
cat > "$TMP/var.pgn" <<'PGN'
[Game "Chinese Chess"]
[Event "v1"]

{start} 1. h2e2 ({before} 1. b2e2 {after b} h9g7) h9g7 ({only a comment}) 2. h0g2 () (2. b0c2 {x}) i9h9 ({c2} 2... b9c7) *

[Game "Chinese Chess"]
[Event "v2"]

1. h2e2 h9g7 (1... b9c7 ({deep} 1... h7e7 ())) (1... h7e7 {c}) 2. h0g2 ({after the last move} 2. b0c2) ( ) *
PGN
round_trip "$TMP/var.pgn"
$C -q --to jsonl "$TMP/var.pgn" > "$TMP/var.jsonl"
$C -q --to pgn "$TMP/var.pgn" > "$TMP/var-a.pgn"
for edit in '{"text": null}' '{"text": null, "iccs": null}' '{"iccs": null}'; do
  sed 's/{"comment":"before"}/{"comment":"before",'"$(printf '%s' "$edit" | tr -d '{}')"'}/; s/{"comment":"deep"}/{"text":null,"comment":"deep"}/' \
    "$TMP/var.jsonl" > "$TMP/var-null.jsonl"
  expect_eq "a leading comment with $edit: read as the comment" "" \
    "$($C -q --from jsonl --to pgn "$TMP/var-null.jsonl" 2>&1 | cmp - "$TMP/var-a.pgn" 2>&1)"
done
sed 's/{"comment":"only a comment"}/{"comment":null,"text":null}/' "$TMP/var.jsonl" > "$TMP/var-nc.jsonl"
expect_eq "a null comment and a null text: an empty variation" "1. 炮二平五 ({before} 1. 炮八平五 {after b} 1... 马８进７) 1... 马８进７ ()" \
  "$($C -q --to pgn "$TMP/var-nc.jsonl" 2>&1 | sed -n 5p)"
printf '{"moves":[{"text":"h2e2","variations":[[{"text":"b2e2"},{"comment":"x","text":null}]]}]}\n' > "$TMP/mid.jsonl"
expect_eq "a comment element after a move is still no move" \
  "$TMP/mid.jsonl:1:57: error: game 1: moves[0].variations[0][1]: a move without \"text\" or \"iccs\"" \
  "$($V -q "$TMP/mid.jsonl" 2>&1)"

# the result round trip: a Result tag and a movetext result that differ,
# a tag and no movetext result, a movetext result and no tag, a tag that
# is no result: PGN and XML through JSON Lines as direct, and the same
# findings; "movetext_result" written only where it differs
cat > "$TMP/res.pgn" <<'PGN'
[Game "Chinese Chess"]
[Result "1-0"]

1. h2e2 h9g7 0-1

[Game "Chinese Chess"]
[Result "1-0"]

1. h2e2 h9g7

[Game "Chinese Chess"]

1. h2e2 h9g7 1-0

[Game "Chinese Chess"]
[Result "*"]

1. h2e2 h9g7 1/2-1/2

[Game "Chinese Chess"]
[Result "nonsense"]

1. h2e2 h9g7 0-1

[Game "Chinese Chess"]
[Result "0-1"]

1. h2e2 h9g7 0-1
PGN
round_trip "$TMP/res.pgn"
expect_eq "movetext_result only where the movetext's result is not \"result\"" \
  '"result":"1-0","movetext_result":"0-1"
"result":"1-0","movetext_result":null
"result":"1-0"
"result":"*","movetext_result":"1/2-1/2"
"result":"0-1"
"result":"0-1"' "$($C -q --to jsonl "$TMP/res.pgn" | grep -o '"result":[^,]*\(,"movetext_result":[^,]*\)\{0,1\}')"
expect_eq "the result findings through JSON Lines" "$($V -q -W "$TMP/res.pgn" 2>&1 | cut -d: -f4-)" \
  "$($C -q --to jsonl "$TMP/res.pgn" | $V -q -W - 2>&1 | cut -d: -f4-)"
printf '{"result":"1-0","movetext_result":"2-0"}\n' > "$TMP/badmr.jsonl"
expect_eq "a bad movetext_result: the line's error at it" \
  "$TMP/badmr.jsonl:1:35: error: game 1: movetext_result: expected 1-0, 0-1, 1/2-1/2, * or null" "$($V -q "$TMP/badmr.jsonl" 2>&1)"

# an escaped unpaired surrogate (valid JSON, no character) is replaced by
# U+FFFD and told as an error at the first, as bad bytes of a text record
# are; an escaped U+FFFD is a character like any other
printf '{"tags":{"Event":"a\\ud800b","Red":"\\ud83d\\ude00 \\udc00"},"moves":[{"iccs":"h2e2"}]}\n{"tags":{"Event":"\\uFFFD"},"moves":[]}\n' > "$TMP/lone.jsonl"
expect_status "an unpaired surrogate: exit 1" 1 $V -q "$TMP/lone.jsonl"
expect_eq "an unpaired surrogate: one error at the first, the others counted" \
  "$TMP/lone.jsonl:1:20: error: game 1 (a�b; 😀 � vs ?): \\ud800 escapes an unpaired surrogate (no character): replaced by U+FFFD, and 1 more on this line" "$(cat $TMP/err)"
expect_eq "an unpaired surrogate: the record kept, the text replaced" "[Event \"a�b\"]" "$($C -q "$TMP/lone.jsonl" 2>/dev/null | grep Event | head -1)"
