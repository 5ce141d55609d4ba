#!/bin/sh
# xq-stats: standings on small hand-made events, merge(split) == whole,
# the GNU parallel recipe of README.md, counts on the public corpus, and
# the ECCO table re-derived exactly from the corpus.
. tests/cli/lib.sh
S=$BIN/xq-stats
RR=tests/data/stats-roundrobin.pgn
SW=tests/data/stats-swiss.pgn

expect_status "help" 0 $S --help
expect_eq "help names --merge" 1 "$(grep -c -- '-m, --merge ' $TMP/out)"
expect_status "version" 0 $S --version
expect_eq "version line" "xq-stats (xq-tools) $(sed -n 's/#define XQ_VERSION "\(.*\)"/\1/p' src/tools/cli.h)" "$(cat $TMP/out)"
expect_status "unknown option" 2 $S --no-such-option
expect_status "missing file" 2 $S /nonexistent/file.pgn
expect_eq "missing file message" "xq-stats: /nonexistent/file.pgn: No such file or directory" "$(cat $TMP/err)"
expect_status "bad --system" 2 $S --system knockout $RR
expect_status "--merge with rules" 2 $S --merge --move-limit 50 /dev/null

# Round robin (CXA1999 §15.1), checked by hand in tests/unit/test_stats.c:
# C, D, E 3 points and 小分 7; C has 3 wins; D beat E; A and B drew each
# other and tie on everything: shared 5th.
expect_status "round robin" 0 $S --event "Test Cup 2024" $RR
expect_eq "round robin standings and crosstable" 'Event "Test Cup 2024": 6 players, 15 games
  (1 game without a result left out)
  ranked by score (CXA1999 §14.1: win 1, draw 0.5, loss 0), then §15.1 (round robin): 小分 (Sonneborn-Berger), wins, direct encounter
  rank  player     games  wins  draws  losses  score  小分  direct
     1  Chao Wang      5     3      0       2      3     7
     2  Dan Xu         5     2      2       1      3     7       1
     3  Eva Zhou       5     2      2       1      3     7       0
     4  Fei Sun        5     1      2       2      2     6
     5  Anna Li        5     1      2       2      2   4.5     0.5
     5  Bo Chen        5     1      2       2      2   4.5     0.5
  (fouls, the last tie-break, are not in game records: a shared rank stays shared)
  note: round 2, Chao Wang - Anna Li 1-0 has no move: a forfeit (棄權, CXA1999 §20.3-20.4, §21.1) or not played; scored as the tag
  note: round 3, Fei Sun - Bo Chen 0-1 has no move: a forfeit (棄權, CXA1999 §20.3-20.4, §21.1) or not played; scored as the tag
  note: round 4, Fei Sun - Chao Wang 1-0 has no move: a forfeit (棄權, CXA1999 §20.3-20.4, §21.1) or not played; scored as the tag

Crosstable
  #  player     1  2  3  4  5  6  score
  1  Chao Wang  x  1  0  0  1  1      3
  2  Dan Xu     0  x  1  ½  ½  1      3
  3  Eva Zhou   1  0  x  ½  1  ½      3
  4  Fei Sun    1  ½  ½  x  0  0      2
  5  Anna Li    0  ½  0  1  x  ½      2
  6  Bo Chen    0  0  ½  1  ½  x      2' "$(sed -n '/^Event "/,$p' $TMP/out)"
expect_eq "round robin: no progress line when stderr is not a terminal" "" "$(cat $TMP/err)"
expect_eq "round robin: players" "  Anna Li        7     1      2       3          1      2    33.3%" \
  "$(grep '^  Anna Li ' $TMP/out)"

