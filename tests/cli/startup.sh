#!/bin/sh
# libxml2 is loaded only for XML input (src/lib/xml_lib.h).
#  - No tool names libxml2 among the libraries it needs (readelf -d), so a
#    start pays neither for it nor for what it pulls in (ICU, libstdc++).
#  - A run over PGN, or an empty file, never maps it (the dynamic loader's
#    LD_DEBUG=files log names every object it maps).
#  - A run over XML loads it (dlopen) and reads the games: the same
#    findings as over the PGN it was converted from, under -j1 and -j2.
. tests/cli/lib.sh
T="xq-validate xq-parse xq-stats xq-convert"

if command -v readelf >/dev/null 2>&1; then
  for t in $T; do
    n=$(readelf -d "$BIN/$t" | grep NEEDED | grep -c libxml2)
    expect_eq "$t does not link libxml2" 0 "$n"
  done
else
  echo "# skip: readelf not installed"
fi

# loaded NAME FILE ARGS...: "yes" when running NAME over FILE maps libxml2
loaded() {
  _t=$1; shift
  LD_DEBUG=files "$BIN/$_t" "$@" >/dev/null 2>"$TMP/ld"
  if grep -q 'file=libxml2' "$TMP/ld"; then echo yes; else echo no; fi
}

: > "$TMP/empty.pgn"
for t in $T; do
  expect_eq "$t over PGN does not map libxml2" no "$(loaded $t corpus/sample-games.pgn)"
done
expect_eq "xq-validate over an empty file does not map libxml2" no "$(loaded xq-validate $TMP/empty.pgn)"
expect_eq "xq-convert --to xml does not map libxml2 (it writes XML itself)" no \
  "$(loaded xq-convert --to xml -o $TMP/s.xml corpus/sample-games.pgn)"

"$BIN/xq-convert" -q --to xml corpus/broken.pgn > "$TMP/broken.xml" 2>/dev/null
for t in $T; do
  expect_eq "$t over XML maps libxml2" yes "$(loaded $t $TMP/broken.xml)"
done

# the same findings from the XML as from the PGN (XML lines differ: compare
# the game numbers and reasons), one thread and two
for j in 1 2; do
  "$BIN/xq-validate" -j$j corpus/broken.pgn 2>&1 | sed -n 's/^[^:]*:[0-9]*:[0-9]*: //p' |
    grep -v 'Unterminated comment' > "$TMP/pgn.txt"
  "$BIN/xq-validate" -j$j "$TMP/broken.xml" 2>&1 | sed -n 's/^[^:]*:[0-9]*:[0-9]*: //p' > "$TMP/xml.txt"
  expect_eq "xq-validate -j$j reads the XML: the PGN's findings" "$(cat "$TMP/pgn.txt")" "$(cat "$TMP/xml.txt")"
done
