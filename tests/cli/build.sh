#!/bin/sh
# The build's own checks: tests/deps.sh (the libraries found by pkg-config
# on any system, Debian's packages named or installed, NO_DEPS) and the
# flags file that makes a change of compiler or flags rebuild (Makefile,
# FLAGS_FILE).  Fake pkg-config and dpkg on a PATH of their own; nothing
# is installed (the fake dpkg knows every package).
. tests/cli/lib.sh

mkdir "$TMP/fake"
for c in sh cat echo id command; do p=$(command -v $c 2>/dev/null) && [ -x "$p" ] && ln -s "$p" "$TMP/fake/$c"; done
# run_deps PKG_CONFIG_STATUS DPKG_STATUS: tests/deps.sh with a pkg-config
# that answers PKG_CONFIG_STATUS ("none": absent) and, unless DPKG_STATUS
# is "none", a dpkg -s answering it and an apt-get that fails loudly
run_deps() {
  rm -f "$TMP/fake/pkg-config" "$TMP/fake/dpkg" "$TMP/fake/apt-get"
  [ "$1" = none ] || printf '#!/bin/sh\nexit %s\n' "$1" > "$TMP/fake/pkg-config"
  if [ "$2" != none ]; then
    printf '#!/bin/sh\nexit %s\n' "$2" > "$TMP/fake/dpkg"
    printf '#!/bin/sh\necho apt-get called >&2\nexit 9\n' > "$TMP/fake/apt-get"
  fi
  chmod +x "$TMP/fake/"* 2>/dev/null
  PATH="$TMP/fake" NO_DEPS="${NO_DEPS_SET:-}" sh tests/deps.sh "libxml-2.0 zlib" "libxml2-dev zlib1g-dev" \
    >"$TMP/out" 2>&1
  echo $?
}

expect_eq "deps: pkg-config finds the libraries: nothing to do" 0 "$(run_deps 0 none)"
expect_eq "deps: ... and no dpkg is asked" "" "$(cat "$TMP/out")"
expect_eq "deps: not found, no Debian tools: exit 2" 2 "$(run_deps 1 none)"
expect_eq "deps: ... the message names the libraries" 1 \
  "$(grep -c 'missing libraries (pkg-config names): libxml-2.0 zlib' "$TMP/out")"
expect_eq "deps: no pkg-config, no Debian tools: exit 2" 2 "$(run_deps none none)"
expect_eq "deps: not found by pkg-config, Debian has the packages: go on" 0 "$(run_deps 1 0)"
NO_DEPS_SET=1
expect_eq "deps: NO_DEPS=1 skips the check" 0 "$(run_deps none none)"
NO_DEPS_SET=
if [ "$(id -u)" != 0 ]; then
  expect_eq "deps: Debian, packages missing, not root: exit 2" 2 "$(run_deps 1 1)"
  expect_eq "deps: ... the command to run is named" 1 \
    "$(grep -c 'run as root:  apt-get install libxml2-dev zlib1g-dev' "$TMP/out")"
else
  expect_eq "deps: Debian, packages missing, root: apt-get is run (and its failure stops the build)" 2 \
    "$(run_deps 1 1)"
  expect_eq "deps: ... it says what it installs" 1 "$(grep -c 'installing: libxml2-dev zlib1g-dev' "$TMP/out")"
fi

# the flags file: written on the first build, rewritten (newer) when the
# flags change, untouched when they do not (so nothing is rebuilt)
B="$TMP/b"
# (a make of its own: not the flags of a make this test runs under, such
# as make asan's CC and CFLAGS, which make puts in the environment and
# MAKEFLAGS)
flags() { env -u MAKEFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u CFLAGS -u LDFLAGS -u CC -u OPT make -s --no-print-directory BUILD="$B" BIN="$B/bin" NO_DEPS=1 "$@" "$B/flags.txt" >/dev/null 2>&1; }
flags OPT="-O2 -g"
expect_eq "flags file written" 1 "$(grep -c -- '-O2 -g' "$B/flags.txt")"
touch -d '2000-01-01' "$B/flags.txt"
flags OPT="-O2 -g"
expect_eq "same flags: the file keeps its time" 2000 "$(date -r "$B/flags.txt" +%Y)"
flags OPT="-O1"
expect_eq "other flags: the file is rewritten" "1 $(date +%Y)" \
  "$(grep -c -- '-O1' "$B/flags.txt") $(date -r "$B/flags.txt" +%Y)"
flags OPT="-O1" CC=no-such-cc
expect_eq "another compiler: the file is rewritten" 1 "$(grep -c '^no-such-cc ' "$B/flags.txt")"
