# Sourced first by e2e scripts (not a test itself: ctest runs *.sh only).
# $1: iobench binary. Sets $bin (absolute), sources
# check.bash (fail, expect_eq) and fio_side.bash (tools, cmd), exits 77 while
# the CLI takes no job options, makes $tmp on ${E2E_FS:-/dev/shm} (removed
# at exit) and cd's there.
set -u
bin=$(realpath "$1")
source "$(dirname "${BASH_SOURCE[0]}")/check.bash"
source "$(dirname "${BASH_SOURCE[0]}")/fio_side.bash"
if ! "$bin" --help 2>&1 | grep -q -- "--output-format"; then
  echo "skip: the CLI does not take job options yet"
  exit 77
fi
tmp=$(mktemp -d "${E2E_FS:-/dev/shm}/iobench_e2e.XXXXXX") || exit 1
trap 'cd /; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
