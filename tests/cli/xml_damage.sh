#!/bin/sh
# XML input that is not well formed, and --keep on XML input.
#  - A damaged XML file (cut short, an element left open, a character XML
#    forbids) gives every game before the damage whole, the game the damage
#    falls in as far as it was read, with an error at the damage's
#    line:column (a syntax finding: xq-validate counts the game "with
#    errors"), then the reader's error and exit status 2, as a cut gzip
#    file of PGN does; the same for every -j and in every tool.
#  - xq-validate --keep on XML input writes the kept games as one XML
#    document, as xq-convert --to xml writes them; --fix-results fixes the
#    Result tag and the result attribute; the first kept game sets the form
#    of the output, later files of the other kind are converted to it.
. tests/cli/lib.sh
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac   # the checks run in $TMP
V=$BIN/xq-validate
C=$BIN/xq-convert
$C -q --to xml corpus/sample-games.pgn > $TMP/sample.xml 2>/dev/null   # 3 valid games
$C -q --to xml corpus/broken.pgn > $TMP/broken.xml 2>/dev/null         # 8 games, 2 valid (XML has no unterminated comment)
cp corpus/sample-games.pgn $TMP/sample.pgn
cd $TMP || exit 1

# ---- damage: the file cut inside its second game (lines 40 to 77)
head -n 60 sample.xml > cut.xml
expect_status "cut: exit 2" 2 $V -j 3 cut.xml
expect_eq "cut: the cut game's error, the reader's error, the counts" \
"cut.xml:60:34: error: game 2 (xq-tools sample; Random Red vs Random Black; 2026.11.29): XML error: the document ends early: <game> (line 40) is not closed; the record is cut here
xq-validate: cut.xml:60:34: XML error: the document ends early: <game> (line 40) is not closed
2 games: 1 valid, 1 with errors, 0 unreadable" "$(cat err)"
$V -j 1 cut.xml 2>err1
expect_eq "cut: -j 1 says the same" "$(cat err)" "$(cat err1)"
$V -q --report json cut.xml > cut.json 2>/dev/null
expect_eq "cut: JSON, one line per game, then the file's" '2|{"file":"cut.xml","status":"unreadable-file","line":60,"col":34,"error":"60:34: XML error: the document ends early: <game> (line 40) is not closed"}' "$(grep -c '"game":' cut.json)|$(sed -n 3p cut.json)"
expect_eq "cut: JSON, the cut game: 12 plies read, a syntax error at 60:34" \
'"game":2,"line":40,"plies":12,"errors":1,"findings":[{"kind":"syntax","severity":"error","ply":0,"line":60,"col":34,' \
"$(sed -n 2p cut.json | sed 's/^.*\("game":2,"line":40\),.*\("plies":12\),.*\("errors":1\),.*\("findings":\[{"kind":"syntax","severity":"error","ply":0,"line":60,"col":34,\).*$/\1,\2,\3,\4/')"
$BIN/xq-parse -q -J cut.xml > cut.parse.json 2>/dev/null
expect_eq "cut: xq-parse -J, the file's line as xq-validate's, the error without the path" "$(sed -n 3p cut.json)" "$(sed -n 3p cut.parse.json)"
expect_status "cut: xq-parse exit 2" 2 $BIN/xq-parse cut.xml
expect_eq "cut: xq-parse summary" "2 games, 39 plies decoded: 1 error in 1 game, 0 warnings" "$(tail -1 err)"
expect_status "cut: xq-convert exit 2" 2 $C -q --to pgn cut.xml
expect_eq "cut: xq-convert writes both games" 2 "$(grep -c '^\[Game ' out)"
expect_eq "cut: xq-convert, the cut game's last move (ply 12)" "6. 炮二平四 炮３进３ 0-1" "$(tail -n 2 out | head -n 1)"
# xq-stats counts the games read before the error and the file as failed, as for a cut gzip file of PGN
expect_status "cut: xq-stats exit 2" 2 $BIN/xq-stats --csv cut.xml
expect_eq "cut: xq-stats, the reader's error" "xq-stats: cut.xml:60:34: XML error: the document ends early: <game> (line 40) is not closed" "$(cat err)"
expect_eq "cut: xq-stats counts both games (the cut one with its error) and the failed file" \
  "counts,records,2 counts,with_errors,1 counts,files_failed,1" "$(echo $(grep -E '^counts,(records|with_errors|files_failed),' out))"

# ---- damage: an element left open in the second game (a comment)
sed '50s|/>$|><comment>open</move>|' sample.xml > open.xml
expect_status "open element: exit 2" 2 $V open.xml
expect_eq "open element: the game cut at the mismatch" \
"open.xml:50:53: error: game 2 (xq-tools sample; Random Red vs Random Black; 2026.11.29): XML error: Opening and ending tag mismatch: comment line 50 and move; the record is cut here
xq-validate: open.xml:50:53: XML error: Opening and ending tag mismatch: comment line 50 and move
2 games: 1 valid, 1 with errors, 0 unreadable" "$(cat err)"

