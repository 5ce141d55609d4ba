#!/bin/sh
# --files-from=LIST and --files0-from=LIST (cli.c xq_cli_inputs), in every
# tool: the files named in LIST are read after the FILE operands, exactly as
# if they had been given on the command line (same output, same status);
# LIST '-' is standard input; empty names and a CR before the LF are
# dropped; NUL-ended names may hold newlines.  Errors: a LIST that cannot
# be read, standard input as both the list and an input, two lists (exit 2
# before any file is read); a listed file that cannot be read is reported
# as a missing operand is, and the others are still read.
. tests/cli/lib.sh
FILES="corpus/sample-games.pgn corpus/broken.pgn corpus/edge-cases.pgn"

printf '%s\n' $FILES > "$TMP/list"
printf '%s\0' $FILES > "$TMP/list0"
printf 'corpus/sample-games.pgn\r\n\ncorpus/broken.pgn\r\n\r\ncorpus/edge-cases.pgn' > "$TMP/crlf"

# same NAME ARGS...: TOOL ARGS with the files as operands, from the list
# (both kinds, and on standard input) give the same output and status
same() {
  _name=$1; shift
  "$BIN/$@" $FILES >"$TMP/want" 2>&1; _want=$?
  for _how in "--files-from=$TMP/list" "--files0-from=$TMP/list0" "--files-from=$TMP/crlf"; do
    "$BIN/$@" "$_how" >"$TMP/got" 2>&1; _got=$?
    expect_eq "$_name $_how: same output" "$(cat "$TMP/want")" "$(cat "$TMP/got")"
    expect_eq "$_name $_how: same status" "$_want" "$_got"
  done
  "$BIN/$@" --files0-from=- <"$TMP/list0" >"$TMP/got" 2>&1; _got=$?
  expect_eq "$_name --files0-from=- (stdin): same output" "$(cat "$TMP/want")" "$(cat "$TMP/got")"
  expect_eq "$_name --files0-from=- (stdin): same status" "$_want" "$_got"
  # operands first, then the list's names
  "$BIN/$@" corpus/sample-games.pgn "--files-from=$TMP/list" >"$TMP/got" 2>&1
  "$BIN/$@" corpus/sample-games.pgn $FILES >"$TMP/want2" 2>&1
  expect_eq "$_name: operands, then the list" "$(cat "$TMP/want2")" "$(cat "$TMP/got")"
}
same "xq-validate" xq-validate -W -j2
same "xq-parse" xq-parse -J
same "xq-convert" xq-convert --to jsonl
same "xq-stats" xq-stats --csv

# xq-stats --merge reads its JSON inputs from the list too
"$BIN/xq-stats" --json corpus/sample-games.pgn > "$TMP/a.json" 2>/dev/null
"$BIN/xq-stats" --json corpus/broken.pgn > "$TMP/b.json" 2>/dev/null
printf '%s\n' "$TMP/a.json" "$TMP/b.json" > "$TMP/jsons"
expect_eq "xq-stats --merge --files-from: the merge of the listed outputs" \
  "$("$BIN/xq-stats" --merge --csv "$TMP/a.json" "$TMP/b.json")" "$("$BIN/xq-stats" --merge --csv --files-from="$TMP/jsons")"

# a name holding a newline, through --files0-from
mkdir -p "$TMP/odd
dir"
cp corpus/sample-games.pgn "$TMP/odd
dir/g.pgn"
find "$TMP/odd
dir" -name '*.pgn' -print0 > "$TMP/list0nl"
expect_status "--files0-from: a name with a newline is one name" 0 "$BIN/xq-validate" -q --files0-from="$TMP/list0nl"
expect_eq "--files0-from: that file's games read" "3 games: 3 valid, 0 with errors, 0 unreadable" \
  "$("$BIN/xq-validate" --files0-from="$TMP/list0nl" 2>&1 | tail -n 1)"

# an empty list names no file: nothing read (not standard input)
: > "$TMP/empty"
expect_eq "an empty list: no game, standard input not read" "0 games: 0 valid, 0 with errors, 0 unreadable" \
  "$(echo '[Event "x"]' | "$BIN/xq-validate" --files-from="$TMP/empty" 2>&1)"

# errors
expect_status "a missing list: exit 2" 2 "$BIN/xq-validate" --files-from="$TMP/nonexistent"
expect_eq "a missing list: named in the message" "xq-validate: cannot read the list of files $TMP/nonexistent: No such file or directory" "$(cat "$TMP/err")"
expect_eq "a missing list: nothing read" "" "$(cat "$TMP/out")"
expect_status "a directory as the list: exit 2" 2 "$BIN/xq-parse" --files-from="$TMP"
expect_status "two lists: exit 2" 2 "$BIN/xq-stats" --files-from="$TMP/list" --files0-from="$TMP/list0"
expect_eq "two lists: why" "xq-stats: only one --files-from or --files0-from list can be given" "$(cat "$TMP/err")"
expect_status "stdin as the list and as an operand: exit 2" 2 "$BIN/xq-convert" --files-from=- - </dev/null
expect_eq "stdin as the list and as an operand: why" \
  "xq-convert: standard input cannot be both the list of files and an input" "$(cat "$TMP/err")"
printf 'corpus/sample-games.pgn\n-\n' > "$TMP/dash"
expect_status "a list on stdin naming '-': exit 2" 2 "$BIN/xq-validate" --files-from=- <"$TMP/dash"
expect_eq "a list on stdin naming '-': why, and nothing read" \
  "xq-validate: the list of files on standard input names '-', standard input itself" "$(cat "$TMP/err")"
printf 'corpus/sample-games.pgn\n%s/missing.pgn\ncorpus/broken.pgn\n' "$TMP" > "$TMP/holes"
expect_status "a listed file that is missing: exit 2" 2 "$BIN/xq-validate" --files-from="$TMP/holes"
expect_eq "a listed file that is missing: reported, the others read" \
  "xq-validate: $TMP/missing.pgn: No such file or directory
11 games: 4 valid, 6 with errors, 1 unreadable" \
  "$(grep -v '^corpus/' "$TMP/err")"

# a list of NUL-ended names read as lines would be one name: refused
printf 'corpus/sample-games.pgn\0corpus/broken.pgn\0' > "$TMP/nul-as-lines"
expect_status "--files-from over NUL-ended names: exit 2" 2 "$BIN/xq-validate" --files-from="$TMP/nul-as-lines"
expect_eq "--files-from over NUL-ended names: why, and nothing read" \
  "xq-validate: $TMP/nul-as-lines:1: a NUL byte in a file name (for names ended by NUL bytes, use --files0-from)" \
  "$(cat "$TMP/err")"
# a list saved with a byte-order mark (Notepad): the mark is not part of the first name
printf '\357\273\277corpus/sample-games.pgn\r\ncorpus/broken.pgn\r\n' > "$TMP/bom"
expect_eq "a list with a byte-order mark: read as without" "$("$BIN/xq-validate" -q -W --files-from="$TMP/list" 2>&1 | sed -n '1,5p')" \
  "$("$BIN/xq-validate" -q -W --files-from="$TMP/bom" 2>&1 | sed -n '1,5p')"
