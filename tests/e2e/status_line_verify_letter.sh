#!/bin/bash
# ctest-labels: threads
# A job that only reads, with a verify type, shows `V` on the status line,
# as fio 3.33's (its do_io sets TD_VERIFYING for a read with verify set in a
# job that does not also write): `--rw=read --verify=md5` on a file written
# earlier with do_verify=0 showed `R`. rw=randread verify=crc32c is `V` too;
# randrw with verify stays `m` (fio: reads of a read+write job are not
# verifying). $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
letters() {  # the letters the drawn lines show while the job runs (not its ended _ or E)
  tr '\r' '\n' <"$1" | grep -ao '^Jobs: [^[]*\[[^]]*\]' | sed 's/.*\[//; s/\]//' |
    grep -v '^[_E](' | sort -u | tr '\n' ' '
}
for v in md5 crc32c; do
  "$bin" --name=w --filename=F$v --size=2m --rw=write --verify=$v --do_verify=0 \
    --output=/dev/null || fail "writing F$v: exit $?"
done
"$bin" --eta=always --name=r --filename=Fmd5 --size=2m --rw=read --verify=md5 --rate_iops=500 \
  --output=/dev/null >read.out || fail "read: exit $?"
expect_eq "read verify=md5" "$(letters read.out)" "V(1) "
"$bin" --eta=always --name=r --filename=Fcrc32c --size=2m --rw=randread --verify=crc32c \
  --rate_iops=500 --output=/dev/null >randread.out || fail "randread: exit $?"
expect_eq "randread verify=crc32c" "$(letters randread.out)" "V(1) "
"$bin" --eta=always --name=m --filename=M --size=2m --rw=randrw --verify=crc32c --rate_iops=200 \
  --time_based --runtime=1s --output=/dev/null >randrw.out 2>/dev/null
expect_eq "randrw verify=crc32c" "$(letters randrw.out)" "m(1) "
"$bin" --eta=always --name=r --filename=Fmd5 --size=2m --rw=read --rate_iops=500 \
  --output=/dev/null >plain.out || fail "plain read: exit $?"
expect_eq "read without verify" "$(letters plain.out)" "R(1) "
[ "$fails" -eq 0 ]
