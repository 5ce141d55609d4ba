#!/bin/sh
# The documentation, checked against the programs:
#  - every man page renders with `groff -ww` and `man --warnings -l` without
#    a warning, and has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS,
#    EXAMPLES and SEE ALSO; `make install` puts it under $(PREFIX)/share/man;
#  - every long option a tool's --help prints is in the OPTIONS section of
#    its page, and every option that section lists is in --help;
#  - xq.7 gives every exit status of src/tools/cli.h;
#  - the module map of README.md names every file under src/, and every
#    path it names exists;
#  - every example of README.md and of the man pages runs and prints, to
#    the byte, the output shown.
#
# How examples are written.
#  README.md: a ```console block holds commands, each on a line starting
#  with "$ " (continued on lines starting with "> "), each followed by its
#  output (standard output and standard error, as a terminal shows them)
#  up to the next "$ " line or the end of the block.  A ```sh block is a
#  script to copy: it must exit 0; its output is not shown, so not compared.
#  "<!-- before: CMD -->" runs CMD before the next block (stand-in input
#  files); "<!-- after: CMD -->" runs CMD after the previous block, with
#  $DOCS_OUT naming a file that holds the block's output; both must exit 0
#  and print nothing.
#  Man pages: the same "$ " and "> " lines and their output, in the
#  EXAMPLES section between .EX and .EE, indented deeper than the prose
#  (compared as `man` renders them, so roff escapes are checked too).
#
# The examples of one document run in order in one shell (so `export` and
# `$?` carry over, as in a terminal), in a scratch copy of the source tree
# (corpus/, man/, src/, tests/data/ copied, the rest linked; bin/ is $BIN)
# with ../shared beside it, bin/ first on PATH, LC_ALL=C.UTF-8, no
# terminal.  Commands that name ../shared are skipped when it is absent,
# and so are the commands after them in their block.  Remote machines are
# stand-ins: `ssh HOST CMD` and `rsync` act on a local directory per host;
# `hdfs dfs` keeps HDFS in a local directory; `hadoop jar ...` runs a
# streaming job locally (one map task per input line with NLineInputFormat,
# sort, hash partition, and, as Hadoop does, one reducer process per
# partition even when it is empty).
. tests/cli/lib.sh
export LC_ALL=C.UTF-8
ROOT=$(pwd)
BINABS=$(cd "$BIN" && pwd)
SHAREDABS=$(cd "$SHARED" 2>/dev/null && pwd)
TOOLS="xq-parse xq-validate xq-convert xq-stats"
PAGES="man/xq-parse.1 man/xq-validate.1 man/xq-convert.1 man/xq-stats.1 man/xq.7"

# render PAGE: the page as `man` shows it, plain text, lines never broken
render() {
  groff -k -man -Tutf8 -P-cbou -rLL=5000n "$1" 2>/dev/null
}

# section NAME < rendered page: the lines of that section (without its heading)
section() {
  awk -v want="$1" '/^[^ \t]/ { on = ($0 == want); next } on'
}

# --- 1. man pages render cleanly and have every section ----------------------
RENDERED=$PAGES
if ! command -v groff >/dev/null 2>&1; then
  echo "# skip: groff not installed (apt-get install groff-base): manual pages not rendered"
  RENDERED=
fi
for page in $RENDERED; do
  if [ ! -f "$page" ]; then
    echo "not ok - $page exists"; continue
  fi
  expect_eq "$page: groff -ww: no warning" "" "$(groff -k -man -Tutf8 -ww -z "$page" 2>&1)"
  if command -v man >/dev/null 2>&1; then
    expect_eq "$page: man --warnings -l: no warning" "" \
      "$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)"
  else
    echo "# skip: man not installed (apt-get install man-db)"
  fi
  missing=
  render "$page" > $TMP/page.txt
  for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    grep -qx "$s" $TMP/page.txt || missing="$missing [$s]"
  done
  expect_eq "$page: every section" "" "$missing"
