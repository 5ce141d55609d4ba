#!/bin/sh
# Options that choose one thing (output format, report, notation, encoding,
# rule set, event, output file, --keep), given twice with other values or
# with another option choosing the same thing: a usage error (exit 2, one
# line naming both), in every tool; the same choice twice is fine.
. tests/cli/lib.sh
F=corpus/sample-games.pgn
# conflict NAME MESSAGE TOOL ARGS...: exit 2, nothing on stdout, the one line
conflict() {
  _name=$1 _msg=$2; shift 2
  expect_status "$_name: exit 2" 2 "$BIN/$@" "$F"
  expect_eq "$_name: one line naming both" "$_msg" "$(cat "$TMP/err")"
  expect_eq "$_name: no output" "" "$(cat "$TMP/out")"
}
conflict "xq-stats --json --csv" "xq-stats: --json and --csv conflict: give one" xq-stats --json --csv
conflict "xq-stats --csv --json" "xq-stats: --csv and --json conflict: give one" xq-stats --csv --json
conflict "xq-stats two rule sets" "xq-stats: --rules=axf and --rules=cxa1999 conflict: give one" xq-stats --rules axf --rules cxa1999
conflict "xq-stats two events" "xq-stats: --event=A and --event=B conflict: give one" xq-stats --event A --event B
conflict "xq-stats two systems" "xq-stats: --system=rr and --system=swiss conflict: give one" xq-stats --system rr --system swiss
conflict "xq-stats two encodings" "xq-stats: --encoding=gbk and --encoding=utf8 conflict: give one" xq-stats -e gbk --encoding utf8
conflict "xq-validate two reports" "xq-validate: --report=json and --report=text conflict: give one" xq-validate --report json -r text
conflict "xq-validate two --keep" "xq-validate: --keep=valid and --keep=invalid conflict: give one" xq-validate --keep valid --keep invalid
conflict "xq-validate two rule sets" "xq-validate: --rules=cxa1999 and --rules=axf conflict: give one" xq-validate --rules cxa1999 --rules axf
conflict "xq-validate two encodings" "xq-validate: --encoding=big5 and --encoding=gbk conflict: give one" xq-validate -e big5 -e gbk
conflict "xq-parse --json --tags" "xq-parse: --json and --tags=Event conflict: give one" xq-parse -J --tags Event
conflict "xq-parse two tag lists" "xq-parse: --tags=Event and --tags=Red conflict: give one" xq-parse --tags Event -t Red
conflict "xq-parse two encodings" "xq-parse: --encoding=auto and --encoding=gbk conflict: give one" xq-parse -e auto -e gbk
conflict "xq-convert two --to" "xq-convert: --to=xml and --to=pgn conflict: give one" xq-convert --to xml -t pgn
conflict "xq-convert two notations" "xq-convert: --notation=wxf and --notation=iccs conflict: give one" xq-convert -n wxf -n iccs
conflict "xq-convert two output encodings" "xq-convert: --encoding=gbk and --encoding=big5 conflict: give one" xq-convert -e gbk -e big5
conflict "xq-convert two input encodings" "xq-convert: --input-encoding=gbk and --input-encoding=big5 conflict: give one" xq-convert -i gbk -i big5
conflict "xq-convert two --from" "xq-convert: --from=pgn and --from=jsonl conflict: give one" xq-convert --from pgn --from jsonl
conflict "xq-convert two outputs" "xq-convert: --output=$TMP/a and --output=$TMP/b conflict: give one" xq-convert -o "$TMP/a" -o "$TMP/b"
expect_eq "xq-convert two outputs: neither written" "" "$(ls "$TMP/a" "$TMP/b" 2>/dev/null)"
conflict "xq-convert --traditional --simplified" "xq-convert: --traditional and --simplified conflict: give one" xq-convert --traditional --simplified

# the same choice again: as once
expect_eq "xq-stats --csv --csv: as --csv" "$("$BIN/xq-stats" --csv "$F")" "$("$BIN/xq-stats" --csv --csv "$F")"
expect_eq "xq-convert --to xml --to xml: as --to xml" "$("$BIN/xq-convert" -q --to xml "$F")" "$("$BIN/xq-convert" -q --to xml -t xml "$F")"
expect_status "xq-validate --report json twice: fine" 0 "$BIN/xq-validate" -q --report json -r json "$F"
expect_status "xq-stats --system rr and round-robin (one system): fine" 0 "$BIN/xq-stats" --system rr --system round-robin "$F"
iconv -f UTF-8 -t GBK "$F" > "$TMP/gbk.pgn"
expect_status "xq-convert -i gbk --input-encoding GBK: fine" 0 "$BIN/xq-convert" -q -i gbk --input-encoding GBK "$TMP/gbk.pgn"
expect_status "xq-parse --tags Event twice: fine" 0 "$BIN/xq-parse" -q -t Event --tags Event "$F"
# numbers keep the last value
expect_status "-j twice: the last one" 0 "$BIN/xq-validate" -q -j 1 -j 2 "$F"
