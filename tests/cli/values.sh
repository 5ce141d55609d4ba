#!/bin/sh
# Record text (tag values, move texts, messages quoting them) in the text
# outputs: the one rule of file names (man/xq.7 DIAGNOSTICS, game.h
# xq_name_put): ESC, tab, DEL, the C1 controls as \t or \ooo, a backslash
# doubled only in a text that holds such a control; never '?' and never
# raw.  xq-validate's game label and messages, xq-parse's and xq-convert's
# diagnostics, xq-stats' text tables (aligned by the escaped width), its
# headings and notes.  JSON and CSV keep their own rules.
. tests/cli/lib.sh
V=$BIN/xq-validate
C=$BIN/xq-convert
P=$BIN/xq-parse
S=$BIN/xq-stats
ESC=$(printf '\033')
raw_ctl() { if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1"; then echo raw; else echo none; fi; }

printf '[Event "a\033[31mred\tx"]\n[Red "r\033[0m"]\n[Result "1-0"]\n\n1. 炮二平五 馬８進７ 2. 車一平一\n1-0\n' > "$TMP/label.pgn"
"$V" -q "$TMP/label.pgn" 2> "$TMP/err"
expect_eq "xq-validate: the game label's ESC and tab escaped, not '?' or raw" \
  'game 1 (a\033[31mred\tx; r\033[0m vs ?), ply 3' "$(sed 's/.*: error: //; s/ (2\..*//' "$TMP/err")"
expect_eq "xq-validate: no raw control on stderr" none "$(raw_ctl "$TMP/err")"

# a move text with ESC, tags with CSI (C2 9B) and a backslash
printf '[Event "e\033[1mx"]\n[Red "a\302\233b"]\n[Black "b\\\\c"]\n[Result "*"]\n\n1. 炮二平五 象\033棋 *\n' > "$TMP/move.pgn"
"$V" -q "$TMP/move.pgn" 2> "$TMP/err"
expect_eq "xq-validate: label, move and message in one rule (backslash doubled with them)" \
  "game 1 (e\\033[1mx; a\\302\\233b vs b\\\\c), ply 2 (1... 象\\033棋): unknown character '\\033' at column 2" \
  "$(sed 's/.*: error: //; s/; FEN before.*//' "$TMP/err")"
"$V" -q --report json "$TMP/move.pgn" > "$TMP/out" 2>&1
expect_eq "xq-validate --report json: the message's ESC as JSON's \\u001b" 1 \
  "$(grep -c "unknown character '\\\\u001b' at column 2" "$TMP/out")"
"$P" -q "$TMP/move.pgn" 2> "$TMP/err" > /dev/null
expect_eq "xq-parse: the move and the message escaped" \
  "error: game 1: 象\\033棋: unknown character '\\033' at column 2" "$(sed 's/.*:6:9: //' "$TMP/err")"
"$P" -q --tags Event,Red,Black "$TMP/move.pgn" 2> /dev/null > "$TMP/out"
expect_eq "xq-parse --tags: each value in the rule" 'e\033[1mx	a\302\233b	b\c' "$(cut -f3- "$TMP/out")"
"$C" -q "$TMP/move.pgn" 2> "$TMP/err" > /dev/null
expect_eq "xq-convert: the writer's why quoting the move escaped" \
  "error: game 1: ply 2 (象\\033棋): unknown character '\\033' at column 2; later moves kept untranslated" \
  "$(sed -n 's/.*:6:9: //p' "$TMP/err")"
expect_eq "xq-convert: no raw control on stderr" none "$(raw_ctl "$TMP/err")"

# xq-stats: tables, heading, notes
"$S" --event "$(printf 'e\033[1mx')" "$TMP/move.pgn" "$TMP/label.pgn" > "$TMP/out"
expect_eq "xq-stats: no raw control in the text report" none "$(raw_ctl "$TMP/out")"
expect_eq "xq-stats: players escaped, the games column aligned by the escaped width" \
  "  player      games
  a\\302\\233b      1
  b\\c             1
  r\\033[0m        1" "$(sed -n '/^Players/,/^$/p' "$TMP/out" | sed -n '2,5p' | cut -c1-19)"
expect_eq "xq-stats: events escaped and aligned" \
  "  event            games
  a\\033[31mred\\tx      1
  e\\033[1mx            1" "$(sed -n '/^Events/,/^$/p' "$TMP/out" | sed -n '2,4p')"
expect_eq "xq-stats: the event's heading escaped" 'Event "e\033[1mx": 0 players, 0 games' \
  "$(grep '^Event "' "$TMP/out")"
"$S" --csv "$TMP/move.pgn" > "$TMP/out"
expect_eq "xq-stats --csv: values as they are (CSV's own rule)" "events,e${ESC}[1mx,1" "$(grep '^events,' "$TMP/out")"
