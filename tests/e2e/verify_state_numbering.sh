#!/bin/bash
# The verify state's <n> in local-<job>-<n>-verify.state is the clone's place
# in the whole run (fio's thread_number - 1), for save and load: [a], then
# [w] numjobs=2 with stonewall, then [z] save local-a-0, local-w-1,
# local-w-2, local-z-3, as fio 3.33 does (iobench used the clone number:
# local-a-0, local-w-0, local-w-1, local-z-0). The same job file with
# verify_only loads each clone's own state; --output naming w's second
# state is refused before the run.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

printf '[global]\nrw=write\nverify=crc32c\nsize=64k\nbs=4k\ndo_verify=0\n[a]\n[w]\nnumjobs=2\nstonewall\n[z]\n' >w.fio
sed 's/do_verify=0/verify_only=1\nverify_state_load=1/' w.fio >r.fio
want="local-a-0-verify.state local-w-1-verify.state local-w-2-verify.state local-z-3-verify.state "
for tool in $(tools); do
  mkdir "$tool" && cd "$tool" || fail "mkdir $tool"
  "$(cmd "$tool")" ../w.fio --thread --output-format=json >out.json 2>err.txt || fail "$tool: write: exit $?"
  [ "$(ls local-* | tr '\n' ' ')" = "$want" ] || fail "$tool: state files $(ls local-* | tr '\n' ' '), want $want"
  echo "ok   $tool: $want"
  cd ..
done
cd iob
run ../r.fio
[ "$rc" -eq 0 ] || fail "verify_only with the states: exit $rc"
[ "$(jget '[j["read"]["total_ios"] for j in doc["jobs"]]')" = "[16, 16, 16, 16]" ] ||
  fail "verify_only reads: $(jget '[j["read"]["total_ios"] for j in doc["jobs"]]')"
echo "ok   each clone loads its own state"
"$bin" ../w.fio --output=local-w-2-verify.state >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q "verify state of job 'w'" err.txt || fail "--output over w's second state: $(cat err.txt)"
echo "all ok"
