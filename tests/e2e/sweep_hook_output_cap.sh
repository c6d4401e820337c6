#!/bin/bash
# End to end: a --sweep-cmd hook's output is kept to its first and last
# 64 KiB per run, with a note of how much was left out (docs/sweep.md): a
# hook writing 30 MB at each of 2 points made a 60 MB hook_log in the JSON
# and 287 MB of RSS. The rest is still read, so the hook does not block on
# a full pipe.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
# 3 MB per run: 'a's, then a last line the tail keeps.
hook='head -c 3000000 /dev/zero | tr "\0" a; echo; echo last-line-{iodepth}'
timeout 60 "$bin" --name=j --ioengine=null --size=64k --sweep iodepth=1,2 --sweep-cmd="$hook" \
  --output-format=json --output=r.json 2>err
expect_eq "exit" "$?" 0
python3 - r.json <<'PY' || fail "hook_log: see above"
import json, sys
log = json.load(open(sys.argv[1]))["iobench"]["sweep"]["hook_log"]
assert len(log) < 2 * 140 * 1024, f"{len(log)} bytes kept"
runs = log.split("# point: ")[1:]
assert len(runs) == 2, len(runs)
for i, l in enumerate(runs, 1):
    assert l.startswith(f"iodepth={i}\n$ "), l[:80]
    # 3000000 a's, a newline and last-line-N and its newline; 2 x 64 KiB kept.
    dropped = 3000000 + 1 + len(f"last-line-{i}") + 1 - 131072
    assert f"\n# ... {dropped} bytes of output left out" in l, \
        [x for x in l.split("\n") if x.startswith("# ...")]
    assert l.endswith(f"\nlast-line-{i}\n"), l[-40:]
print("ok   hook_log capped")
PY
# A failing hook's message still ends with its last lines.
"$bin" --name=j --ioengine=null --size=64k --sweep iodepth=1,2 \
  --sweep-cmd='head -c 300000 /dev/zero | tr "\0" b; echo; echo bye; exit 3' >out 2>err
expect_eq "failing hook: exit" "$?" 3
expect_eq "failing hook: last line" "$(tail -1 err)" "bye"
[ "$(wc -c <err)" -lt 100000 ] || fail "failing hook: $(wc -c <err) bytes of stderr"
[ "$fails" -eq 0 ]
