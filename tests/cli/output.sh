#!/bin/sh
# Where the tools' output goes, and what they say when it cannot be
# written: a write error on standard output (a full disk: /dev/full) is
# exit status 2 with a message, for --help, --version and --perft too;
# the summary after one does not read as success; xq-convert -o FILE
# keeps the replaced file's mode and group, '-o -' is standard output,
# and a temporary file that cannot be made names the directory.
. tests/cli/lib.sh
T="xq-validate xq-parse xq-stats xq-convert"
G=corpus/sample-games.pgn

if [ -w /dev/full ]; then
  for t in $T; do
    for o in --help --version; do

      "$BIN/$t" $o >/dev/full 2>"$TMP/err"; st=$?
      expect_eq "$t $o to a full disk: exit 2" 2 "$st"
      expect_eq "$t $o to a full disk: message" \
        "$t: write error on standard output: No space left on device" "$(cat "$TMP/err")"
    done
  done
  # a game's output larger than stdio's buffer goes out in a write of its
  # own: when that write fails, the final flush has nothing left to fail
  # on, and the reason must come from the write itself (cli.h
  # xq_cli_watch_stdout): every tool, every output of a run of games
  for c in "xq-parse -J" "xq-parse -t Event" "xq-validate --report json" "xq-validate --keep valid" \
           "xq-convert --to jsonl" "xq-convert --to xml" "xq-stats --json"; do
    for j in 1 2; do
      $BIN/$c -q -j $j $G >/dev/full 2>"$TMP/err"; st=$?
      expect_eq "$c -j $j on $G to a full disk: exit 2 and the reason" \
        "2|${c%% *}: write error on standard output: No space left on device" "$st|$(head -1 "$TMP/err")"
    done
  done
  "$BIN/xq-validate" --perft 2 >/dev/full 2>"$TMP/err"; st=$?
  expect_eq "xq-validate --perft to a full disk: exit 2" 2 "$st"
  expect_eq "xq-validate --perft to a full disk: message" \
    "xq-validate: write error on standard output: No space left on device" "$(cat "$TMP/err")"
else
  echo "# skip: no /dev/full"
fi

# ---- after a write error the summary does not read as success
if [ -w /dev/full ]; then
  "$BIN/xq-convert" -o /dev/full $G 2>"$TMP/err"; st=$?
  expect_eq "xq-convert -o /dev/full: exit 2" 2 "$st"
  expect_eq "xq-convert -o /dev/full: message and summary" \
    "xq-convert: /dev/full: No space left on device|3 games read: none converted, the output was not written in full" \
    "$(paste -sd'|' "$TMP/err")"
  # output larger than a stream buffer: the write fails before the end,
  # and its reason is kept all the same (break17)
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat $G; done > "$TMP/big.pgn"
  "$BIN/xq-convert" -q -o /dev/full "$TMP/big.pgn" 2>"$TMP/err"; st=$?
  expect_eq "xq-convert -o /dev/full, a large output: exit 2, the reason" \
    "2|xq-convert: /dev/full: write error: No space left on device" "$st|$(paste -sd'|' "$TMP/err")"
  "$BIN/xq-convert" $G >/dev/full 2>"$TMP/err"; st=$?
  expect_eq "xq-convert to a full stdout: exit 2, summary" \
    "2|xq-convert: write error on standard output: No space left on device|3 games read: none converted, the output was not written in full" \
    "$st|$(paste -sd'|' "$TMP/err")"
  "$BIN/xq-validate" --keep valid $G >/dev/full 2>"$TMP/err"; st=$?
  expect_eq "xq-validate --keep to a full stdout: exit 2, summary" \
    "2|xq-validate: write error on standard output: No space left on device|3 games: 3 valid, 0 with errors, 0 unreadable; 3 kept; the output was not written in full" \
    "$st|$(paste -sd'|' "$TMP/err")"
  "$BIN/xq-validate" --report json $G >/dev/full 2>"$TMP/err"; st=$?
  expect_eq "xq-validate --report json to a full stdout: exit 2, summary" \
    "2|xq-validate: write error on standard output: No space left on device|3 games: 3 valid, 0 with errors, 0 unreadable; the output was not written in full" \
    "$st|$(paste -sd'|' "$TMP/err")"
  "$BIN/xq-parse" --tags Result $G >/dev/full 2>"$TMP/err"; st=$?
  expect_eq "xq-parse --tags to a full stdout: exit 2, summary" \
    "2|xq-parse: write error on standard output: No space left on device|3 games, 104 plies decoded: 0 errors in 0 games, 0 warnings; the output was not written in full" \
    "$st|$(paste -sd'|' "$TMP/err")"
  for o in "" --json --csv; do
    "$BIN/xq-stats" $o $G >/dev/full 2>"$TMP/err"; st=$?
    expect_eq "xq-stats $o to a full stdout: exit 2, message" \
      "2|xq-stats: write error on standard output: No space left on device" "$st|$(paste -sd'|' "$TMP/err")"
  done
