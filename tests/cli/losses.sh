#!/bin/sh
# xq-convert loses or hides nothing without a word (the new-user tester's
# findings): a game with an illegal move converted to PGN, XBoard or XML
# still fails xq-validate at that move and counts as not valid in xq-stats;
# comments holding '}' or empty lines come back as they were through PGN
# and XBoard; what a format holds only in part (XQF's tags, DhtmlXQ's
# untranslated moves, a line break in a PGN tag value) gets a note for the
# game, even with -q, and the game is not converted in full.
. tests/cli/lib.sh
C=$BIN/xq-convert
V=$BIN/xq-validate

cat > $TMP/rich.pgn <<'EOF'
[Game "Chinese Chess"]
[Event "Rich"]
[Round "1"]
[Red "R"]
[Black "B"]
[Result "1-0"]
[ECCO "C00"]
[Opening "O"]
[Annotator "user14"]
[CustomTag "x"]

{Opening comment}
1. 炮二平五 {center cannon} 馬8進7 $1
2. 馬二進三 (2. 兵七進一 {var comment} 卒7進1 (2... 車9平8 $2)) 車9平8
3. 車一平二 馬2進3 1-0

[Game "Chinese Chess"]
[Event "illegal"]
[Result "*"]

1. 炮二平五 馬8進7 2. 馬二進四 {c} 車9平8 (2... 炮8平9 $1) 3. 車一平二 *

[Game "Chinese Chess"]
[Event "ICCS, then Chinese"]
[Format "ICCS"]
[Result "*"]

1. H2-E2 H9-G7 2. 馬二進三 車9平8 *
EOF

# ---- item 3: the illegal games stay illegal, at the same move
want=$($V --report json $TMP/rich.pgn 2>/dev/null | grep -o '"status":"[a-z]*"' | tr '\n' ' ')
want_ply=$($V --report json $TMP/rich.pgn 2>/dev/null | grep -o '"ply":[0-9]*' | tr '\n' ' ')
for to in "pgn" "pgn -n wxf" "pgn -n iccs" "pgn -n san" "pgn -n abbr" "xboard" "xml" "jsonl"; do
  expect_status "illegal game: --to $to exits 1" 1 $C -q -o $TMP/out.x --to $to $TMP/rich.pgn
  expect_eq "illegal game: --to $to: same statuses" "$want" \
    "$($V --report json $TMP/out.x 2>/dev/null | grep -o '"status":"[a-z]*"' | tr '\n' ' ')"
  expect_eq "illegal game: --to $to: fails at the same plies" "$want_ply" \
    "$($V --report json $TMP/out.x 2>/dev/null | grep -o '"ply":[0-9]*' | tr '\n' ' ')"
done
$C -q -o $TMP/canon.pgn $TMP/rich.pgn 2>/dev/null
expect_eq "illegal game: the moves after it as moves" "2. 馬二進四 {c} 2... 車9平8 (2... 炮8平9 \$1)
3. 車一平二 *" "$(grep -A1 '^2. 馬二進四' $TMP/canon.pgn)"
expect_eq "Format ICCS then Chinese: marked so that it does not read as Chinese" "2. ~馬二進三 車9平8 *" \
  "$(grep '^2. ~' $TMP/canon.pgn)"
expect_eq "xq-stats: not valid" "counts,valid,1" "$($BIN/xq-stats --csv $TMP/canon.pgn | grep "^counts,valid,")"

# ---- item 5: notes, -q, not in full
expect_status "xqf: dropped tags: exit 1" 1 $C -q -t xqf -o $TMP/o.xqf $TMP/rich.pgn
expect_eq "xqf: dropped tags named (even with -q)" \
  "$TMP/rich.pgn:1:1: note: game 1: xqf cannot hold tags Round, ECCO, Opening, CustomTag: dropped" \
  "$(grep 'note: game 1' $TMP/err)"
