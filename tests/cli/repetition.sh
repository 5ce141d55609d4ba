#!/bin/sh
# xq-validate and the repetition rules (棋例): the verdict under CXA 1999
# (default) and AXF (--rules axf), its reason in the diagnostics and the
# "repetition" object of the JSON report.  Records: tests/data/repetition-*.pgn
# (positions from ../shared/cases/cxa1999-cases.txt, R01, R07, R33).
. tests/cli/lib.sh
V=$BIN/xq-validate
D=tests/data

# CXA 1999: R01 perpetual check loses, R33 one check one chase loses (both
# recorded so); R07 perpetual chase, but the record says draw and goes on
expect_status "cases: warnings only" 0 $V -W $D/repetition-cases.pgn
expect_eq "cases: summary" "3 games: 3 valid, 0 with errors, 0 unreadable; 2 warnings" "$(tail -1 $TMP/err)"
expect_eq "cases: moves after the verdict" \
  "$D/repetition-cases.pgn:17:56: warning: game 3 (Rook chases an unprotected cannon, then the game goes on (cases R07)), ply 9 (5. h6h7): move recorded after the repetition at ply 8 was judged: perpetual chase of the black cannon on i0, 0-1 (CXA1999 §26.4, §24.3)" \
  "$(sed -n 1p $TMP/err)"
expect_eq "cases: the result check gives the verdict and its reason" \
  "$D/repetition-cases.pgn:13:1: warning: game 3 (Rook chases an unprotected cannon, then the game goes on (cases R07)): Result 1/2-1/2 contradicts the board: 0-1 (repetition: perpetual chase of the black cannon on i0, CXA1999 §26.4, §24.3); red: perpetual chase (長捉) of the black cannon on i0, forbidden; black: idle moves (閑), allowed; the forbidden side must vary and loses (CXA1999 §26.4, §24.3; plies 1-8, the position occurring 3 times)" \
  "$(sed -n 2p $TMP/err)"
expect_status "strict: a contradicted verdict is an error" 1 $V -q --strict $D/repetition-cases.pgn

# AXF: one check one chase is allowed (rule 12), so R33 is a draw
expect_status "axf: warnings only" 0 $V -W --rules axf $D/repetition-cases.pgn
expect_eq "axf: R33 is a draw" \
  "$D/repetition-cases.pgn:7:1: warning: game 2 (One check one chase (cases R33): red loses under CXA 1999, a draw under AXF): Result 0-1 contradicts the board: 1/2-1/2 (repetition: both sides allowed, AXF: no violation); red: one check one chase (一將一捉) of the black horse on h8, allowed under AXF rule 12; black: idle moves (閑); both sides' moves are allowed: draw (AXF: no violation; plies 1-8, the position occurring 3 times)" \
  "$(sed -n 1p $TMP/err)"
expect_eq "axf: summary" "3 games: 3 valid, 0 with errors, 0 unreadable; 3 warnings" "$(tail -1 $TMP/err)"