fi
"$BIN/xq-convert" $G -o /nonexistent/x.pgn 2>"$TMP/err"; st=$?
expect_eq "xq-convert -o into no directory: exit 2, no summary of success" "2|0" "$st|$(grep -c 'converted in full' "$TMP/err")"
mkdir "$TMP/o"; cp $G "$TMP/o/old.pgn"
"$BIN/xq-convert" $G /nonexistent/x.pgn -o "$TMP/o/old.pgn" 2>"$TMP/err"; st=$?
expect_eq "xq-convert -o with an unreadable input: exit 2, the file left as it was, said in the summary" \
  "2|xq-convert: $TMP/o/old.pgn left unchanged|3 games read: none converted, the output was not written in full" \
  "$st|$(tail -2 "$TMP/err" | paste -sd'|')"

# ---- -o - is standard output
case $BIN in /*) AB=$BIN ;; *) AB=$PWD/$BIN ;; esac
(cd "$TMP/o" && "$AB/xq-convert" -q -o - "$OLDPWD/$G" > stdout.pgn 2>/dev/null); st=$?
"$BIN/xq-convert" -q $G > "$TMP/ref.pgn"
expect_eq "-o -: standard output, no file named '-'" "0|yes|no" \
  "$st|$(cmp -s "$TMP/ref.pgn" "$TMP/o/stdout.pgn" && echo yes || echo no)|$([ -e "$TMP/o/-" ] && echo yes || echo no)"

# ---- -o keeps the replaced file's mode (and group where it may)
printf 'x\n' > "$TMP/o/m.pgn"; chmod 640 "$TMP/o/m.pgn"
grp=$(id -gn)
if [ "$(id -u)" = 0 ] && getent group nogroup >/dev/null; then grp=nogroup; chgrp nogroup "$TMP/o/m.pgn"; fi
"$BIN/xq-convert" -q -o "$TMP/o/m.pgn" $G
expect_eq "-o keeps mode 640 and the group of the file it replaces" "640 $grp|yes" \
  "$(stat -c '%a %G' "$TMP/o/m.pgn")|$(cmp -s "$TMP/ref.pgn" "$TMP/o/m.pgn" && echo yes || echo no)"
(umask 077; "$BIN/xq-convert" -q -o "$TMP/o/new.pgn" $G)
expect_eq "-o: a new file gets the umask's mode" "600" "$(stat -c '%a' "$TMP/o/new.pgn")"

# ---- a writable file in a directory the user cannot write: the message names the directory
cp $G "$TMP/g.pgn"; chmod a+r "$TMP/g.pgn"
mkdir "$TMP/ro"; printf 'x\n' > "$TMP/ro/f.pgn"; chmod 666 "$TMP/ro/f.pgn"; chmod 555 "$TMP/ro"; chmod 755 "$TMP"
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null 2>&1; then
    AS="setpriv --reuid=nobody --regid=nogroup --clear-groups"; cp -r "$BIN" "$TMP/bin"; chmod -R a+rx "$TMP/bin"; RB=$TMP/bin
  else AS=skip; fi
else AS=; RB=$BIN; fi
if [ "$AS" != skip ]; then
  $AS "$RB/xq-convert" -o "$TMP/ro/f.pgn" "$TMP/g.pgn" 2>"$TMP/err"; st=$?
  expect_eq "-o in a read-only directory: exit 2, the directory named, the file left as it was" \
    "2|xq-convert: $TMP/ro/f.pgn: cannot create a temporary file in directory $TMP/ro to write it: Permission denied (-o replaces the file once complete; '> $TMP/ro/f.pgn' writes it in place)|x" \
    "$st|$(cat "$TMP/err")|$(cat "$TMP/ro/f.pgn")"
else
  echo "# skip: root without setpriv"
fi
chmod 755 "$TMP/ro"

# ---- xq-validate --report json: a file that could not be read has a line of its own
: > "$TMP/unreadable.pgn"; chmod 000 "$TMP/unreadable.pgn"
"$BIN/xq-validate" --report json "$TMP/none.pgn" $G >"$TMP/out" 2>"$TMP/err"; st=$?
expect_eq "json: a missing file: its line first, then the games, exit 2" \
  "2|{\"file\":\"$TMP/none.pgn\",\"status\":\"unreadable-file\",\"line\":null,\"col\":null,\"error\":\"No such file or directory\"}|3" \
  "$st|$(head -1 "$TMP/out")|$(grep -c '"game":' "$TMP/out")"
gzip -c corpus/broken.pgn | head -c 300 > "$TMP/cut.gz"
"$BIN/xq-validate" --report json - < "$TMP/cut.gz" >"$TMP/out" 2>/dev/null; st=$?
expect_eq "json: gzip data cut short on stdin: the games read, then the file's line" \
  "2|3|{\"file\":\"-\",\"status\":\"unreadable-file\",\"line\":null,\"col\":null,\"error\":\"unexpected end of file: the gzip data is cut short\"}" \
  "$st|$(grep -c '"game":' "$TMP/out")|$(tail -1 "$TMP/out")"
if [ "$(id -u)" != 0 ]; then
  "$BIN/xq-validate" --report json "$TMP/unreadable.pgn" >"$TMP/out" 2>/dev/null
  expect_eq "json: an unreadable file" "{\"file\":\"$TMP/unreadable.pgn\",\"status\":\"unreadable-file\",\"line\":null,\"col\":null,\"error\":\"Permission denied\"}" "$(cat "$TMP/out")"
fi
mkdir "$TMP/dir.pgn"
"$BIN/xq-validate" --report json "$TMP/dir.pgn" >"$TMP/out" 2>/dev/null
expect_eq "json: a directory" "{\"file\":\"$TMP/dir.pgn\",\"status\":\"unreadable-file\",\"line\":null,\"col\":null,\"error\":\"Is a directory\"}" "$(cat "$TMP/out")"

# ---- xq-parse -J: the same line for a file it could not read (one writer: cli.h xq_cli_json_file_error)
"$BIN/xq-parse" -J "$TMP/none.pgn" $G >"$TMP/out" 2>/dev/null; st=$?
expect_eq "parse -J: a missing file: its line first, then the games, exit 2" \
  "2|{\"file\":\"$TMP/none.pgn\",\"status\":\"unreadable-file\",\"line\":null,\"col\":null,\"error\":\"No such file or directory\"}|3" \
  "$st|$(head -1 "$TMP/out")|$(grep -c '"game":' "$TMP/out")"
"$BIN/xq-parse" -J - < "$TMP/cut.gz" >"$TMP/out" 2>/dev/null; st=$?
expect_eq "parse -J: gzip data cut short on stdin: the games read, then the file's line" \
  "2|3|{\"file\":\"-\",\"status\":\"unreadable-file\",\"line\":null,\"col\":null,\"error\":\"unexpected end of file: the gzip data is cut short\"}" \
  "$st|$(grep -c '"game":' "$TMP/out")|$(tail -1 "$TMP/out")"
"$BIN/xq-parse" -J "$TMP/dir.pgn" >"$TMP/out" 2>/dev/null
"$BIN/xq-validate" --report json "$TMP/dir.pgn" >"$TMP/out2" 2>/dev/null
expect_eq "parse -J: a directory, the line of xq-validate --report json" "$(cat "$TMP/out2")" "$(cat "$TMP/out")"
"$BIN/xq-parse" -t Event "$TMP/none.pgn" >"$TMP/out" 2>/dev/null
expect_eq "parse --tags: no line for a missing file (TSV has no place for one)" "" "$(cat "$TMP/out")"
"$BIN/xq-validate" -q --report text "$TMP/none.pgn" >"$TMP/out" 2>/dev/null
expect_eq "text report: nothing on stdout for a missing file" "" "$(cat "$TMP/out")"
