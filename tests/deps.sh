#!/bin/sh
# tests/deps.sh "PKG-CONFIG NAMES" "DEBIAN PACKAGES": make deps / test-deps.
# The libraries are there when pkg-config finds them all (any system):
# nothing to do.  Else, on Debian, the missing packages are installed
# with apt-get when run as root, or named for the user to install; on
# other systems the message names the libraries.  NO_DEPS=1: no check.
# Exit 0 when the build can go on, 2 when it cannot.
[ -n "${NO_DEPS:-}" ] && exit 0
pcs=$1 debs=$2
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $pcs 2>/dev/null; then exit 0; fi
if command -v dpkg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  missing=""
  for p in $debs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  [ -z "$missing" ] && exit 0
  if [ "$(id -u)" = 0 ]; then
    echo "installing:$missing"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null || exit 2
    exit 0
  fi
  echo "missing Debian packages:$missing"
  echo "run as root:  apt-get install$missing"
  exit 2
fi
lacking=""
for p in $pcs; do
  command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$p" 2>/dev/null || lacking="$lacking $p"
done
echo "missing libraries (pkg-config names):$lacking"
echo "install their development packages (and pkg-config), or build with NO_DEPS=1 and CFLAGS/LDLIBS that find them"
exit 2
