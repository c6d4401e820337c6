#!/usr/bin/env python3
"""iobench vs fio, same job, one invocation, interleaved runs, medians and ratios.

Never run in CI: wall-clock numbers depend on the machine. See bench/README.md.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def scenarios(scratch):
    """(name, job options) pairs; the same options go to both tools."""
    f = os.path.join(scratch, "bench.dat")
    common = ["--time_based", "--runtime=3", "--group_reporting"]
    return [
        ("null 4k randread QD1", ["--name=null", "--ioengine=null", "--rw=randread", "--bs=4k",
                                  "--size=1g"] + common),
        ("null 4k randread QD32 (io_uring-free)", ["--name=null32", "--ioengine=null",
                                                   "--rw=randread", "--bs=4k", "--size=1g",
                                                   "--iodepth=32"] + common),
        ("psync 4k randread tmpfs", ["--name=psync", "--ioengine=psync", "--rw=randread",
                                     "--bs=4k", "--size=256m", "--filename=" + f] + common),
        ("io_uring 4k randread tmpfs QD1", ["--name=uring1", "--ioengine=io_uring",
                                            "--rw=randread", "--bs=4k", "--size=256m",
                                            "--filename=" + f] + common),
        ("io_uring 4k randread tmpfs QD32", ["--name=uring32", "--ioengine=io_uring",
                                             "--rw=randread", "--bs=4k", "--size=256m",
                                             "--iodepth=32", "--filename=" + f] + common),
        ("libaio 4k randread tmpfs QD32", ["--name=aio32", "--ioengine=libaio", "--rw=randread",
                                           "--bs=4k", "--size=256m", "--iodepth=32",
                                           "--filename=" + f] + common),
    ]


def run_one(tool, opts):
    out = subprocess.run([tool, "--output-format=json"] + opts, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{tool} {' '.join(opts)} failed: {out.stderr.strip()}")
    text = out.stdout
    doc = json.loads(text[text.index("{"):])
    job = doc["jobs"][0]
    rd = job["read"]
    cpu_pct = job["usr_cpu"] + job["sys_cpu"]
    runtime_s = max(rd["runtime"], 1) / 1000.0
    ios = max(rd["total_ios"], 1)
    return {
        "iops": rd["iops"],
        "p50_us": rd["clat_ns"]["percentile"].get("50.000000", 0) / 1000.0,
        "p99_us": rd["clat_ns"]["percentile"].get("99.000000", 0) / 1000.0,
        # µs of CPU per I/O: cpu% of the run over the I/O count (own threads only for fio).
        "cpu_us_per_io": cpu_pct / 100.0 * runtime_s * 1e6 / ios,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--iobench", default=os.path.join(HERE, "..", "build", "release", "iobench"))
    ap.add_argument("--fio", default=shutil.which("fio") or "fio")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scratch", default="/dev/shm")
    ap.add_argument("--only", default="", help="substring of scenario names to run")
    args = ap.parse_args()
    scratch = tempfile.mkdtemp(dir=args.scratch, prefix="iobench-bench.")
    rows = []
    try:
        for name, opts in scenarios(scratch):
            if args.only and args.only not in name:
                continue
            res = {"iobench": [], "fio": []}
            for _ in range(args.repeat):  # interleaved: a, b, a, b ...
                res["iobench"].append(run_one(args.iobench, opts))
                res["fio"].append(run_one(args.fio, opts))
            med = {t: {k: statistics.median(r[k] for r in res[t]) for k in res[t][0]} for t in res}
            rows.append((name, med))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"| scenario | metric | iobench | fio 3.33 | ratio |")
    print(f"|---|---|---|---|---|")
    for name, med in rows:
        for k in ("iops", "p50_us", "p99_us", "cpu_us_per_io"):
            a, b = med["iobench"][k], med["fio"][k]
            ratio = a / b if b else float("nan")
            print(f"| {name} | {k} | {a:.3g} | {b:.3g} | {ratio:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