# ---- damage: a control character in the third game (lines 78 to 135)
sed '90s|"/>$|\x01"/>|' sample.xml > ctl.xml
expect_status "bad character: exit 2" 2 $V ctl.xml
expect_eq "bad character: two whole games, the third cut" \
"ctl.xml:90:31: error: game 3 (xq-tools sample; Random Red vs Random Black): XML error: invalid character in attribute value; the record is cut here
xq-validate: ctl.xml:90:31: XML error: invalid character in attribute value
3 games: 2 valid, 1 with errors, 0 unreadable" "$(cat err)"

# ---- damage after the last game: every game whole, then the error
{ cat sample.xml; echo junk; } > junk.xml
expect_status "junk after the document: exit 2" 2 $V junk.xml
expect_eq "junk after the document: three valid games" \
"xq-validate: junk.xml:137:1: XML error: Extra content at the end of the document
3 games: 3 valid, 0 with errors, 0 unreadable" "$(cat err)"

# ---- a cut gzip stream of XML: the input's reason, as for PGN
gzip -c sample.xml | head -c 700 > cut.xml.gz
expect_status "cut gzip: exit 2" 2 $V cut.xml.gz
expect_eq "cut gzip: the game cut where the data ends" \
"cut.xml.gz:61:19: error: game 2 (xq-tools sample; Random Red vs Random Black; 2026.11.29): input ends early (unexpected end of file: the gzip data is cut short); the record is cut here
xq-validate: cut.xml.gz: unexpected end of file: the gzip data is cut short
2 games: 1 valid, 1 with errors, 0 unreadable" "$(cat err)"

# ---- --keep on XML input: one XML document, as xq-convert --to xml
$V -q -j 3 --keep valid sample.xml > kept.xml 2>err; st=$?
expect_eq "keep valid from XML: exit 0" 0 $st
expect_eq "keep valid from XML: the document xq-convert --to xml writes" "$(cat sample.xml)" "$(cat kept.xml)"
$V -q -j 1 --keep valid sample.xml > kept1.xml 2>/dev/null
expect_eq "keep valid from XML: the same for -j 1" "$(cat kept.xml)" "$(cat kept1.xml)"
$V -q --keep valid broken.xml > valid.xml 2>/dev/null
expect_eq "keep valid from broken XML: two games" "2 games: 2 valid, 0 with errors, 0 unreadable" "$($V valid.xml 2>&1)"
expect_eq "keep valid from broken XML: a whole document" "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<games xmlns=\"urn:xq-tools:game:1\">
<game result=\"*\">
</games>" "$(sed -n '1,3p;$p' valid.xml)"
$V -q --keep invalid broken.xml > invalid.xml 2>/dev/null
expect_eq "keep invalid from broken XML: six games" "6 games: 0 valid, 5 with errors, 1 unreadable" "$($V invalid.xml 2>&1 | tail -1)"
expect_eq "keep: nothing kept, nothing written" "" "$($V -q --keep invalid sample.xml 2>/dev/null)"

# --fix-results: the Result tag and the result attribute say what the board proves
# (--keep valid: with the fix, that game is among the valid ones)
$V -q --keep valid --fix-results broken.xml > fixed.xml 2>/dev/null
expect_eq "fix-results on XML: the checkmated game" '<game result="1-0">
  <tag name="Game">Chinese Chess</tag>
  <tag name="Event">Result tag contradicts a checkmate on the board</tag>
  <tag name="Result">1-0</tag>' "$(grep -B2 -A1 'contradicts a checkmate' fixed.xml)"
expect_eq "fix-results on XML: that game is valid now, beside the two valid ones" "3 games: 3 valid, 0 with errors, 0 unreadable" "$($V fixed.xml 2>&1 | tail -1)"

# the damaged file: the games before the damage and the cut one are kept
$V -q --keep invalid cut.xml > cutkept.xml 2>err; st=$?
expect_eq "keep from a cut file: exit 2" 2 $st
expect_eq "keep invalid from a cut file: the cut game, 12 moves, in a whole document" "1 game: 1 valid, 0 with errors, 0 unreadable 12" \
"$($V cutkept.xml 2>&1 | tail -1) $(grep -c '<move' cutkept.xml)"

# the first kept game sets the form; a later file of the other kind is converted to it
$V -q --keep valid sample.xml sample.pgn > mixed1 2>/dev/null
expect_eq "XML then PGN: one XML document of six games" "6 games: 6 valid, 0 with errors, 0 unreadable 1 1" \
"$($V mixed1 2>&1) $(grep -c '^<games ' mixed1) $(grep -c '^</games>' mixed1)"
$V -q --keep valid sample.pgn sample.xml > mixed2 2>/dev/null
expect_eq "PGN then XML: PGN, the records as they were first" "$(cat sample.pgn)" "$(head -n "$(wc -l < sample.pgn)" mixed2)"
expect_eq "PGN then XML: six games, no XML" "6 games: 6 valid, 0 with errors, 0 unreadable 0" \
"$($V mixed2 2>&1) $(grep -c '<game' mixed2)"