$C -t dhtmlxq $TMP/rich.pgn > /dev/null 2> $TMP/err
expect_eq "dhtmlxq: untranslated moves" "$TMP/rich.pgn:21:17: error: game 2: ply 3 (馬二進四): horse leg blocked; later moves not written
$TMP/rich.pgn:17:1: note: game 2: dhtmlxq cannot hold untranslated moves: 4 dropped" "$(grep 'game 2' $TMP/err)"
expect_eq "dhtmlxq: summary" "3 games: 1 converted in full, 2 not fully" "$(grep '^3 games' $TMP/err)"

printf '%s\n' '{"tags":{"Event":"a\nb"},"comment":"pre } x","moves":[{"text":"炮二平五","comment":"a } b\n\nc"},{"text":"馬8進7","comment":"\nd"}]}' > $TMP/t.jsonl
expect_status "jsonl to pgn: a line break in a tag: exit 1" 1 $C -o $TMP/t.pgn $TMP/t.jsonl
expect_eq "jsonl to pgn: note and summary" "$TMP/t.jsonl:1:1: note: game 1: pgn cannot hold a line break in a tag value: written as a space
1 game: 0 converted in full, 1 not fully" "$(cat $TMP/err)"
$C -q -t jsonl $TMP/t.pgn > $TMP/back.jsonl
expect_eq "jsonl to pgn and back: comments with '}' and empty lines as they were" \
  '"comment":"pre } x" "comment":"a } b\n\nc" "comment":"\nd" ' \
  "$(grep -o '"comment":"[^"]*"' $TMP/back.jsonl | tr '\n' ' ')"

if have_shared corpus/cchess-testdata/test.xqf; then
  X=$SHARED/corpus/cchess-testdata/test.xqf
  $C -q -t jsonl $X | sed 's/"file":"[^"]*",//' > $TMP/a.jsonl
  $C -q -t xboard $X | $C -q -t jsonl - | sed 's/"file":"[^"]*",//' > $TMP/b.jsonl
  expect_eq "xqf to xboard and back: comments (empty lines too) as they were" \
    "$(grep -o '"comment":"[^"]*"' $TMP/a.jsonl)" "$(grep -o '"comment":"[^"]*"' $TMP/b.jsonl)"
fi

# ---- item 9: --help says what -q leaves out, as the man page does
expect_eq "--help: -q" "  -q, --quiet             no summary line and no notes after it (a game's" \
  "$($C --help | grep -e '--quiet')"

# a comment line that is a tag line ([Name "value"] alone on its line)
# would start the next record inside {}: such a comment is written as ';'
# lines, so the game stays one valid game and its comments read back
cat > "$TMP/tagline.jsonl" <<'JSONL'
{"tags": {"Event": "p1"}, "comment": "a\n[Event \"x\"]\nb", "moves": [{"text": "h2e2", "comment": "a\n  [Event \"x\"] \nb"}, {"text": "h9g7", "variations": [[{"text": "b9c7", "comment": "[see below]\n[Round \"2\"]"}]]}], "result": "*"}
JSONL
for to in pgn xboard; do
  $C -q -t $to "$TMP/tagline.jsonl" > "$TMP/tagline.$to"
  expect_eq "a tag line in a comment, $to: one valid game" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($V "$TMP/tagline.$to" 2>&1)"
  expect_eq "a tag line in a comment, $to: the comments read back" \
    "$($C -q -t jsonl "$TMP/tagline.jsonl" | grep -o '"comment":"[^"]*\(\\"[^"]*\)*"')" \
    "$($C -q -t jsonl "$TMP/tagline.$to" | grep -o '"comment":"[^"]*\(\\"[^"]*\)*"')"
done

# a second tag of a name (XML and JSON Lines can hold one; "White" is
# "Red" in PGN): PGN and XBoard would start the next record there, JSON
# Lines would repeat a key; the first is written, the rest named in a note
cat > "$TMP/dup.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<games xmlns="urn:xq-tools:game:1">
<game result="*">
<tag name="Event">e1</tag>
<tag name="Red">A</tag>
<tag name="Event">e2</tag>
<tag name="White">W</tag>
<move iccs="h2e2" text="x"/>
</game>
</games>
XML
for to in pgn xboard jsonl; do
  $C -q -t $to "$TMP/dup.xml" > "$TMP/dup.$to" 2> "$TMP/err"
  expect_eq "a second tag of a name, $to: one game" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($V "$TMP/dup.$to" 2>&1)"
  expect_eq "a second tag of a name, $to: the first kept" "e1" "$($BIN/xq-parse -q --tags Event "$TMP/dup.$to" | cut -f3)"
done
expect_eq "a second tag of a name: the note (pgn)" "$TMP/dup.xml:3:1: note: game 1: pgn cannot hold a second tag of a name: Event, White dropped" \
  "$($C -q -t pgn "$TMP/dup.xml" 2>&1 >/dev/null)"
expect_eq "a second tag of a name: the note (jsonl: White is a key of its own)" "$TMP/dup.xml:3:1: note: game 1: jsonl cannot hold a second tag of a name: Event dropped" \
  "$($C -q -t jsonl "$TMP/dup.xml" 2>&1 >/dev/null)"

# a tag name JSON Lines cannot hold back (a blank, quote or bracket: XML
# can hold one) is written with '_', with a note, and the game reads back
sed 's/<tag name="White">W<\/tag>/<tag name="Bad Name">v<\/tag>/; /name="Event">e2/d' "$TMP/dup.xml" > "$TMP/name.xml"
$C -q -t jsonl "$TMP/name.xml" > "$TMP/name.jsonl" 2> "$TMP/err"
expect_eq "a blank in a tag name, jsonl: the note" "$TMP/name.xml:3:1: note: game 1: jsonl cannot hold a blank, quote or bracket in a tag name (or an empty one): written as '_'" "$(cat "$TMP/err")"
expect_eq "a blank in a tag name, jsonl: the game reads back" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($V "$TMP/name.jsonl" 2>&1)"
expect_eq "a blank in a tag name, jsonl: its value kept" "v" "$($BIN/xq-parse -q --tags Bad_Name "$TMP/name.jsonl" | cut -f3)"

# the same with control characters, which the writer turns into spaces: a
# line '\x01[Event "x"]' is a tag line once written
printf '{"tags":{"Event":"k"},"moves":[{"text":"h2e2","comment":"a\\n\\u0001[Event \\"x\\"]\\nb"},{"text":"h9g7","comment":"c\\n[Round \\"1\\"\\u007f]"}],"result":"*"}\n' > "$TMP/ctl.jsonl"
for to in pgn xboard; do
  expect_eq "a tag line after a control character, $to: one valid game" "1 game: 1 valid, 0 with errors, 0 unreadable" \
    "$($C -q -t $to "$TMP/ctl.jsonl" 2>/dev/null | $V - 2>&1)"
done

# a TAB in a tag value or a comment: the PGN standard has none in its
# export format (§4.2) nor in a string (§7): written as a space, noted
printf '[Event "A\tB"]\n[Result "*"]\n\n1. 炮二平五 {a\tcomment} 馬８進７ *\n' > "$TMP/tab.pgn"
expect_status "a TAB, pgn: not converted in full" 1 $C -q "$TMP/tab.pgn"
expect_eq "a TAB, pgn: written as a space" '[Event "A B"]|1. 炮二平五 {a comment} 1... 马８进７ *' \
  "$(grep -E '^\[Event|^1\.' $TMP/out | paste -sd'|')"
expect_eq "a TAB, pgn: the note" "$TMP/tab.pgn:1:1: note: game 1: pgn cannot hold a control character in a tag value: written as a space; pgn comment: control character written as a space" \
  "$(cat $TMP/err)"

# Variant (XBoard's) and SetUp (chess PGN's): when they say what Game and
# FEN say ([Variant "xiangqi"], [SetUp "1"] with a FEN) PGN leaves them to
# those (an XBoard record converted back is the direct conversion); any
# other is the record's: PGN and XML keep it, XBoard (which writes its
# own) names it in a note
printf '[Event "x"]\n[Variant "xiangqi"]\n[SetUp "1"]\n[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]\n[Result "*"]\n\n*\n' > "$TMP/setup.pgn"
expect_status "Variant xiangqi and SetUp 1 with a FEN, pgn: converted in full" 0 $C -q "$TMP/setup.pgn"
expect_eq "Variant xiangqi and SetUp 1 with a FEN, pgn: Game and FEN say it" '[Game "Chinese Chess"]|[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]' \
  "$(grep -E '^\[(Game|Variant|SetUp|FEN) ' $TMP/out | paste -sd'|')"
printf '[Event "x"]\n[Variant "minixiangqi"]\n[SetUp "1"]\n[Result "*"]\n\n1. 炮二平五 *\n' > "$TMP/setup2.pgn"
expect_status "another Variant, SetUp 1 without a FEN, pgn: converted in full" 0 $C -q "$TMP/setup2.pgn"
expect_eq "another Variant, SetUp 1 without a FEN, pgn: kept" '[Variant "minixiangqi"]|[SetUp "1"]' \
  "$(grep -E '^\[(Variant|SetUp|FEN) ' $TMP/out | paste -sd'|')"
expect_eq "another Variant, SetUp 1 without a FEN, through xml and back" "$(cat $TMP/out)" "$($C -q -t xml "$TMP/setup2.pgn" | $C -q -)"
expect_status "another Variant, SetUp 1 without a FEN, xboard: not in full" 1 $C -q -t xboard "$TMP/setup2.pgn"
expect_eq "another Variant, SetUp 1 without a FEN, xboard: the note" "$TMP/setup2.pgn:1:1: note: game 1: xboard writes its own Variant tag: [Variant \"minixiangqi\"] dropped; xboard writes its own SetUp tag: [SetUp \"1\"] dropped" \
  "$(cat $TMP/err)"

# names that are one once written: White before Red (PGN), a blank and
# '_' (JSON Lines and PGN), a long name with a blank (not cut); XML input
# holds them all
L=$(printf '%0300d' 0)
printf '<?xml version="1.0" encoding="UTF-8"?>\n<games xmlns="urn:xq-tools:game:1">\n<game result="*">\n<tag name="White">w</tag>\n<tag name="Red">r</tag>\n<tag name="A B">1</tag>\n<tag name="A_B">2</tag>\n<tag name="%s x">long</tag>\n<move iccs="h2e2" text="x"/>\n</game>\n</games>\n' "$L" > "$TMP/names.xml"
expect_eq "White then Red: one Red tag, the first" '[Red "w"]' "$($C -q -t pgn "$TMP/names.xml" 2>/dev/null | grep '^\[Red')"
expect_eq "White then Red, A B and A_B: the note" "$TMP/names.xml:3:1: note: game 1: pgn cannot hold a second tag of a name: Red, A_B dropped; pgn cannot hold a blank, bracket, quote or backslash in a tag name: written as '_'" \
  "$($C -q -t pgn "$TMP/names.xml" 2>&1 >/dev/null)"
for to in pgn xboard jsonl; do
  expect_eq "names one once written, $to: one game" "1 game: 1 valid, 0 with errors, 0 unreadable" "$($C -q -t $to "$TMP/names.xml" 2>/dev/null | $V - 2>&1)"
done
expect_eq "a long name with a blank: not cut" "${L}_x" "$($C -q -t jsonl "$TMP/names.xml" 2>/dev/null | grep -o '"0*_x"' | tr -d '"')"
