#!/bin/sh
# Write the big hostile inputs into DIR (default: a new temporary
# directory, printed): they are made at test time by tests/cli/broken.sh
# rather than committed.  POSIX sh, awk, head, tr, gzip only.
#
#   long-line.pgn       a 10 MB comment on one line, then a 10 MB move token
#   long-game.pgn       one game of 10^6 plies (horses shuffling)
#   long-tag.pgn        a tag value of 1 MB
#   many-tags.pgn       200,000 tags in one record (T0 ... T199999), then one
#                       named again, in another case, which starts a record
#   deep-variations.pgn variations nested 100,000 deep, closed, then unclosed
#   gzip-bomb.pgn.gz    1 GB of NUL bytes on one line from a 1 MB file
#   gzip-lines.pgn.gz   40 MB of movetext in one record without a break (the
#                       record and move limits of pgn_read.h)
#   xml-late-doctype.xml a DOCTYPE behind 70 KB of comment (past the prolog check)
set -e
dir=${1:-$(mktemp -d)}
mkdir -p "$dir"
cd "$dir"

good() {
  printf '[Game "Chinese Chess"]\n[Event "A good game after the damage: it must be read"]\n[Result "1-0"]\n\n'
  printf '1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 3. 車一平二 炮８進４ 1-0\n'
}
head_() { printf '[Game "Chinese Chess"]\n[Event "%s"]\n[Result "%s"]\n\n' "$1" "${2:-*}"; }

{ head_ "A 10 MB comment on one line"
  printf '1. 炮二平五 {'; head -c 10000000 /dev/zero | tr '\0' x; printf '} 馬８進７ *\n\n'
  head_ "A 10 MB move token"
  printf '1. 炮二平五 '; head -c 10000000 /dev/zero | tr '\0' 'Z'; printf ' *\n\n'
  good; } > long-line.pgn

{ head_ "One game of 1,000,000 plies" "1/2-1/2"
  awk 'BEGIN { for (i = 1; i <= 500000; i += 2) {
      printf "%d. 馬二進三 馬８進７\n%d. 馬三退二 馬７退８\n", i, i + 1 } }'
  printf '1/2-1/2\n\n'; good; } > long-game.pgn

{ printf '[Game "Chinese Chess"]\n[Event "'; head -c 1048576 /dev/zero | tr '\0' v
  printf '"]\n[Result "*"]\n\n1. 炮二平五 馬８進７ *\n\n'; good; } > long-tag.pgn

{ printf '[Game "Chinese Chess"]\n[Event "200,000 tags in one record, then a tag named again"]\n'
  awk 'BEGIN { for (i = 0; i < 200000; i++) printf "[T%d \"v\"]\n", i }'
  printf '[t123 "named again: a new record"]\n[Result "*"]\n\n1. 炮二平五 馬８進７ *\n\n'; } > many-tags.pgn

{ head_ "Variations nested 100,000 deep, all closed"
  printf '1. 炮二平五\n'
  awk 'BEGIN { for (i = 0; i < 100000; i++) print "(1. 炮二平四"; for (i = 0; i < 100000; i++) printf ")"; print " 馬８進７ *"; print "" }'
  head_ "Variations nested 100,000 deep, never closed"
  printf '1. 炮二平五\n'
  awk 'BEGIN { for (i = 0; i < 100000; i++) print "(1. 炮二平四"; print "" }'
  good; } > deep-variations.pgn

# Concatenated gzip members are one stream: 10 x 100 MB of NUL bytes.
{ good; printf '\n'; head_ "A gzip bomb: a line of 1 GB of NUL bytes"; printf '1. 炮二平五 '; } | gzip -9 > gzip-bomb.pgn.gz
head -c 100000000 /dev/zero | gzip -9 > nul.gz
for i in 1 2 3 4 5 6 7 8 9 10; do cat nul.gz >> gzip-bomb.pgn.gz; done
rm nul.gz
{ printf ' *\n\n'; good; } | gzip -9 >> gzip-bomb.pgn.gz

# Red's move written for Black at ply 2: replay stops there, reading does not
{ head_ "40 MB of movetext in one record"
  awk 'BEGIN { for (i = 0; i < 1000000; i++) print "炮二平五 炮二平五 炮二平五" }'
  printf '*\n\n'; good; } | gzip -9 > gzip-lines.pgn.gz

{ printf '<?xml version="1.0"?>\n<!-- '; head -c 70000 /dev/zero | tr '\0' x; printf ' -->\n'
  printf '<!DOCTYPE games SYSTEM "http://xq-tools.invalid/games.dtd">\n'
  printf '<games xmlns="urn:xq-tools:game:1"><game result="1-0"><move iccs="h2e2"/></game></games>\n'; } > xml-late-doctype.xml

echo "$dir"
