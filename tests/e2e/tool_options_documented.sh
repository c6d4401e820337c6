#!/bin/bash
# Every tool option `iobench --help` lists has its own entry in the man page
# (docs/iobench.1) and is named in docs/jobfile.md's list of tool options, and
# the man page formats without warnings. The man page once lacked
# --table-rows, --table-cols, --compare-labels and --status-interval-mode, and
# jobfile.md called a list of 15 of the 34 options "a fixed set".
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
man=$src/docs/iobench.1
jobfile=$src/docs/jobfile.md
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

mapfile -t opts < <("$bin" --help | sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p')
[ "${#opts[@]}" -ge 20 ] || fail "--help lists only ${#opts[@]} tool options"

# jobfile.md's tool-options bullet: from "**Tool options**" to the next bullet.
list=$(sed -n '/^\* \*\*Tool options\*\*/,/^\* \*\*Job options/p' "$jobfile")
[ -n "$list" ] || fail "jobfile.md has no '* **Tool options**' bullet"

for o in "${opts[@]}"; do
  # The man page writes --a-b as \-\-a\-b in a .B/.BI/.BR heading line.
  esc=${o//-/\\\\-}
  grep -Eq "^\.B[IR]? +${esc}([=\" [,]|$)" "$man" || fail "man page has no entry for $o"
  grep -Fq -- "\`$o\`" <<<"$list" || fail "jobfile.md's tool options leave out $o"
done

if command -v man >/dev/null; then
  warn=$(MANWIDTH=80 man --warnings -l "$man" 2>&1 >/dev/null)
  [ -z "$warn" ] || fail "man --warnings: $warn"
fi

[ "$fails" -eq 0 ] && echo "ok: ${#opts[@]} tool options documented"
exit $((fails > 0))