# Swiss (CXA1999 §15.2): 對手分 separates 呂欽/許銀川 from nobody (5 each),
# wins do (2 to 1); 王天一 and 鄭惟桐 tie on score, 對手分 and wins.
expect_status "swiss" 0 $S --event "測試公開賽" $SW
expect_eq "swiss standings and crosstable" 'Event "測試公開賽": 6 players, 9 games
  ranked by score (CXA1999 §14.1: win 1, draw 0.5, loss 0), then §15.2 (Swiss): 對手分 (opponents'"'"' scores), wins
  (Swiss by --system auto: not every two players met equally often; 呂欽 and 洪智 met 1 time, 呂欽 and 王天一 0)
  rank  player  games  wins  draws  losses  score  對手分
     1  呂欽        3     2      0       1      2       5
     2  許銀川      3     1      2       0      2       5
     3  洪智        3     1      1       1    1.5     4.5
     4  王天一      3     1      1       1    1.5       4
     4  鄭惟桐      3     1      1       1    1.5       4
     6  趙鑫鑫      3     0      1       2    0.5     4.5
  (fouls, the last tie-break, are not in game records: a shared rank stays shared)

Crosstable
  #  player   R1   R2   R3  score
  1  呂欽    2b0  3r1  5b1      2
  2  許銀川  1r1  4b½  3r½      2
  3  洪智    6b1  1b0  2b½    1.5
  4  王天一  5r0  2r½  6r1    1.5
  5  鄭惟桐  4b1  6r½  1r0    1.5
  6  趙鑫鑫  3r0  5b½  4b0    0.5
  (cell: opponent'"'"'s number, r or b for the colour played, result)' "$(sed -n '/^Event "/,$p' $TMP/out)"
expect_eq "swiss as CSV" 'standings,1,呂欽,3,2,0,1,2,5,
standings,4,鄭惟桐,3,1,1,1,1.5,4,' \
  "$($S --csv --event "測試公開賽" $SW | grep -E '^standings,(1|4),(呂欽|鄭惟桐)')"
expect_eq "forced round-robin tie-breaks" "round robin" \
  "$($S --system round-robin --event "測試公開賽" $SW | grep -o 'round robin')"

# A record that repeats a game of the event (round 1, Anna Li - Bo Chen,
# filed again with a Site tag) is scored once in the standings, and
# counted once in the Players table (text and CSV), with a note.
{ cat $RR; echo; sed -n 1,7p $RR | sed 's/^\[Round "1"\]/&\n[Site "copy"]/'; } > $TMP/rr-dup.pgn
expect_eq "a copy counted once in Players" '  Anna Li        7     1      2       3          1      2    33.3%
  Bo Chen        6     1      2       2          1      2    40.0%
  note: 1 record of event "Test Cup 2024" repeats one of its games (same round, players, result and moves): counted once in the players and events tables, as in its standings' \
  "$($S --event "Test Cup 2024" $TMP/rr-dup.pgn | grep -E '^  (Anna Li|Bo Chen|note: 1 record) ')"
expect_eq "a copy counted once in CSV players" 'players,Anna Li,7,1,2,3,2
players,Bo Chen,6,1,2,2,2' "$($S --csv --event "Test Cup 2024" $TMP/rr-dup.pgn | grep -E '^players,(Anna|Bo)')"
# The notes reach the CSV (a notes table: kind, note) and the JSON
# (derived.standings.notes) too, in the text's order.
expect_eq "notes as CSV" 'table,kind,note
notes,players,"1 record of event ""Test Cup 2024"" repeats one of its games (same round, players, result and moves): counted once in the players and events tables, as in its standings"
notes,copy,"round 1, Anna Li - Bo Chen 1/2-1/2 is recorded again with the same moves: the same game, scored once"
notes,forfeit,"round 2, Chao Wang - Anna Li 1-0 has no move: a forfeit (棄權, CXA1999 §20.3-20.4, §21.1) or not played; scored as the tag"' \
  "$($S --csv --event "Test Cup 2024" $TMP/rr-dup.pgn | sed -n '/^table,kind,note$/,$p' | head -4)"
expect_eq "notes as JSON" '"notes":[{"kind":"copy","note":"round 1, Anna Li - Bo Chen 1/2-1/2 is recorded again with the same moves: the same game, scored once"},{"kind":"forfeit","note":"round 2, Chao Wang - Anna Li 1-0 has no move: a forfeit (棄權, CXA1999 §20.3-20.4, §21.1) or not played; scored as the tag"}' \
  "$($S --json --event "Test Cup 2024" $TMP/rr-dup.pgn | grep -o '"notes":\[{[^}]*},{[^}]*}')"
expect_eq "no notes: an empty JSON array, a CSV table with its header only" '"notes":[]}}}
table,kind,note' "$($S --json --event "Double" $TMP/rr-dup.pgn | grep -o '"notes":.*'; $S --csv --event "Double" $TMP/rr-dup.pgn | tail -1)"
# the Events table as the Players table: the event's copy counted once
# (text and CSV), with the note; other events and runs without --event
# count records; the JSON keeps the records (merges stay exact)
expect_eq "a copy counted once in Events, the note (under Players) saying so" '  note: 1 record of event "Test Cup 2024" repeats one of its games (same round, players, result and moves): counted once in the players and events tables, as in its standings
  Test Cup 2024     16
  Another Open       1' \
  "$($S --event "Test Cup 2024" $TMP/rr-dup.pgn | grep -E '^  (Test Cup 2024|Another Open|note: 1 record) ')"
expect_eq "a copy counted once in CSV events" 'events,Another Open,1
events,Test Cup 2024,16' "$($S --csv --event "Test Cup 2024" $TMP/rr-dup.pgn | grep '^events,')"
expect_eq "another event selected: Test Cup's records all counted" '  Test Cup 2024     17' \
  "$($S --event "Another Open" $TMP/rr-dup.pgn | grep '^  Test Cup 2024 ')"
expect_eq "JSON events keep the records" '["Test Cup 2024",17]' \
  "$($S --json --event "Test Cup 2024" $TMP/rr-dup.pgn | grep -o '\["Test Cup 2024",[0-9]*\]')"
expect_eq "without --event, Events counts records" "  Test Cup 2024     17" \
  "$($S $TMP/rr-dup.pgn | grep '^  Test Cup 2024 ')"
expect_eq "without --event, Players counts records" "  Anna Li        8     1      3       3          1    2.5    35.7%" \
  "$($S $TMP/rr-dup.pgn | grep '^  Anna Li ')"

# Two forfeits of a double round robin without Round tags, on other days,
# are two games; the same forfeit filed again (same Date) is one; and that
# holds through --json and --merge.
cat > $TMP/dr.pgn <<'EOF2'
[Event "Double"]
[Date "2024.05.01"]
[Red "A"]
[Black "B"]
[Result "1-0"]

1-0

[Event "Double"]
[Date "2024.05.03"]
[Red "A"]
[Black "B"]
[Result "1-0"]

1-0

[Event "Double"]
[Date "2024.05.02"]
[Red "B"]
[Black "A"]
[Result "1/2-1/2"]

1. 炮二平五 炮８平５ 1/2-1/2
EOF2
expect_eq "two forfeits on other days: two games" '     1  A           3     2      1       0    2.5' \
  "$($S --event Double $TMP/dr.pgn | grep '^     1  A ' | cut -c1-49)"
sed -n 1,7p $TMP/dr.pgn > $TMP/dr-copy.pgn
expect_eq "a forfeit filed again (same Date): one game" 'Event "Double": 2 players, 3 games
  note: round unknown, A - B 1-0 is recorded again with the same moves: the same game, scored once' \
  "$(cat $TMP/dr.pgn $TMP/dr-copy.pgn | $S --event Double | grep -E '^Event "|again')"
$S --json --event Double $TMP/dr.pgn > $TMP/dr1.json
$S --json --event Double $TMP/dr-copy.pgn > $TMP/dr2.json
expect_eq "forfeits through --merge" "$(cat $TMP/dr.pgn $TMP/dr-copy.pgn | $S --event Double)" \
  "$($S --merge $TMP/dr1.json $TMP/dr2.json)"

# --system is recorded in the JSON parts: a merge ranks as the parts did,
# its own --system overrides them, and parts that differ are refused.
$S --json --system rr --event "測試公開賽" $SW > $TMP/sw-rr.json
$S --json --event "測試公開賽" $SW > $TMP/sw-auto.json
expect_eq "merge keeps the parts' --system" "$($S --system rr --event "測試公開賽" $SW)" "$($S --merge $TMP/sw-rr.json)"
expect_eq "merge's own --system overrides the parts'" "$($S --system swiss --event "測試公開賽" $SW)" \
  "$($S --merge --system swiss $TMP/sw-rr.json)"
expect_eq "merge's own --system is recorded" '"system":"swiss"}' \
  "$($S --merge --json --system swiss $TMP/sw-rr.json | grep -o '"system":"swiss"}')"
expect_status "merge of parts with other systems" 2 $S --merge $TMP/sw-rr.json $TMP/sw-auto.json
expect_eq "merge of parts with other systems: one line" \
  "xq-stats: $TMP/sw-auto.json:1: the statistics were made with different tie-break systems (--system round-robin and auto)" \
  "$(cat $TMP/err)"

# merge(split) == whole: every split point of the hand-made files, both orders
cat $RR $SW > $TMP/both.pgn
$S --json --event "Test Cup 2024" $TMP/both.pgn > $TMP/whole.json
$S --event "Test Cup 2024" $TMP/both.pgn > $TMP/whole.txt
starts=$(grep -n '^\[Event' $TMP/both.pgn | cut -d: -f1)
bad=0
for n in $starts; do
  head -n $((n - 1)) $TMP/both.pgn > $TMP/p1.pgn
  tail -n +$n $TMP/both.pgn > $TMP/p2.pgn
  $S --json --event "Test Cup 2024" $TMP/p1.pgn > $TMP/a.json
  $S --json --event "Test Cup 2024" - < $TMP/p2.pgn > $TMP/b.json
  $S --merge --json $TMP/b.json $TMP/a.json | cmp -s - $TMP/whole.json || bad=$((bad + 1))
  $S --merge $TMP/a.json $TMP/b.json | cmp -s - $TMP/whole.txt || bad=$((bad + 1))
done
expect_eq "merge of every split == whole (json and text)" 0 $bad
cat $TMP/a.json $TMP/b.json | $S --merge --json > $TMP/m.json
expect_eq "several objects on standard input" "" "$(cmp $TMP/m.json $TMP/whole.json)"
$S --json $RR > $TMP/noevent.json
expect_status "merge refuses other options" 2 $S --merge $TMP/a.json $TMP/noevent.json
expect_eq "merge refusal message: the setting and both values" "xq-stats: $TMP/noevent.json:1: the statistics were made for different events (--event \"Test Cup 2024\" and none)" "$(cat $TMP/err)"
$S --json --rules axf $RR > $TMP/axf-rr.json
$S --json --move-limit 50 $RR > $TMP/ml-rr.json
expect_eq "merge refusal: other rules, both named" "xq-stats: $TMP/noevent.json:1: the statistics were made with different rules (--rules axf and cxa1999)" \
  "$($S --merge $TMP/axf-rr.json $TMP/noevent.json 2>&1)"
expect_eq "merge refusal: another move limit, both values" "xq-stats: $TMP/ml-rr.json:1: the statistics were made with different rules (--move-limit 60 and 50)" \
  "$($S --merge $TMP/noevent.json $TMP/ml-rr.json 2>&1)"
head -c 500 $TMP/a.json > $TMP/cut.json
expect_status "merge of a cut file" 2 $S --merge $TMP/cut.json
expect_eq "cut file message" "xq-stats: $TMP/cut.json:1: the JSON object is cut short" "$(cat $TMP/err)"
# counts that pass 2^64-1 when summed: refused, never wrapped (the parts
# are other runs' JSON and may be made up); the largest count itself reads
many() {   # the part $1 with N records, all from the start and valid
  sed "s/\"records\":[0-9]*/\"records\":$2/; s/\"from_start\":[0-9]*/\"from_start\":$2/; s/\"from_fen\":[0-9]*/\"from_fen\":0/; s/\"unreadable\":[0-9]*/\"unreadable\":0/; s/\"valid\":[0-9]*/\"valid\":$2/; s/\"illegal\":[0-9]*/\"illegal\":0/" "$1"
}
many $TMP/a.json 18446744073709551615 > $TMP/max.json
expect_status "merge: a count of 2^64-1 reads" 0 $S --merge --json $TMP/max.json
expect_eq "merge: a count of 2^64-1 kept" '"records":18446744073709551615' "$(grep -o '"records":[0-9]*' $TMP/out)"
expect_status "merge: a sum past 2^64-1" 2 $S --merge $TMP/max.json $TMP/a.json
expect_eq "merge: a sum past 2^64-1: message" "xq-stats: $TMP/a.json:1: a count passes 18446744073709551615 (64 bits): the sum would be wrong" "$(cat $TMP/err)"
sed 's/"outcomes":\[/"outcomes":[["1-0","checkmate","1-0",18446744073709551615],["1-0","checkmate","1-0",1],/' $TMP/a.json > $TMP/dup.json
expect_status "merge: a repeated row summing past 2^64-1" 2 $S --merge $TMP/dup.json
expect_eq "merge: a repeated row summing past 2^64-1: message" "xq-stats: $TMP/dup.json:1: repeated entries: their counts sum past 18446744073709551615 (64 bits)" "$(cat $TMP/err)"

if have_shared corpus/ccpd/masters.pgn.gz; then
  M=$SHARED/corpus/ccpd/masters.pgn.gz
  $S --csv $M > $TMP/masters.csv 2>$TMP/err
  expect_eq "masters: counts" "counts,records,53685
counts,from_start,53685
counts,from_fen,0
counts,unreadable,0
counts,valid,53684
counts,illegal,1
counts,distinct_moves,27761
counts,distinct_moves_tags,42606
counts,plies_total,4683603
counts,plies_mean,87.24
counts,plies_median,79.0
counts,heldout_games,26623
counts,heldout_agree,25320
counts,ecco_bad_tag,0
counts,ecco_unclassified,77
counts,forfeits_red,22
counts,forfeits_black,16
counts,files_failed,0" "$(grep '^counts,' $TMP/masters.csv | grep -v with_errors)"
  expect_eq "masters: results by tag" "1-0 20650, 0-1 14675, 1/2-1/2 18326, * 34" \
    "$(awk -F, '$1=="outcomes" {n[$2]+=$5} END {printf "1-0 %d, 0-1 %d, 1/2-1/2 %d, * %d", n["1-0"], n["0-1"], n["1/2-1/2"], n["*"]}' $TMP/masters.csv)"
  expect_eq "masters: checkmates 304 + 238, stalemates 2 + 1" "checkmate 542, stalemate 3" \
    "$(awk -F, '$1=="outcomes" {n[$3]+=$5} END {printf "checkmate %d, stalemate %d", n["checkmate"], n["stalemate"]}' $TMP/masters.csv)"
  expect_eq "masters: findings that do not depend on repetition verdicts" "findings,illegal-move,1
findings,tandem-plain-file,19461
findings,syntax,472" "$(grep -E '^findings,(illegal-move|tandem-plain-file|syntax),' $TMP/masters.csv)"
  expect_eq "masters: 6960 players, 36472 events" "6960 36472" \
    "$(echo $(grep -c '^players,' $TMP/masters.csv) $(grep -c '^events,' $TMP/masters.csv))"
  expect_eq "masters: most tagged opening, with its variation and games" \
    "openings,C23,中炮过河车七路马对屏风马两头蛇,红左横车兑三兵对黑高右炮,1083,0,1083" \
    "$(grep '^openings,' $TMP/masters.csv | sort -t, -k5,5nr | head -1)"
  expect_eq "masters: the openings table's columns" "table,code,opening,variation,tagged,classified,games" \
    "$(grep -B1 -m1 '^openings,' $TMP/masters.csv | head -1)"
  expect_eq "masters: 呂欽" "players,呂欽,3373,1345,1474,554,2082" "$(grep '^players,呂欽,' $TMP/masters.csv)"

  # the same through two parts and --merge, and through GNU parallel (README recipe)
  zcat $M > $TMP/m.pgn
  n=$(grep -n '^\[Game' $TMP/m.pgn | sed -n 20001p | cut -d: -f1)
  head -n $((n - 1)) $TMP/m.pgn | $S -q --json - > $TMP/a.json
  tail -n +$n $TMP/m.pgn | gzip -c > $TMP/p2.pgn.gz
  $S -q --json $TMP/p2.pgn.gz > $TMP/b.json
  $S --csv --merge $TMP/a.json $TMP/b.json > $TMP/merged.csv
  expect_eq "masters: merge of two parts == whole" "" "$(cmp $TMP/merged.csv $TMP/masters.csv)"
  if command -v parallel >/dev/null 2>&1; then
    zcat $M | parallel --will-cite --pipe --block 4M --recend '\n\n' --recstart '[' \
      "$S -q -j1 --json -" > $TMP/parts.json
    expect_eq "GNU parallel: several parts" 1 "$([ $(wc -l < $TMP/parts.json) -gt 1 ] && echo 1)"
    $S --csv --merge $TMP/parts.json > $TMP/par.csv
    expect_eq "GNU parallel recipe == whole" "" "$(cmp $TMP/par.csv $TMP/masters.csv)"
  else
    echo "# skip: GNU parallel not installed (apt-get install parallel)"
  fi

  # the committed ECCO table is exactly what the corpus derives
  $S --derive-ecco -q $M > $TMP/ecco_table.inc
  expect_eq "ECCO table re-derived from masters.pgn.gz" "" "$(cmp $TMP/ecco_table.inc src/lib/ecco_table.inc)"
fi
if have_shared corpus/ccpd/middlegames.pgn.gz; then
  expect_eq "middlegames: from a FEN" "counts,records,2807 counts,from_start,141 counts,from_fen,2666" \
    "$(echo $($S --csv $SHARED/corpus/ccpd/middlegames.pgn.gz | grep -E '^counts,(records|from_start|from_fen),'))"
fi

# parts made under different repetition rules do not merge
$BIN/xq-stats -q --json --rules axf corpus/sample-games.pgn > $TMP/axf.json 2>/dev/null
$BIN/xq-stats -q --json corpus/sample-games.pgn > $TMP/cxa.json 2>/dev/null
expect_eq "json records the rule set" '"rules":"axf"' "$(grep -o '"rules":"axf"' $TMP/axf.json)"
expect_status "merge refuses mixed rule sets" 2 $BIN/xq-stats --merge $TMP/axf.json $TMP/cxa.json

# ---- a file that fails among good ones: the others are counted, the
# output says how many failed, exit status 2 (man/xq-stats.1, EXIT STATUS)
SG=corpus/sample-games.pgn
EC=corpus/edge-cases.pgn
expect_status "a missing file among good ones: exit 2" 2 $S $SG /nonexistent/missing.pgn $EC
expect_eq "a missing file among good ones: the good ones' statistics, the count shown" \
  "$(cat tests/expected/stats-failed-file.txt)" "$(cat $TMP/out)"
expect_eq "a missing file among good ones: its message" \
  "xq-stats: /nonexistent/missing.pgn: No such file or directory" "$(cat $TMP/err)"
$S $SG $EC > $TMP/good.txt
expect_eq "a missing file: the report is the complete one plus the count's row" \
  "$(sed '2a\  input files failed (incomplete)      1' $TMP/good.txt)" "$(cat tests/expected/stats-failed-file.txt)"
expect_status "a directory among good ones: exit 2" 2 $S --csv $SG tests/data
expect_eq "a directory among good ones: counted, and the count" "counts,records,3 counts,files_failed,1" \
  "$(echo $(grep -E '^counts,(records|files_failed),' $TMP/out))"
expect_status "no file failed: CSV says 0, exit 0" 0 $S --csv $SG
expect_eq "no file failed: files_failed 0, the last counts row" "counts,files_failed,0" \
  "$(grep '^counts,' $TMP/out | tail -n 1)"
expect_eq "no file failed: no row in the text" 0 "$(grep -c 'input files failed' $TMP/good.txt)"

# a gzip stream cut in the middle: the games before the cut are counted,
# the cut one too (with its error), as xq-validate counts them
# (60 games: 20 copies of the 3 of $SG, each with a tag of 64 hex digits
# of its own, so that the deflate stream does not end within the first)
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  h=$(echo $i | sha256sum | cut -c1-64)
  sed "s/^\[Round \"\([0-9]*\)\"\]/[Round \"$i.\1\"]\n[Annotator \"$h\"]/" $SG
done | gzip -n -c > $TMP/sixty.pgn.gz
size=$(wc -c < $TMP/sixty.pgn.gz)
head -c $((size * 3 / 4)) $TMP/sixty.pgn.gz > $TMP/cut.pgn.gz
expect_status "cut gzip: exit 2" 2 $S --csv $TMP/cut.pgn.gz
expect_eq "cut gzip: the reader's message" "xq-stats: $TMP/cut.pgn.gz: unexpected end of file: the gzip data is cut short" \
  "$(cat $TMP/err)"
records=$(sed -n 's/^counts,records,//p' $TMP/out)
expect_eq "cut gzip: some games, not all" 1 "$([ "$records" -gt 3 ] && [ "$records" -lt 60 ] && echo 1)"
expect_eq "cut gzip: as many records as xq-validate reads" "$records games:" \
  "$($BIN/xq-validate $TMP/cut.pgn.gz 2>&1 >/dev/null | tail -n 1 | cut -d' ' -f1-2)"
expect_eq "cut gzip: one game with an error (the cut one), one file failed" \
  "counts,unreadable,0 counts,with_errors,1 counts,files_failed,1" \
  "$(echo $(grep -E '^counts,(unreadable|with_errors|files_failed),' $TMP/out))"
valid=$(sed -n 's/^counts,valid,//p' $TMP/out)
expect_eq "cut gzip: every game before the cut valid" 1 "$([ "$valid" -ge $((records - 1)) ] && echo 1)"

# --merge: the count is read back and summed; merged statistics whose
# inputs failed are written, then exit 2 with a message
$S --json $SG /nonexistent/missing.pgn > $TMP/fa.json 2>/dev/null
$S --json $EC > $TMP/fb.json
expect_eq "json: the count" '"records":3,"files_failed":1,' "$(grep -o '"records":3,"files_failed":1,' $TMP/fa.json)"
expect_status "merge of a part whose input failed: exit 2" 2 $S --merge $TMP/fa.json $TMP/fb.json
expect_eq "merge of a part whose input failed: == one run over all the inputs" \
  "$(cat tests/expected/stats-failed-file.txt)" "$(cat $TMP/out)"
expect_eq "merge of a part whose input failed: the message" \
  "xq-stats: the statistics are incomplete: 1 input file failed in the runs merged" "$(cat $TMP/err)"
expect_status "merge --json sums the count: exit 2" 2 $S --merge --json $TMP/fa.json $TMP/fb.json $TMP/fa.json
expect_eq "merge --json sums the count" '"files_failed":2' "$(grep -o '"files_failed":[0-9]*' $TMP/out)"
cp $TMP/out $TMP/fab.json
expect_status "the merged JSON merged again: exit 2" 2 $S --merge --csv $TMP/fab.json $TMP/fb.json
expect_eq "the merged JSON merged again: the count kept" "counts,files_failed,2" "$(grep '^counts,files_failed,' $TMP/out)"
expect_status "merge of complete parts: exit 0" 0 $S --merge $TMP/fb.json $TMP/cxa.json
# the JSON of earlier versions has no files_failed: read as 0
sed 's/"files_failed":0,//' $TMP/fb.json > $TMP/old.json
expect_eq "old JSON: no files_failed" 0 "$(grep -c files_failed $TMP/old.json)"
expect_status "merge of an old JSON: exit 0" 0 $S --merge --json $TMP/old.json
expect_eq "merge of an old JSON: as the new one" "" "$(cmp $TMP/out $TMP/fb.json)"
expect_status "merge of an old JSON with a part whose input failed: exit 2" 2 $S --merge $TMP/fa.json $TMP/old.json
expect_eq "merge of an old JSON with a part whose input failed: == one run" \
  "$(cat tests/expected/stats-failed-file.txt)" "$(cat $TMP/out)"
sed 's/"files_failed":0,/"files_failed":-1,/' $TMP/fb.json > $TMP/neg.json
expect_status "merge refuses a negative count" 2 $S --merge $TMP/neg.json
expect_eq "merge refuses a negative count: nothing written" "" "$(cat $TMP/out)"
# --merge stays strict on its own inputs: a missing JSON writes nothing
expect_status "merge of a missing JSON: exit 2" 2 $S --merge $TMP/fb.json /nonexistent/stats.json
expect_eq "merge of a missing JSON: nothing written" "" "$(cat $TMP/out)"

# --derive-ecco: the table of the files read, marked incomplete, exit 2
$S --derive-ecco -q $SG $EC > $TMP/ecco-good.inc
expect_status "derive-ecco with a missing file: exit 2" 2 $S --derive-ecco -q $SG /nonexistent/missing.pgn $EC
expect_eq "derive-ecco with a missing file: the table, marked incomplete" \
  "$(sed -e 's| corpus/edge-cases.pgn| /nonexistent/missing.pgn corpus/edge-cases.pgn|' \
         -e '/^ \* ECCO tag whose move hash/a\ * INCOMPLETE: 1 input file failed (xq-stats said why and exited with\
 * status 2); the games read before the failure are counted above.' \
         -e '/^#define XQ_ECCO_TABLE_PLIES/i\#error "incomplete ECCO table: 1 input file failed (see the comment above)"' \
         $TMP/ecco-good.inc)" "$(cat $TMP/out)"
if have_shared corpus/ccpd/middlegames.pgn.gz; then
  # a gzip file of 128 KiB or more is inflated ahead in a thread (zin.h): cut too
  head -c 200000 $SHARED/corpus/ccpd/middlegames.pgn.gz > $TMP/mid-cut.pgn.gz
  expect_status "cut gzip, inflated in a thread: exit 2" 2 $S -j2 --csv $TMP/mid-cut.pgn.gz
  records=$(sed -n 's/^counts,records,//p' $TMP/out)
  expect_eq "cut gzip, inflated in a thread: its first games counted, as xq-validate reads them" \
    "$records games: / files_failed 1" \
    "$($BIN/xq-validate -j1 $TMP/mid-cut.pgn.gz 2>&1 >/dev/null | tail -n 1 | cut -d' ' -f1-2) / files_failed $(sed -n 's/^counts,files_failed,//p' $TMP/out)"
  expect_eq "cut gzip, inflated in a thread: most games" 1 "$([ "$records" -gt 1000 ] && [ "$records" -lt 2807 ] && echo 1)"
fi

# ---- wording (the new-user tester): one code is "1 code"; a --merge syntax
# error names the file's line once, counted in the file
printf '1. 炮二平五 *\n' > $TMP/one.pgn
expect_eq "one opening: 1 code" "Openings (ECCO; 1 code)" "$($S $TMP/one.pgn | grep '^Openings')"
printf '\n\n{"format":\n\n"xq-stats" x}\n' > $TMP/bad-merge.json
expect_status "merge, a syntax error on line 5: exit 2" 2 $S --merge $TMP/bad-merge.json
expect_eq "merge, a syntax error on line 5: said once, at line 5" \
  "xq-stats: $TMP/bad-merge.json:5: expected ',' or '}'" "$(cat $TMP/err)"
printf '[Event "x"]\n\n1. 炮二平五 *\n' > $TMP/tag.pgn
expect_status "merge, a PGN file: exit 2" 2 $S --merge $TMP/tag.pgn
expect_eq "merge, a PGN file: its line once" "xq-stats: $TMP/tag.pgn:1: unexpected character" "$(cat $TMP/err)"

# the heading of the board's results names the rule set that judged the
# repetitions (the endings of CXA1999 §3-4 hold under both)
expect_eq "cxa1999: the board's heading" "Results by the board (what the rules prove; CXA1999 §3, §4)" \
  "$($S corpus/sample-games.pgn | grep '^Results by the board')"
expect_eq "axf: the board's heading names the AXF rules" \
  "Results by the board (what the rules prove; CXA1999 §3, §4; repetition by the AXF rules)" \
  "$($S --rules axf corpus/sample-games.pgn | grep '^Results by the board')"
$S --rules axf --json corpus/sample-games.pgn > $TMP/axf.json
expect_eq "axf: the heading through --merge" \
  "Results by the board (what the rules prove; CXA1999 §3, §4; repetition by the AXF rules)" \
  "$($S --merge $TMP/axf.json | grep '^Results by the board')"

# a player's score is exact for counts near 2^64 (2 x wins does not fit
# 64 bits); a part whose tallies pass its records, or a player's results
# their games, is refused (made up or damaged), so no report sum wraps
many $TMP/a.json 4611686018427387904 | sed 's/"players":\[\[[^]]*\]\(,\[[^]]*\]\)*\]/"players":[["P",4611686018427387904,4611686018427387904,0,0]]/' > $TMP/big-player.json
expect_eq "merge: a score past 2^63, exact" "players,P,9223372036854775808,9223372036854775808,0,0,9223372036854775808" \
  "$($S --merge --csv $TMP/big-player.json $TMP/big-player.json | grep '^players,P,')"
sed 's/"players":\[\[[^]]*\]\(,\[[^]]*\]\)*\]/"players":[["P",1,1,1,0]]/' $TMP/a.json > $TMP/bad-player.json
expect_status "merge: a player's results past their games" 2 $S --merge $TMP/bad-player.json
expect_eq "merge: a player's results past their games: message" "xq-stats: $TMP/bad-player.json:1: players: a player's wins, draws and losses pass their games" "$(cat $TMP/err)"
sed 's/"outcomes":\[/"outcomes":[["1-0","checkmate","1-0",1000],/' $TMP/a.json > $TMP/bad-outcomes.json
expect_status "merge: outcomes past the records" 2 $S --merge $TMP/bad-outcomes.json
expect_eq "merge: outcomes past the records: message" "xq-stats: $TMP/bad-outcomes.json:1: outcomes: they count more games than the records" "$(cat $TMP/err)"
sed 's/"records":/"records":3,"records":/' $TMP/a.json > $TMP/twice.json
expect_status "merge: a key given twice" 2 $S --merge $TMP/twice.json
expect_eq "merge: a key given twice: message" "xq-stats: $TMP/twice.json:1: records: a key given twice in one object" "$(cat $TMP/err)"
# a game of a bad ECCO tag is counted as a bad tag and classified: its part
# merges (the bound on the openings leaves bad_tag out of the sum)
printf '[ECCO "Z99"]\n1. 炮二平五 *\n\n[ECCO "C5"]\n\n*\n' > $TMP/badecco.pgn
expect_eq "merge: a part with bad ECCO tags, as the run" "$($S $TMP/badecco.pgn)" "$($S --json $TMP/badecco.pgn | $S --merge)"
# a player given twice in one part, or statuses that do not add up to the
# records: refused (no run writes them)
sed 's/"players":\[\[\([^]]*\)\]/"players":[[\1],[\1]/' $TMP/a.json > $TMP/player-twice.json
expect_eq "merge: a player given twice" "xq-stats: $TMP/player-twice.json:1: players: a player given twice" "$($S --merge $TMP/player-twice.json 2>&1)"
sed 's/"valid":[0-9]*/"valid":9/' $TMP/a.json > $TMP/valid9.json
expect_eq "merge: statuses past the records" "xq-stats: $TMP/valid9.json:1: games: valid, illegal and unreadable do not add up to the records" "$($S --merge $TMP/valid9.json 2>&1)"