done

# make install puts every page under $(PREFIX)/share/man; -o all: it
# installs the tools under test as they are, never builds (a BIN given to
# this test, another build's tools, is not rebuilt from this tree)
make -s install -o all DESTDIR=$TMP/inst PREFIX=/usr/local BIN="$BIN" BUILD="${BUILD:-build}" >$TMP/inst.log 2>&1
missing=
for page in $PAGES; do
  sect=${page##*.}
  [ -f "$TMP/inst/usr/local/share/man/man$sect/$(basename "$page")" ] || missing="$missing $page"
done
expect_eq "make install puts the man pages in PREFIX/share/man/manN" "" "$missing$(grep -i error $TMP/inst.log)"

# --- 2. options: --help and the OPTIONS section agree -------------------------
for t in $TOOLS; do
  page=man/$t.1
  [ -f "$page" ] && [ -n "$RENDERED" ] || continue
  render "$page" | section OPTIONS > $TMP/options.txt
  "$BIN/$t" --help > $TMP/help.txt 2>&1
  missing=
  for o in $(grep -o -- '--[a-z][a-z0-9-]*' $TMP/help.txt | sort -u); do
    grep -qE -- "$o([^a-z0-9-]|\$)" $TMP/options.txt || missing="$missing $o"
  done
  expect_eq "$page documents every option of $t --help" "" "$missing"
  # the option items of the page: lines at the item indent starting with "-"
  extra=
  for o in $(grep -E '^       -' $TMP/options.txt | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
    grep -qE -- "$o([^a-z0-9-]|\$)" $TMP/help.txt || extra="$extra $o"
  done
  expect_eq "$page lists no option that $t --help lacks" "" "$extra"
done
if [ -f man/xq.7 ] && [ -n "$RENDERED" ]; then
  render man/xq.7 | section "EXIT STATUS" > $TMP/status.txt
  missing=
  for n in $(sed -n 's/^ *XQ_EXIT_[A-Z_]* *= *\([0-9]*\).*/\1/p' src/tools/cli.h); do
    grep -qE "^       $n( |\$)" $TMP/status.txt || missing="$missing $n"
  done
  expect_eq "xq.7 gives every exit status of cli.h" "" "$missing"
  render man/xq.7 | section OPTIONS > $TMP/options.txt
  extra=
  for o in $(grep -E '^       -' $TMP/options.txt | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
    found=
    for t in $TOOLS; do "$BIN/$t" --help 2>&1 | grep -qE -- "$o([^a-z0-9-]|\$)" && found=1; done
    [ -n "$found" ] || extra="$extra $o"
  done
  expect_eq "xq.7 lists no option that no tool has" "" "$extra"
fi

# --- 3. the module map names every file under src/ ----------------------------
# Rows of the table under "## Module map": the backquoted names of a row; a
# name without "/" is in the directory of the row's first name.
awk '/^## /{ on = ($0 == "## Module map") } on && /^\| `/' README.md |
  awk -F'|' '{
    row = $2; dir = ""
    while (match(row, /`[^`]*`/)) {
      name = substr(row, RSTART + 1, RLENGTH - 2); row = substr(row, RSTART + RLENGTH)
      if (name ~ /\//) { d = name; sub(/[^\/]*\/?$/, "", d); dir = d; print name }
      else print dir name
    }
  }' > $TMP/map.txt
missing=
for f in $(find src -type f | sort); do
  hit=
  while IFS= read -r pat; do
    case $f in $pat) hit=1; break ;; esac
  done < $TMP/map.txt
  [ -n "$hit" ] || missing="$missing $f"
done
expect_eq "README module map names every file under src/" "" "$missing"
stale=
while IFS= read -r pat; do
  set -- $pat
  [ -e "$1" ] || stale="$stale $pat"
done < $TMP/map.txt
expect_eq "every path of the README module map exists" "" "$stale"

# --- 4. examples --------------------------------------------------------------
# Stand-ins for other machines (see the top of this file).
STUBS=$TMP/stubs
mkdir -p $STUBS
cat > $STUBS/ssh <<'EOF'
#!/bin/sh
# ssh [OPTION]... HOST [--] COMMAND...: run COMMAND in the directory of HOST
while [ $# -gt 0 ]; do
  case $1 in
    -[BbcDEeFIiJLlmOoPpQRSWw]) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=$1; shift
[ "$1" = -- ] && shift
mkdir -p "$DOCS_HOSTS/$host" && cd "$DOCS_HOSTS/$host" || exit 255
exec sh -c "$*"
EOF
cat > $STUBS/rsync <<'EOF'
#!/bin/sh
# rsync [OPTION]... SOURCE... HOST:DIR: copy each SOURCE (with -R, under its
# relative path) into DIR of HOST's directory
if [ "$1" = --version ]; then echo "rsync  version 3.2.7  protocol version 31 (stand-in)"; exit 0; fi
rel= dest= srcs=
while [ $# -gt 0 ]; do
  case $1 in
    --protocol|--rsh) shift ;;
    --*) ;;
    -e*) ;;
    -*R*) rel=1 ;;
    -*) ;;
    *:*) dest=$1 ;;
    *) srcs="$srcs $1" ;;
  esac
  shift
done
dir=$DOCS_HOSTS/${dest%%:*}/${dest#*:}
for s in $srcs; do
  if [ -n "$rel" ]; then t=$dir/$s; else t=$dir/$(basename "$s"); fi
  mkdir -p "$(dirname "$t")" && cp "$s" "$t" || exit 1
done
EOF
cat > $STUBS/hdfs <<'EOF'
#!/bin/sh
# hdfs dfs -ls -C DIR | -put LOCAL... DEST | -cat PATH... | -mkdir [-p] DIR
[ "$1" = dfs ] || { echo "hdfs (stand-in): only dfs" >&2; exit 1; }
root=$DOCS_HDFS
cmd=$2; shift 2
case $cmd in
  -ls) [ "$1" = -C ] && shift
       for d; do for f in "$root$d"/*; do [ -e "$f" ] && echo "${f#$root}"; done; done ;;
  -put) n=$#; i=0; dest=
       for a; do i=$((i + 1)); [ $i -eq $n ] && dest=$root$a; done
       i=0
       for a; do i=$((i + 1)); [ $i -lt $n ] || break
         if [ -d "$dest" ]; then cp "$a" "$dest/" || exit 1
         else [ -e "$dest" ] && { echo "put: $dest exists" >&2; exit 1; }; cp "$a" "$dest" || exit 1; fi
       done ;;
  -cat) for p; do for f in $root$p; do cat "$f" || exit 1; done; done ;;
  -mkdir) [ "$1" = -p ] && shift; mkdir -p "$root$1" ;;
  *) echo "hdfs (stand-in): dfs $cmd not emulated" >&2; exit 1 ;;
esac
EOF
cat > $STUBS/hadoop <<'EOF'
#!/bin/sh
# hadoop jar STREAMING.jar [-D K=V]... -input P -output P -mapper CMD
#   -reducer CMD [-file F]... [-inputformat CLASS]: a streaming job, locally
[ "$1" = jar ] || { echo "hadoop (stand-in): only jar" >&2; exit 1; }
shift 2
reduces=1 nline= input= output= mapper= reducer= files=
while [ $# -gt 0 ]; do
  case $1 in
    -D) case $2 in mapreduce.job.reduces=*) reduces=${2#*=} ;; esac; shift 2 ;;
    -inputformat) case $2 in *NLineInputFormat) nline=1 ;; esac; shift 2 ;;
    -input) input=$2; shift 2 ;;
    -output) output=$2; shift 2 ;;
    -mapper) mapper=$2; shift 2 ;;
    -reducer) reducer=$2; shift 2 ;;
    -file) files="$files $2"; shift 2 ;;
    *) echo "hadoop (stand-in): unknown argument $1" >&2; exit 1 ;;
  esac
done
root=$DOCS_HDFS out=$DOCS_HDFS$output
[ -e "$out" ] && { echo "hadoop: output directory $output already exists" >&2; exit 1; }
task=$(mktemp -d) || exit 1
for f in $files; do cp "$f" "$task/" && chmod a+x "$task/$(basename "$f")" || exit 1; done
run() { (cd "$task" && PATH="$task:$PATH" sh -c "$1"); }
# map: one task per input line (NLineInputFormat: "OFFSET<TAB>LINE")
: > "$task/map.out"
off=0
while IFS= read -r line; do
  if [ -n "$nline" ]; then printf '%s\t%s\n' "$off" "$line"; else printf '%s\n' "$line"; fi |
    run "$mapper" >> "$task/map.out" || { echo "hadoop: map task failed" >&2; exit 1; }
  off=$((off + $(printf '%s\n' "$line" | wc -c)))
done < "$root$input"
# shuffle: the key is the text before the first tab (the whole line if none);
# the reducer reads KEY<TAB>VALUE lines sorted by key
mkdir -p "$out"
r=0
while [ $r -lt "$reduces" ]; do : > "$task/part.$r"; r=$((r + 1)); done
while IFS= read -r line; do
  key=${line%%	*}
  case $line in *"	"*) value=${line#*	} ;; *) value= ;; esac
  h=$(printf '%s' "$key" | cksum | cut -d' ' -f1)
  printf '%s\t%s\n' "$key" "$value" >> "$task/part.$((h % reduces))"
done < "$task/map.out"
r=0
while [ $r -lt "$reduces" ]; do
  sort -t '	' -k1,1 "$task/part.$r" | run "$reducer" > "$task/red.out"
  st=$?
  [ $st -eq 0 ] || { echo "hadoop: reduce task $r: subprocess failed with code $st" >&2; exit 1; }
  awk -F'\t' 'NF == 1 { print $0 "\t"; next } { print }' "$task/red.out" > "$out/part-0000$r"
  r=$((r + 1))
done
: > "$out/_SUCCESS"
rm -rf "$task"
EOF
chmod +x $STUBS/*

# extract_readme < README.md: examples into $TMP/ex/N.{kind,cmd,exp}
extract_readme() {
  awk -v dir="$1" '
    function flush() { if (n && kind[n] == "console") close(dir "/" n ".exp") }
    function new(k) {
      flush(); n++; kind[n] = k; print k > (dir "/" n ".kind"); close(dir "/" n ".kind")
      if (k == "console") printf "" > (dir "/" n ".exp"); else blk++
      print blk > (dir "/" n ".block"); close(dir "/" n ".block")
    }
    !fence && /^<!-- (before|after): .* -->$/ {
      k = $2; sub(/:$/, "", k); c = $0; sub(/^<!-- [a-z]*: /, "", c); sub(/ -->$/, "", c)
      new(k); print c > (dir "/" n ".cmd"); close(dir "/" n ".cmd"); next
    }
    !fence && /^```(console|sh)$/ { fence = substr($0, 4); blk++; if (fence == "sh") new("sh"); next }
    !fence && /^```/ { fence = "other"; next }
    fence && /^```$/ { if (fence == "sh") close(dir "/" n ".cmd"); flush(); fence = ""; incmd = 0; next }
    fence == "sh" { print > (dir "/" n ".cmd"); next }
    fence == "console" && /^\$ / { new("console"); print substr($0, 3) > (dir "/" n ".cmd"); incmd = 1; next }
    fence == "console" && incmd && /^> / { print substr($0, 3) > (dir "/" n ".cmd"); next }
    fence == "console" && n { if (incmd) close(dir "/" n ".cmd"); incmd = 0; print > (dir "/" n ".exp") }
  '
}

# extract_man < rendered EXAMPLES section: the same files
extract_man() {
  awk -v dir="$1" '
    function ind(s) { match(s, /^ */); return RLENGTH }
    function endex() { if (n) { close(dir "/" n ".exp"); close(dir "/" n ".cmd") }; inex = 0 }
    {
      line = $0; i = ind(line); body = substr(line, i + 1)
      if (body ~ /^\$ /) {
        if (!inex) blk++
        endex(); n++; print "console" > (dir "/" n ".kind"); close(dir "/" n ".kind")
        print blk > (dir "/" n ".block"); close(dir "/" n ".block")
        base = i; inex = 1; incmd = 1; print substr(body, 3) > (dir "/" n ".cmd")
        printf "" > (dir "/" n ".exp"); next
      }
      if (!inex) next
      if (body != "" && i < base) { endex(); next }
      if (incmd && i == base && body ~ /^> /) { print substr(body, 3) > (dir "/" n ".cmd"); next }
      incmd = 0
      print (body == "" ? "" : substr(line, base + 1)) > (dir "/" n ".exp")
    }
    END { endex() }
  '
}

# strip_blank FILE: drop trailing empty lines (a shown output ends at the
# block end or at the prose, either may follow a blank line)
strip_blank() {
  awk '{ l[NR] = $0 } END { n = NR; while (n > 0 && l[n] == "") n--; for (i = 1; i <= n; i++) print l[i] }' "$1"
}

# run_examples NAME DIR: run the examples of DIR in a fresh scratch tree
run_examples() {
  name=$1 dir=$2
  sb=$TMP/sb.$(basename "$dir")
  mkdir -p "$sb/repo" "$sb/hosts" "$sb/hdfs"
  # copies of the small directories examples read (so that find(1) walks
  # them), links to the rest
  for f in "$ROOT"/* "$ROOT"/.[!.]*; do
    [ -e "$f" ] || continue
    case $(basename "$f") in
      bin|.git) ;;
      corpus|man|src) cp -R "$f" "$sb/repo/" ;;
      tests) mkdir "$sb/repo/tests"
             for t in "$f"/*; do
               if [ "$(basename "$t")" = data ]; then cp -R "$t" "$sb/repo/tests/"; else ln -s "$t" "$sb/repo/tests/"; fi
             done ;;
      *) ln -s "$f" "$sb/repo/" ;;
    esac
  done
  ln -s "$BINABS" "$sb/repo/bin"
  [ -n "$SHAREDABS" ] && ln -s "$SHAREDABS" "$sb/shared"
  script=$sb/run.sh
  {
    echo 'cd "$DOCS_SB/repo" || exit 2'
    echo '__st=0'
  } > "$script"
  i=1 skipblk= skipped=
  while [ -f "$dir/$i.kind" ]; do
    kind=$(cat "$dir/$i.kind")
    blk=$(cat "$dir/$i.block")
    why=
    if [ -z "$SHAREDABS" ] && grep -q '\.\./shared' "$dir/$i.cmd"; then why="needs ../shared"
    elif ! command -v parallel >/dev/null 2>&1 && grep -qw parallel "$dir/$i.cmd"; then
      why="needs GNU parallel (apt-get install parallel)"
    elif [ "$blk" = "$skipblk" ] || { [ "$kind" = after ] && [ -n "$skipped" ]; }; then why="follows a skipped one"
    fi
    skipped=$why
    if [ -n "$why" ]; then
      skipblk=$blk
      echo "$why" > "$dir/$i.skip"
      printf '%s\n' "printf '\\036%s skip\\n' $i" >> "$script"
      i=$((i + 1)); continue
    fi
    printf '%s\n' "printf '\\036%s\\n' $i" '__t0=$(date +%s)' >> "$script"
    case $kind in
      console)
        printf '%s\n' '(exit $__st)' '{' >> "$script"
        cat "$dir/$i.cmd" >> "$script"
        printf '\n%s\n' '} </dev/null 2>&1' '__st=$?' >> "$script" ;;
      sh)
        cp "$dir/$i.cmd" "$sb/block.$i.sh"
        printf '%s\n' "(set -e; . \"\$DOCS_SB/block.$i.sh\") </dev/null > \"\$DOCS_SB/out.$i\" 2>&1; __st=\$?" \
          "DOCS_OUT=\$DOCS_SB/out.$i; export DOCS_OUT" \
          '[ $__st -eq 0 ] || { echo "exit status $__st; output:"; cat "$DOCS_OUT"; }' >> "$script" ;;
      before|after)
        echo '{' >> "$script"
        cat "$dir/$i.cmd" >> "$script"
        printf '\n%s\n' '} </dev/null 2>&1; __st=$?' '[ $__st -eq 0 ] || echo "exit status $__st"' >> "$script" ;;
    esac
    printf '%s\n' "printf '\\037%s %s\\n' $i \$((\$(date +%s) - __t0))" >> "$script"
    i=$((i + 1))
  done
  DOCS_SB=$sb DOCS_HOSTS=$sb/hosts DOCS_HDFS=$sb/hdfs PATH="$STUBS:$BINABS:$PATH" \
    HADOOP_HOME=/opt/hadoop HOME=$sb SHELL=${SHELL:-/bin/sh} timeout 300 sh "$script" > "$sb/all.out" 2>&1
  echo "# $name: the examples ran (status $?)"
  # split the output at the \036 N markers; \037 N SECONDS closes each
  awk -v dir="$sb" '
    /^\036/ { n = substr($0, 2); skip = (n ~ / skip$/); sub(/ skip$/, "", n)
              f = dir "/act." n; printf "" > f; if (skip) print "skip" > (dir "/skip." n); next }
    /^\037/ { split(substr($0, 2), a, " "); print a[2] > (dir "/time." a[1]); close(dir "/time." a[1]); f = ""; next }
    f != "" { print > f }
  ' "$sb/all.out"
  i=1
  while [ -f "$dir/$i.kind" ]; do
    kind=$(cat "$dir/$i.kind")
    what="$name example $i ($kind): $(head -1 "$dir/$i.cmd" | tr -d '\\' | cut -c1-60)"
    if [ -f "$sb/skip.$i" ]; then
      echo "# skip: $what ($(cat "$dir/$i.skip"))"
    elif [ ! -f "$sb/time.$i" ]; then
      echo "not ok - $what: did not finish"; tail -5 "$sb/all.out"
    else
      if [ "$kind" = console ]; then strip_blank "$dir/$i.exp" > "$sb/want"; else : > "$sb/want"; fi
      strip_blank "$sb/act.$i" > "$sb/got"
      if cmp -s "$sb/want" "$sb/got"; then echo "ok - $what"; else
        echo "not ok - $what"; diff "$sb/want" "$sb/got" | head -20 | sed 's/^/  /'; fi
      s=$(cat "$sb/time.$i")
      if [ "$s" -gt 10 ]; then echo "not ok - $what: fast (took ${s}s)";
      elif [ "$s" -gt 2 ]; then echo "# slow: $what took ${s}s"; fi
    fi
    i=$((i + 1))
  done
}

mkdir -p $TMP/ex.readme
extract_readme $TMP/ex.readme < README.md
n=$(ls $TMP/ex.readme | grep -c '\.kind$')
expect_eq "README.md has examples" 1 "$([ "$n" -gt 10 ] && echo 1)"
run_examples README.md $TMP/ex.readme
for page in $RENDERED; do
  [ -f "$page" ] || continue
  d=$TMP/ex.$(basename "$page")
  mkdir -p "$d"
  render "$page" | section EXAMPLES | extract_man "$d"
  expect_eq "$page has examples" 1 "$([ -f "$d/1.kind" ] && echo 1)"
  run_examples "$page" "$d"
done
