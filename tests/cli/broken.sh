#!/bin/sh
# Hostile inputs: corpus/broken/* (small, committed) and the big ones that
# corpus/broken/generate.sh writes at test time.  Each gives exactly the
# diagnostics of tests/expected/broken-NAME.txt (stderr of xq-validate, then
# "exit N"); nothing crashes, hangs or trips a sanitizer in any tool; the
# summary's counts add up and the JSON report has one line per game; a
# failed xq-convert -o FILE leaves no file behind; nothing touches the
# network.
. tests/cli/lib.sh
V=$BIN/xq-validate
B=corpus/broken
sh $B/generate.sh "$TMP/big" >/dev/null || echo "not ok - generate.sh"

# sanitizer or crash in the output of the last run
clean_run() {
  if grep -q -E 'Sanitizer|runtime error|Segmentation|Aborted|core dumped' "$TMP/err"; then
    echo "not ok - $1: sanitizer report or crash"; head -5 "$TMP/err"
  else echo "ok - $1"; fi
}

# check NAME FILE [OPTION...]: xq-validate's stderr and status, exactly
check() {
  name=$1 file=$2; shift 2
  $V -j 2 "$@" "$file" >"$TMP/out" 2>"$TMP/err"; st=$?
  { sed "s|$TMP/big/|BIG/|g" "$TMP/err"; echo "exit $st"; } >"$TMP/got"
  expect_eq "$name: diagnostics" "$(cat tests/expected/broken-$name.txt)" "$(cat "$TMP/got")"
  expect_eq "$name: nothing on stdout" "" "$(head -c 200 "$TMP/out")"
  # the summary's counts add up, and the JSON report has a line per game
  sum=$(tail -1 "$TMP/err")
  n=$(echo "$sum" | sed -n 's/^\([0-9]*\) games\{0,1\}: \([0-9]*\) valid, \([0-9]*\) with errors, \([0-9]*\) unreadable.*/\1 \2 \3 \4/p')
  set -- $n
  if [ $# -eq 4 ] && [ $(($2 + $3 + $4)) -eq "$1" ]; then echo "ok - $name: counts add up"
  else echo "not ok - $name: counts do not add up: $sum"; fi
  case $file in "$TMP"/big/*) set -- ;; esac   # the big ones: once is enough
  if [ $# -eq 4 ]; then
    expect_eq "$name: one JSON line per game" "$1" "$($V -j 2 --report json "$file" 2>/dev/null | grep -c '"game":')"
  fi
}

check empty $B/empty.pgn
check only-tags $B/only-tags.pgn
check truncated-tag $B/truncated-tag.pgn
check truncated-move $B/truncated-move.pgn
check truncated-comment $B/truncated-comment.pgn
check unterminated-comment $B/unterminated-comment.pgn
check unterminated-variation $B/unterminated-variation.pgn
check nul-bytes $B/nul-bytes.pgn
check invalid-utf8 $B/invalid-utf8.pgn
check invalid-big5 $B/invalid-big5.pgn
check gbk-as-utf8 $B/gbk-as-utf8.pgn --encoding utf8
check gbk-with-utf8-bom $B/gbk-with-utf8-bom.pgn
check mixed-crlf $B/mixed-crlf.pgn
check gzip-truncated $B/gzip-truncated.pgn.gz
check gzip-garbage $B/gzip-garbage.pgn.gz
check fen-11-ranks $B/fen-11-ranks.pgn
check xml-external-entity $B/xml-external-entity.xml
check xml-billion-laughs $B/xml-billion-laughs.xml
check xml-network-dtd $B/xml-network-dtd.xml
check xml-late-doctype "$TMP/big/xml-late-doctype.xml"
check long-line "$TMP/big/long-line.pgn"
check long-game "$TMP/big/long-game.pgn"
check long-tag "$TMP/big/long-tag.pgn"
check many-tags "$TMP/big/many-tags.pgn"
check deep-variations "$TMP/big/deep-variations.pgn"
check gzip-bomb "$TMP/big/gzip-bomb.pgn.gz"
check gzip-lines "$TMP/big/gzip-lines.pgn.gz"

# the auto-detected GBK file is fine without --encoding
expect_status "gbk-as-utf8 detected as GBK" 0 $V -q $B/gbk-as-utf8.pgn

# a gzip bomb stays within bounded memory (not under ASan: it reserves
# terabytes of address space; told by the runtime linked in, whatever
# the build directory is called)
if grep -q __asan_init "$V" 2>/dev/null; then
  echo "# skip: memory bound under ASan"
else
  ( ulimit -v 600000; $V -q -j 1 "$TMP/big/gzip-bomb.pgn.gz" ) 2>"$TMP/err"
  expect_eq "gzip bomb read within 600 MB" 1 $?
fi

# every tool on every hostile input: no crash, no sanitizer report (every
# writer on the small ones, one on the big ones, which take time)
for f in $B/*.pgn $B/*.gz $B/*.xml "$TMP"/big/*; do
  base=$(basename "$f")
  formats="pgn jsonl xml xboard ucci"
  case $f in "$TMP"/big/*) formats=xml ;; esac
  for t in $formats; do
    $BIN/xq-convert -q --to $t "$f" >/dev/null 2>"$TMP/err"; st=$?
    [ $st -le 2 ] || echo "not ok - xq-convert --to $t $base: exit $st"
    grep -q -E 'Sanitizer|runtime error' "$TMP/err" && echo "not ok - xq-convert --to $t $base: sanitizer" && head -3 "$TMP/err"
  done
  tools="xq-parse xq-stats"
  case $f in "$TMP"/big/*) tools=xq-stats ;; esac
  for tool in $tools; do
    [ -x $BIN/$tool ] || continue
    $BIN/$tool "$f" >/dev/null 2>"$TMP/err"; st=$?
    [ $st -le 2 ] || echo "not ok - $tool $base: exit $st"
    grep -q -E 'Sanitizer|runtime error' "$TMP/err" && echo "not ok - $tool $base: sanitizer" && head -3 "$TMP/err"
  done
  case $f in "$TMP"/big/*) ;; *) $V -q --keep invalid --fix-results "$f" >/dev/null 2>"$TMP/err" ;; esac
  clean_run "every tool on $base"
done

# xq-convert -o FILE is atomic: a failed run leaves no file, not even a
# temporary one, and an existing file is left as it was
mkdir "$TMP/o"
$BIN/xq-convert -q -o "$TMP/o/out.pgn" $B/gzip-truncated.pgn.gz 2>"$TMP/err"; st=$?
expect_eq "convert -o on a cut gzip: exit 2" 2 $st
expect_eq "convert -o on a cut gzip: no file left" "" "$(ls "$TMP/o")"
echo "kept" > "$TMP/o/out.pgn"
$BIN/xq-convert -q -o "$TMP/o/out.pgn" $B/xml-network-dtd.xml 2>/dev/null
expect_eq "convert -o on a refused file: the old file unchanged" "kept" "$(cat "$TMP/o/out.pgn")"
expect_eq "convert -o: no temporary file left" "out.pgn" "$(ls "$TMP/o")"

# nothing is fetched from the network (when strace is there to tell)
if command -v strace >/dev/null 2>&1; then
  for f in $B/xml-network-dtd.xml $B/xml-external-entity.xml "$TMP/big/xml-late-doctype.xml"; do
    strace -f -qq -e trace=socket,connect -o "$TMP/strace" $V -q "$f" 2>/dev/null
    expect_eq "no socket opened for $(basename "$f")" "" "$(grep -E 'socket\(AF_INET|connect\(' "$TMP/strace" | head -3)"
  done
else
  echo "# skip: strace not installed, network check not run"
fi
