# Helpers for command-line tests: each check prints "ok - NAME" or
# "not ok - NAME" followed by what differed.  Source it from a test script.
BIN=${BIN:-bin}
SHARED=${SHARED:-../shared}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
  if [ "$2" = "$3" ]; then echo "ok - $1"; else
    echo "not ok - $1"; echo "  expected: $2"; echo "  actual:   $3"; fi
}

# expect_status NAME EXPECTED_STATUS COMMAND...   (stdout/stderr to $TMP/out, $TMP/err)
expect_status() {
  _name=$1 _want=$2; shift 2
  "$@" >"$TMP/out" 2>"$TMP/err"; _got=$?
  if [ "$_got" = "$_want" ]; then echo "ok - $_name"; else
    echo "not ok - $_name"; echo "  expected exit $_want, got $_got: $*"; head -5 "$TMP/err"; fi
}

# have_shared FILE: true when the shared corpus file exists (else prints a skip note)
have_shared() {
  if [ -e "$SHARED/$1" ]; then return 0; fi
  echo "# skip: $SHARED/$1 not present"; return 1
}
