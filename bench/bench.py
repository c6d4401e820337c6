#!/usr/bin/env python3
"""iobench vs fio, row by row of issue 7's target table, in one invocation.

Each row runs the same job under both tools, interleaved (iobench, fio,
iobench, fio, ...), several repeats, and prints medians with min-max.
Never run in CI: wall-clock numbers depend on the machine (the CI guard for
overhead is tests/e2e/perf_instructions.sh, which counts instructions).
See bench/README.md for what each row means.

Rows (select with --rows, comma separated):
  instr    callgrind instructions per I/O, null engine and io_uring (tmpfs), QD1 and QD32
  iops     null-engine IOPS and IOPS per core (wall clock)
  aio      io_uring / libaio 4k randread, loop device (direct=1) and tmpfs, QD1/QD32
  startup  wall time of a 1-job, 1-I/O run
  workers  252 workers (seed 003 shape) start and stop, number_ios=1 each
  depth    max RSS at iodepth 20000, bs 4k, one job (libaio, tmpfs file)
  verify   write + verify throughput per checksum (crc32c, xxhash, md5, sha256), tmpfs
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = ("iobench", "fio")


def parse_json(text):
    """Both tools may print notes before the JSON document."""
    return json.loads(text[text.index("{"):])


def run(cmd, **kw):
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()[-800:]}")
    return out


def stats(values):
    """(median, min, max) of a list."""
    return statistics.median(values), min(values), max(values)


def fmt_num(v):
    if v == 0:
        return "0"
    if abs(v) >= 1e6:
        return f"{v / 1e6:.3g}M"
    if abs(v) >= 1e3:
        return f"{v / 1e3:.3g}k"
    return f"{v:.3g}"


class Table:
    def __init__(self):
        self.rows = []  # (figure, metric, {tool: [values]}, unit)

    def add(self, figure, metric, values, unit=""):
        self.rows.append((figure, metric, values, unit))

    def print(self, out=sys.stdout):
        out.write("| figure | metric | iobench median (min-max) | fio median (min-max) "
                  "| iobench/fio |\n|---|---|---|---|---|\n")
        for figure, metric, values, unit in self.rows:
            cells = []
            meds = {}
            for t in TOOLS:
                v = values.get(t) or []
                if not v:
                    cells.append("n/a")
                    continue
                med, lo, hi = stats(v)
                meds[t] = med
                if len(v) > 1 and lo != hi:
                    cells.append(f"{fmt_num(med)}{unit} ({fmt_num(lo)}-{fmt_num(hi)})")
                else:
                    cells.append(f"{fmt_num(med)}{unit}")
            ratio = (f"{meds['iobench'] / meds['fio']:.2f}x"
                     if meds.get("fio") and "iobench" in meds else "")
            out.write(f"| {figure} | {metric} | {cells[0]} | {cells[1]} | {ratio} |\n")
        out.flush()


# ---------------------------------------------------------------------------
# instr: callgrind instructions per I/O of the null engine.

def callgrind_instructions(cmd, scratch):
    """Total instructions (Ir) callgrind counted for cmd, all threads."""
    outfile = os.path.join(scratch, "cg.out")
    out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={outfile}"] + cmd,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"callgrind {' '.join(cmd)} failed: {out.stderr[-800:]}")
    m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    os.unlink(outfile)
    if not m:
        raise RuntimeError("no 'Collected' line from callgrind")
    doc = parse_json(out.stdout)
    return int(m.group(1)), doc["jobs"][0]["read"]["total_ios"]


def null_job(tool, qd, number_ios):
    # fio forks a process per job unless --thread; iobench always uses threads.
    opts = ["--name=null", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=16g",
            f"--iodepth={qd}", f"--number_ios={number_ios}", "--output-format=json"]
    return opts + (["--thread"] if tool == "fio" else [])


def uring_job(tool, qd, number_ios, path):
    opts = ["--name=uring", "--ioengine=io_uring", "--rw=randread", "--bs=4k", "--size=256m",
            f"--filename={path}", f"--iodepth={qd}", f"--number_ios={number_ios}",
            "--output-format=json"]
    return opts + (["--thread"] if tool == "fio" else [])


def row_instr(args, scratch, table):
    if not shutil.which("valgrind"):
        print("instr: valgrind not installed, row skipped", file=sys.stderr)
        return
    n1, n2 = args.instr_ios
    # The null engine is the tool alone. io_uring on a tmpfs file adds the
    # engine's user-space side (SQ/CQ handling, liburing, two enters per
    # batch); the kernel's work is not counted (callgrind sees user space).
    uring_file = os.path.join(args.tmpfs, f"iobench-bench-instr.{os.getpid()}.dat")
    cases = [(f"null engine QD{qd}, full clat histogram",
              lambda tool, n, qd=qd: null_job(tool, qd, n)) for qd in (1, 32)]
    cases += [(f"io_uring 4k randread tmpfs QD{qd} (user space)",
               lambda tool, n, qd=qd: uring_job(tool, qd, n, uring_file)) for qd in (1, 32)]
    try:
        # Laid out here, not by the first measured run: that run's layout
        # (256 MiB of writes) counted in its N1 figure only, and the QD1 row
        # came out negative (-29.4k instructions per I/O).
        with open(uring_file, "wb") as f:
            for _ in range(256):
                f.write(os.urandom(1 << 20))
        for figure, job in cases:
            values = {t: [] for t in TOOLS}
            for _ in range(args.instr_repeat):
                for tool in TOOLS:
                    counts = []
                    for n in (n1, n2):
                        ir, ios = callgrind_instructions([args.tool[tool]] + job(tool, n), scratch)
                        if ios != n:
                            raise RuntimeError(f"{tool}: number_ios={n} gave {ios} I/Os")
                        counts.append(ir)
                    values[tool].append((counts[1] - counts[0]) / (n2 - n1))
            table.add(figure, "instructions per I/O", values)
    finally:
        if os.path.exists(uring_file):
            os.unlink(uring_file)


# ---------------------------------------------------------------------------
# iops: null-engine IOPS, wall clock, and per core of CPU used.

def row_iops(args, scratch, table):
    for qd in (1, 32):
        iops = {t: [] for t in TOOLS}
        per_core = {t: [] for t in TOOLS}
        for _ in range(args.repeat):
            for tool in TOOLS:
                opts = ["--name=null", "--ioengine=null", "--rw=randread", "--bs=4k",
                        "--size=16g", f"--iodepth={qd}", "--time_based",
                        f"--runtime={args.runtime}", "--output-format=json"]
                if tool == "fio":
                    opts.append("--thread")
                if args.clocksource:
                    opts.append(f"--clocksource={args.clocksource}")
                job = parse_json(run([args.tool[tool]] + opts).stdout)["jobs"][0]
                rd = job["read"]
                cpu = (job["usr_cpu"] + job["sys_cpu"]) / 100.0
                iops[tool].append(rd["iops"])
                per_core[tool].append(rd["iops"] / cpu if cpu > 0 else 0)
        table.add(f"null engine QD{qd}", "IOPS (wall clock)", iops)
        table.add(f"null engine QD{qd}", "IOPS per core (IOPS / job CPU)", per_core)


# ---------------------------------------------------------------------------
# aio: io_uring and libaio 4k randread, loop device with direct=1 and tmpfs.

class LoopDevice:
    """A 256 MiB loop device over a file in the scratch directory (root only)."""

    def __init__(self, scratch, size_mib=256):
        self.backing = os.path.join(scratch, "loop.img")
        with open(self.backing, "wb") as f:
            chunk = os.urandom(1 << 20)
            for _ in range(size_mib):
                f.write(chunk)
        self.dev = run(["losetup", "--find", "--show", self.backing]).stdout.strip()

    def close(self):
        subprocess.run(["losetup", "-d", self.dev], capture_output=True)
        os.unlink(self.backing)


HELPER_PREFIXES = ("iou-wrk-", "iou-sqp-")


def run_sampling_helpers(cmd, interval=0.05):
    """Runs cmd; returns (stdout, helper CPU seconds). The kernel's io_uring
    helper threads (iou-wrk-*, iou-sqp-*) live in the tool's thread group,
    so /proc/<pid>/task shows them for either tool; each one's last seen
    utime+stime is summed. The same outside sampler for both tools, so the
    "+ helpers" CPU figures compare (only the last interval is missed)."""
    tick = os.sysconf("SC_CLK_TCK")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = {}
    while proc.poll() is None:
        task_dir = f"/proc/{proc.pid}/task"
        try:
            tids = os.listdir(task_dir)
        except OSError:
            break
        for tid in tids:
            try:
                with open(f"{task_dir}/{tid}/stat") as f:
                    st = f.read()
            except OSError:
                continue
            comm = st[st.index("(") + 1:st.rindex(")")]
            if comm.startswith(HELPER_PREFIXES):
                fields = st[st.rindex(")") + 2:].split()
                seen[tid] = (int(fields[11]) + int(fields[12])) / tick
        time.sleep(interval)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()[-800:]}")
    return out, sum(seen.values())


def aio_metrics(tool, doc, helper_s=None):
    job = doc["jobs"][0]
    rd = job["read"]
    pct = rd["clat_ns"].get("percentile", {})
    ios = max(rd["total_ios"], 1)
    # usr_cpu + sys_cpu: the job's own threads over its runtime, both tools.
    own_us = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * rd["runtime"] * 1000.0 / ios
    # The same split into user space and kernel: with the same system calls
    # per I/O, only the user part is the tool's own.
    usr_us = job["usr_cpu"] / 100.0 * rd["runtime"] * 1000.0 / ios
    sys_us = job["sys_cpu"] / 100.0 * rd["runtime"] * 1000.0 / ios
    # iobench adds the io-wq/SQPOLL helper threads that served the job; fio
    # cannot see them, so its figure is its own threads only.
    all_us = job["iobench"]["cpu_per_io_us"] if tool == "iobench" else None
    # Both tools' helpers, sampled from outside the same way.
    sampled_us = own_us + helper_s * 1e6 / ios if helper_s is not None else None
    return {"iops": rd["iops"], "p50": pct.get("50.000000", 0) / 1000.0,
            "p99": pct.get("99.000000", 0) / 1000.0, "own": own_us, "usr": usr_us,
            "sys": sys_us, "cpu": all_us, "both": sampled_us}


def row_aio(args, scratch, table):
    targets = []
    loop = None
    if os.geteuid() == 0 and shutil.which("losetup"):
        try:
            loop = LoopDevice(scratch)
            targets.append(("loop direct=1", loop.dev, ["--direct=1"]))
        except RuntimeError as e:
            print(f"aio: no loop device ({e}); loop rows skipped", file=sys.stderr)
    else:
        print("aio: not root, loop-device rows skipped", file=sys.stderr)
    tmpfs_file = os.path.join(args.tmpfs, f"iobench-bench.{os.getpid()}.dat")
    targets.append(("tmpfs", tmpfs_file, ["--size=256m"]))
    try:
        for engine in ("io_uring", "libaio"):
            for tname, path, extra in targets:
                for qd in (1, 32):
                    vals = {k: {t: [] for t in TOOLS}
                            for k in ("iops", "p50", "p99", "own", "usr", "sys", "cpu", "both")}
                    opts = ["--name=aio", f"--ioengine={engine}", "--rw=randread", "--bs=4k",
                            f"--iodepth={qd}", f"--filename={path}", "--time_based",
                            f"--runtime={args.runtime}", "--output-format=json"] + extra
                    for _ in range(args.repeat):
                        for tool in TOOLS:
                            o = opts + (["--thread"] if tool == "fio" else [])
                            out, helper_s = run_sampling_helpers([args.tool[tool]] + o)
                            m = aio_metrics(tool, parse_json(out), helper_s)
                            for k in m:
                                if m[k] is not None:
                                    vals[k][tool].append(m[k])
                    fig = f"{engine} 4k randread {tname} QD{qd}"
                    table.add(fig, "IOPS", vals["iops"])
                    table.add(fig, "clat p50 (us)", vals["p50"])
                    table.add(fig, "clat p99 (us)", vals["p99"])
                    table.add(fig, "CPU per I/O (us, job threads)", vals["own"])
                    table.add(fig, "  of which user space (us)", vals["usr"])
                    table.add(fig, "  of which kernel (us)", vals["sys"])
                    table.add(fig, "CPU per I/O (us, + io-wq/SQPOLL helpers)", vals["cpu"])
                    table.add(fig, "CPU per I/O (us, job threads + helpers sampled from /proc)",
                              vals["both"])
    finally:
        if loop:
            loop.close()
        if os.path.exists(tmpfs_file):
            os.unlink(tmpfs_file)


# ---------------------------------------------------------------------------
# startup: wall time of a 1-job, 1-I/O run.

def timed(cmd):
    t0 = time.perf_counter()
    run(cmd)
    return time.perf_counter() - t0


def time_v(cmd):
    """(wall seconds, max RSS MiB, user+sys CPU seconds) from GNU time -v."""
    out = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {out.stderr[-800:]}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", out.stderr).group(1)
    secs = 0.0
    for part in wall.split(":"):
        secs = secs * 60 + float(part)
    cpu = sum(float(re.search(rf"{k} time \(seconds\): (\S+)", out.stderr).group(1))
              for k in ("User", "System"))
    return secs, rss / 1024.0, cpu


def row_startup(args, scratch, table):
    opts = ["--name=one", "--ioengine=null", "--rw=read", "--bs=4k", "--size=4k",
            "--number_ios=1", "--output-format=json"]
    cmds = {"iobench": [args.tool["iobench"]] + opts, "fio": [args.tool["fio"]] + opts}
    values = {t: [] for t in TOOLS}
    cpu = {t: [] for t in TOOLS}
    if shutil.which("hyperfine"):
        # hyperfine runs each command's runs back to back; rounds interleave the tools.
        for _ in range(args.repeat):
            for tool in TOOLS:
                jf = os.path.join(scratch, "hf.json")
                run(["hyperfine", "-N", "--warmup", "1", "--runs", "5", "--export-json", jf,
                     " ".join(cmds[tool])])
                with open(jf) as f:
                    res = json.load(f)["results"][0]
                values[tool].append(res["median"] * 1000.0)
                cpu[tool].append((res["user"] + res["system"]) * 1000.0)
    else:
        for _ in range(args.repeat * 10):
            for tool in TOOLS:
                values[tool].append(timed(cmds[tool]) * 1000.0)
    table.add("1 job, 1 I/O (null)", "wall time (ms)", values)
    if any(cpu.values()):
        # Less sensitive to other load on the machine than the wall time.
        table.add("1 job, 1 I/O (null)", "CPU time, user+sys (ms)", cpu)


# ---------------------------------------------------------------------------
# workers: 252 workers start and stop (seed 003's shape), number_ios=1 each.

def row_workers(args, scratch, table):
    d = tempfile.mkdtemp(dir=args.tmpfs, prefix="iobench-bench-dir.")
    try:
        opts = ["--name=mytest", f"--directory={d}", "--direct=0", "--thread", "--size=1m",
                "--rw=rw", "--rwmixwrite=30", "--norandommap", "--randrepeat=0",
                "--ioengine=pvsync2", "--bs=64k", "--numjobs=252", "--number_ios=1",
                "--group_reporting", "--output-format=json"]
        run([args.tool["fio"]] + opts)  # lays out the 252 files once, untimed
        wall = {t: [] for t in TOOLS}
        rss = {t: [] for t in TOOLS}
        cpu = {t: [] for t in TOOLS}
        for _ in range(args.repeat):
            for tool in TOOLS:
                w, r, c = time_v([args.tool[tool]] + opts)
                wall[tool].append(w)
                rss[tool].append(r)
                cpu[tool].append(c)
        table.add("252 workers, number_ios=1 each", "wall time (s)", wall)
        table.add("252 workers, number_ios=1 each", "CPU time, user+sys (s)", cpu)
        table.add("252 workers, number_ios=1 each", "max RSS (MiB)", rss)
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------------------
# depth: RSS at iodepth 20000.

def row_depth(args, scratch, table):
    f = os.path.join(args.tmpfs, f"iobench-bench-depth.{os.getpid()}.dat")
    try:
        opts = ["--name=deep", "--ioengine=libaio", "--rw=randread", "--bs=4k",
                "--iodepth=20000", "--iodepth_batch=8", "--size=256m", f"--filename={f}",
                "--number_ios=100000", "--output-format=json"]
        rss = {t: [] for t in TOOLS}
        for _ in range(args.repeat):
            for tool in TOOLS:
                o = opts + (["--thread"] if tool == "fio" else [])
                rss[tool].append(time_v([args.tool[tool]] + o)[1])
        table.add("iodepth 20000, bs 4k, 1 job (buffers: 78 MiB)", "max RSS (MiB)", rss)
    finally:
        if os.path.exists(f):
            os.unlink(f)


# ---------------------------------------------------------------------------
# verify: write a file and read it back checking every block (issue 6's
# "verify throughput is part of the benchmark"), per checksum, tmpfs, psync.

def row_verify(args, scratch, table):
    f = os.path.join(args.tmpfs, f"iobench-bench-verify.{os.getpid()}.dat")
    size_mib = args.verify_mib
    try:
        for kind in ("crc32c", "xxhash", "md5", "sha256"):
            mbs = {t: [] for t in TOOLS}
            cpu = {t: [] for t in TOOLS}
            for _ in range(args.repeat):
                for tool in TOOLS:
                    opts = ["--name=v", f"--filename={f}", f"--size={size_mib}m", "--bs=64k",
                            "--rw=write", "--ioengine=psync", f"--verify={kind}",
                            "--do_verify=1", "--verify_state_save=0", "--output-format=json"]
                    if tool == "fio":
                        opts.append("--thread")
                    w, _, c = time_v([args.tool[tool]] + opts)
                    # Bytes written plus bytes read back and checked, per second of wall time.
                    mbs[tool].append(2 * size_mib * 1.048576 / w)
                    cpu[tool].append(c)
                    os.unlink(f)
            table.add(f"write + verify {size_mib} MiB, verify={kind}, tmpfs, bs 64k",
                      "MB/s (written + verified, wall clock)", mbs)
            table.add(f"write + verify {size_mib} MiB, verify={kind}, tmpfs, bs 64k",
                      "CPU time, user+sys (s)", cpu)
    finally:
        if os.path.exists(f):
            os.unlink(f)


ROWS = {"instr": row_instr, "iops": row_iops, "aio": row_aio, "startup": row_startup,
        "workers": row_workers, "depth": row_depth, "verify": row_verify}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iobench", default=os.path.join(HERE, "..", "build", "release", "iobench"))
    ap.add_argument("--fio", default=shutil.which("fio") or "fio")
    ap.add_argument("--rows", default=",".join(ROWS), help="comma separated: " + ",".join(ROWS))
    ap.add_argument("--repeat", type=int, default=3, help="interleaved repeats per row")
    ap.add_argument("--runtime", type=int, default=2, help="seconds per timed run (iops, aio)")
    ap.add_argument("--clocksource", default="",
                    help="clocksource= for both tools in the iops rows (cpu: the TSC for iobench "
                         "too where the kernel runs on another clock, e.g. kvm-clock)")
    ap.add_argument("--instr-ios", type=int, nargs=2, default=[20000, 40000],
                    metavar=("N1", "N2"), help="number_ios of the two callgrind runs")
    ap.add_argument("--instr-repeat", type=int, default=1,
                    help="callgrind repeats (instruction counts are nearly deterministic)")
    ap.add_argument("--tmpfs", default="/dev/shm", help="directory for tmpfs files")
    ap.add_argument("--verify-mib", type=int, default=256, help="file size of the verify row")
    ap.add_argument("--scratch", default="/var/tmp", help="directory for the loop image")
    args = ap.parse_args()
    args.tool = {"iobench": os.path.abspath(args.iobench), "fio": args.fio}
    rows = [r for r in args.rows.split(",") if r]
    for r in rows:
        if r not in ROWS:
            ap.error(f"unknown row '{r}' (known: {', '.join(ROWS)})")
    scratch = tempfile.mkdtemp(dir=args.scratch, prefix="iobench-bench.")
    table = Table()
    try:
        for r in rows:
            t0 = time.time()
            ROWS[r](args, scratch, table)
            print(f"[{r}: {time.time() - t0:.0f} s]", file=sys.stderr)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    table.print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
