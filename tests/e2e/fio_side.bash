# Sourced by the e2e scripts that run fio 3.33 on the same job to compare,
# where they can also check iobench alone.
# fio_side: true when fio's side runs: fio is installed and IOBENCH_TEST_FIO
# is not 0 (the asan and tsan test presets set 0: fio's output does not
# change under a sanitizer, and the release stage compares).
fio_side() { [ "${IOBENCH_TEST_FIO:-1}" != 0 ] && command -v fio >/dev/null; }