# JSON: the verdict, each side, and the classified plies
$V --report json $D/repetition-cases.pgn > $TMP/out 2>/dev/null
expect_eq "json: game 1 verdict" \
  '"termination":"repetition","repetition":{"rules":"cxa1999","result":"0-1","loser":"red","kind":"perpetual check","clause":"CXA1999 §26.1, §24.1",' \
  "$(sed -n 1p $TMP/out | grep -o '"termination":"repetition","repetition":{"rules":"[^"]*","result":"[^"]*","loser":"[^"]*","kind":"[^"]*","clause":"[^"]*",')"
expect_eq "json: game 1 red side" \
  '"red":{"pattern":"perpetual check","forbidden":true,"moves":4,"checks":4,"mate_threats":0,"chases":0,"idles":0,"victim":null}' \
  "$(sed -n 1p $TMP/out | grep -o '"red":{[^}]*}')"
expect_eq "json: game 1 first ply" '{"ply":1,"move":"h8h9","iccs":"h8h9","act":"check","idle":null,"victim":null}' \
  "$(sed -n 1p $TMP/out | grep -o '"plies":\[{[^}]*}' | sed 's/"plies":\[//')"
expect_eq "json: game 1 cycle" '"first_ply":0,"last_ply":8,"occurrences":3' \
  "$(sed -n 1p $TMP/out | grep -o '"first_ply":[0-9]*,"last_ply":[0-9]*,"occurrences":[0-9]*')"
expect_eq "json: game 2 chase victim" '"kind":"one check one chase of the black horse on h8"' \
  "$(sed -n 2p $TMP/out | grep -o '"kind":"one check[^"]*"')"

# --repetitions 4: three occurrences are not enough
$V --report json --repetitions 4 $D/repetition-cases.pgn > $TMP/out 2>/dev/null
expect_eq "repetitions 4: no verdict" '"termination":"none","repetition":null' \
  "$(sed -n 1p $TMP/out | grep -o '"termination":"[a-z]*","repetition":null')"

# a record that goes on and ends on a second repetition: that one decides
expect_status "later: warnings only" 0 $V -W $D/repetition-later.pgn
expect_eq "later: summary" "2 games: 2 valid, 0 with errors, 0 unreadable; 2 warnings" "$(tail -1 $TMP/err)"
expect_eq "later: no result recorded" \
  "$D/repetition-later.pgn:7:1: warning: game 2 (Perpetual check, no result recorded): no result recorded, but the board gives 0-1 (repetition: perpetual check, CXA1999 §26.1, §24.1); red gives perpetual check (長將), black does not (perpetual chase (長捉) of the red chariot on h9): a one-sided perpetual check loses (CXA1999 §26.1, §24.1; plies 1-8, the position occurring 3 times)" \
  "$(sed -n 2p $TMP/err)"
expect_status "later: strict makes it an error" 1 $V -q --strict $D/repetition-later.pgn
$V --report json $D/repetition-later.pgn > $TMP/out 2>/dev/null
expect_eq "later: the last repetition is judged" '"result_board":"1/2-1/2","termination":"repetition"' \
  "$(sed -n 1p $TMP/out | grep -o '"result_board":"[^"]*","termination":"[a-z]*"')"
expect_eq "later: its cycle" '"first_ply":8,"last_ply":16' \
  "$(sed -n 1p $TMP/out | grep -o '"first_ply":[0-9]*,"last_ply":[0-9]*')"

# usage
expect_status "bad --rules" 2 $V --rules wxf $D/repetition-cases.pgn
expect_eq "bad --rules message" "xq-validate: unknown rule set 'wxf' (cxa1999 or axf)" "$(cat $TMP/err)"

# --rules axf also counts at most 10 checks per side toward the move limit
# (N02: red gives 12 checks, the limit comes at ply 124, not 120)
if have_shared cases/cxa1999-cases.txt; then
  fen=$(sed -n '/^id: N02/,/^$/s/^fen: //p' $SHARED/cases/cxa1999-cases.txt)
  moves=$(sed -n '/^id: N02/,/^$/s/^moves: //p' $SHARED/cases/cxa1999-cases.txt | cut -d' ' -f1-122)
  printf '[FEN "%s"]\n[Format "ICCS"]\n[Result "*"]\n%s *\n' "$fen" "$moves" > $TMP/n02.pgn
  expect_eq "cxa1999: the limit at 120 plies" '"termination":"move-limit"' \
    "$($V --report json $TMP/n02.pgn 2>/dev/null | grep -o '"termination":"[a-z-]*"')"
  expect_eq "axf: 122 plies are not enough" '"termination":"none"' \
    "$($V --report json --rules axf $TMP/n02.pgn 2>/dev/null | grep -o '"termination":"[a-z-]*"')"
  expect_eq "axf with an explicit --check-cap" '"termination":"move-limit"' \
    "$($V --report json --check-cap 1000 --rules axf $TMP/n02.pgn 2>/dev/null | grep -o '"termination":"[a-z-]*"')"
fi

# A mate threat that is not new (CXA1999 §28.2): Black mates by checks in 3
# before d7e7 and again after it, so d7e7 is idle and the cycle (one chase
# and idle moves) is a draw.  A search that spent its budget on deep lines
# first missed the earlier mate and gave 1-0 ("one mate threat one chase").
$V --report json $D/repetition-cut-search.pgn > $TMP/out 2>$TMP/err
expect_eq "cut search: draw, both sides allowed" \
  '"result_board":"1/2-1/2" "kind":"both sides allowed"' \
  "$(grep -o '"result_board":"[^"]*"\|"kind":"both sides allowed"' $TMP/out | tr '\n' ' ' | sed 's/ $//')"
expect_eq "cut search: black makes no mate threat" \
  '"mate_threats":0 "mate_threats":0' \
  "$(grep -o '"mate_threats":[0-9]*' $TMP/out | tr '\n' ' ' | sed 's/ $//')"

# From chase to chase (CXA1999 §28.3, §29.2, ch.7 item 6): black's cannon on
# d4 already wins the red horse on d2 by the exchange; d4e4 pins the advisor
# that protects it and the chariot takes over the chase of the same horse.
# CXA 1999: not a new chase, so black has two chases and two idle moves
# (allowed): a draw.  AXF: a chase by another piece is new (two pieces may
# not chase one in turn), every black move chases the horse: red wins.
printf '[FEN "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1"]\n[Format "ICCS"]\n[Result "*"]\n%s *\n' \
  "e0d0 e4d4 d0e0 d4e4 e0d0 e4d4 d0e0 d4e4" > $TMP/pin.pgn
expect_eq "chase to chase: cxa1999 draw" '"result_board":"1/2-1/2" "kind":"both sides allowed"' \
  "$($V --report json $TMP/pin.pgn 2>/dev/null | grep -o '"result_board":"[^"]*"\|"kind":"both sides allowed"' | tr '\n' ' ' | sed 's/ $//')"
expect_eq "chase to chase: the kept chase is idle" '"act":"idle","idle":"chase kept"' \
  "$($V --report json $TMP/pin.pgn 2>/dev/null | grep -o '"move":"d4e4"[^}]*' | head -1 | grep -o '"act":"[a-z ]*","idle":"[a-z ]*"')"
expect_eq "chase to chase: axf red wins" '"result_board":"1-0"' \
  "$($V --report json --rules axf $TMP/pin.pgn 2>/dev/null | grep -o '"result_board":"[^"]*"')"
