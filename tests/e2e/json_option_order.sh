#!/bin/bash
# JSON "global options" / "job options" in fio 3.33's order. Command-line
# options are applied one by one and listed as written, kb_base included
# (iobench listed kb_base first, which fio does only for a job file); in a
# job file kb_base and unit_base come first (their parse priority).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# keys TOOL ARGS...: "global options" keys | job options keys of the first job.
keys() {
  local tool=$1
  shift
  "$tool" --output-format=json "$@" 2>err | python3 -c '
import json, sys
t = sys.stdin.read()
d = json.loads(t[t.find("{"):])
print(",".join(d.get("global options", {})), "|", ",".join(d["jobs"][0]["job options"]))' ||
    fail "$tool $*: $(cat err)"
}

cmdline=(--ioengine=null --size=1m --kb_base=1000 --name=a --rw=read --kb_base=1000 --unit_base=8)
printf '[global]\nioengine=null\nsize=1m\nkb_base=1000\n[a]\nrw=read\nkb_base=1000\nunit_base=8\n' \
  >order.fio
want_cmd="ioengine,size,kb_base | name,rw,kb_base,unit_base"
want_file="kb_base,ioengine,size | kb_base,unit_base,rw"
for tool in $(tools); do
  c=$(cmd "$tool")
  expect_eq "$tool: command line" "$(keys "$c" "${cmdline[@]}")" "$want_cmd"
  expect_eq "$tool: job file" "$(keys "$c" order.fio)" "$want_file"
done
# A job whose only option is a bare flag has an empty "job options" (fio
# does not list bare flags); a job with no option of its own has none.
printf '[global]\nioengine=null\nsize=64k\n[a]\n[b]\nstonewall\n' >bare.fio
for tool in $(tools); do
  c=$(cmd "$tool")
  got=$("$c" --output-format=json bare.fio 2>err | python3 -c '
import json, sys
t = sys.stdin.read()
d = json.loads(t[t.find("{"):])
print(" ".join(str(j.get("job options", "absent")) for j in d["jobs"]))') || fail "$tool bare.fio: $(cat err)"
  expect_eq "$tool: bare flag" "$got" "absent {}"
done
# --name=global opens a global section and is listed in it, where written
# (iobench left it out); the latest such name when there are several.
# A job file's jobs take no name from it.
printf '[a]\nrw=read\nioengine=null\nsize=64k\n' >named.fio
for tool in $(tools); do
  c=$(cmd "$tool")
  expect_eq "$tool: --name=global" \
    "$(keys "$c" --name=global --ioengine=null --size=1m --name=x --rw=read)" \
    "name,ioengine,size | name,rw"
  expect_eq "$tool: --name=global later" \
    "$(keys "$c" --ioengine=null --name=global --size=1m --name=x --rw=read)" \
    "ioengine,name,size | name,rw"
  got=$("$c" --output-format=json --name=global --bs=8k named.fio 2>err | python3 -c '
import json, sys
t = sys.stdin.read()
d = json.loads(t[t.find("{"):])
print(d["jobs"][0]["jobname"])') || fail "$tool named.fio: $(cat err)"
  expect_eq "$tool: file job keeps its name" "$got" "a"
done
[ "$fails" -eq 0 ] && echo "ok: JSON options in fio's order"
[ "$fails" -eq 0 ]
