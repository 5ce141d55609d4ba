#!/bin/sh
# File names with control characters (ESC, newline, tab, DEL) in text
# diagnostics: escaped by one rule (man/xq.7: \t \n \r, \ooo, and \\ for a
# backslash of such a name), in every tool's FILE:LINE:COL lines, PROG:
# messages and xq-parse --tags' FILE column, so that no name drives the
# terminal or cuts a line in two; names without one print byte for byte;
# the JSON reports keep the name itself (a JSON string).
. tests/cli/lib.sh
# the names are made in a directory of their own: the tools by absolute path
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
V=$BIN/xq-validate
C=$BIN/xq-convert
P=$BIN/xq-parse
S=$BIN/xq-stats
ESC=$(printf '\033')
printf '[Game "Chinese Chess"]\n[Event "e"]\n\n1. 炮二平五 象棋 *\n' > "$TMP/bad.pgn"
mkdir "$TMP/d" && cd "$TMP/d" || exit 1
cp "$TMP/bad.pgn" "a${ESC}[31mb.pgn"
cp "$TMP/bad.pgn" "n
l\\x.pgn"
cp "$TMP/bad.pgn" "$(printf 't\tdel\177.pgn')"
cp "$TMP/bad.pgn" 'plain\name 中文.pgn'
cp "$TMP/bad.pgn" "$(printf 'gbk\326\320.pgn')"
MSG=":4:9: error: game 1 (e), ply 2 (1... 象棋): unknown character '棋' (U+68CB) at column 2;"
MSGP=":4:9: error: game 1: 象棋: unknown character '棋' (U+68CB) at column 2"
raw_esc() { if grep -q "$ESC" "$1"; then echo "raw ESC"; else echo "none"; fi; }

"$V" -q "a${ESC}[31mb.pgn" 2> "$TMP/err"
expect_eq "xq-validate: ESC in a name escaped as octal" 'a\033[31mb.pgn:4:9' "$(cut -d: -f1-3 "$TMP/err")"
expect_eq "xq-validate: no raw ESC on stderr" none "$(raw_esc "$TMP/err")"
"$V" -q "n
l\\x.pgn" 2> "$TMP/err"
expect_eq "xq-validate: a newline in a name: one line, and the backslash doubled" \
  "1 n\\nl\\\\x.pgn$MSG" "$(wc -l < "$TMP/err" | tr -d ' ') $(cut -d' ' -f1-16 "$TMP/err")"
"$V" -q "$(printf 't\tdel\177.pgn')" 2> "$TMP/err"
expect_eq "xq-validate: tab and DEL" 't\tdel\177.pgn:4:9' "$(cut -d: -f1-3 "$TMP/err")"
"$V" -q 'plain\name 中文.pgn' 2> "$TMP/err"
expect_eq "xq-validate: no control character: as it is (backslash, blank, UTF-8)" 'plain\name 中文.pgn:4:9' \
  "$(cut -d: -f1-3 "$TMP/err")"
"$V" -q "$(printf 'gbk\326\320.pgn')" 2> "$TMP/err"
expect_eq "xq-validate: GBK bytes in a name: as they are" "$(printf 'gbk\326\320.pgn:4:9')" "$(cut -d: -f1-3 "$TMP/err")"

"$P" -q "a${ESC}[31mb.pgn" 2> "$TMP/err"
expect_eq "xq-parse: escaped" "a\\033[31mb.pgn$MSGP" "$(cat "$TMP/err")"
"$P" -q --tags Event "n
l\\x.pgn" > "$TMP/out" 2>/dev/null
expect_eq "xq-parse --tags: the FILE column escaped, one line" 'n\nl\\x.pgn	1	e' "$(cat "$TMP/out")"
"$C" -q --to xqf -o "$TMP/o.xqf" "a${ESC}[31mb.pgn" "a${ESC}[31mb.pgn" 2> "$TMP/err"
expect_eq "xq-convert: escaped (a second game for XQF)" 'a\033[31mb.pgn:1:1: error: game 1: not written: an XQF file holds one game' \
  "$(grep 'holds one game' "$TMP/err")"
expect_eq "xq-convert: no raw ESC on stderr" none "$(raw_esc "$TMP/err")"
printf '[Game "Chinese Chess"]\n{ unclosed\n' > "u${ESC}]0;title${ESC}\\.pgn"
"$C" -q "u${ESC}]0;title${ESC}\\.pgn" 2> "$TMP/err" > /dev/null
expect_eq "xq-convert: a reader's error, the backslash doubled" 'u\033]0;title\033\\.pgn:2:1' "$(cut -d: -f1-3 "$TMP/err")"

# PROG: messages quoting a name: a file that cannot be opened, in every tool
for t in "$V" "$C" "$P" "$S"; do
  "$t" "missing${ESC}[2J.pgn" > /dev/null 2> "$TMP/err"
  expect_eq "${t##*/}: a missing file's message escaped" "${t##*/}: missing\\033[2J.pgn: No such file or directory" \
    "$(head -1 "$TMP/err")"
done
# through --files0-from, as find -print0 gives them
printf 'a\033[31mb.pgn\0' | "$V" -q --files0-from=- 2> "$TMP/err"
expect_eq "--files0-from: the same escape" 'a\033[31mb.pgn:4:9' "$(cut -d: -f1-3 "$TMP/err")"
# an option value quoted in a usage message
"$V" --rules "$(printf 'x\033[1m')" 2> "$TMP/err"
expect_eq "a bad option value quoted: escaped" "xq-validate: unknown rule set 'x\\033[1m' (cxa1999 or axf)" "$(head -1 "$TMP/err")"
# the JSON reports keep the name (JSON-escaped)
expect_eq "--report json: the name as a JSON string" '"file":"a\u001b[31mb.pgn"' \
  "$("$V" -q --report json "a${ESC}[31mb.pgn" | grep -o '"file":"[^"]*"')"
