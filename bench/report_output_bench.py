#!/usr/bin/env python3
"""Times writing a large report back out, `gpudoctor check --from REPORT --json`, against Python's json.load + json.dump of the same file,
side by side in one run, and prints the ratios, peak memory and the load average.

    bench/report_output_bench.py [--runs N] [--sizes 12,45] [--gpudoctor build/gpudoctor]
                                 [--compare OTHER/gpudoctor]

The reports are those of bench/report_load_bench.py (the H100 fixture machine's report, its
Python environments and probes repeated until the file reaches each size in MB). Python is
timed inside one interpreter (no start-up): json.load; json.dumps with no indent, Python's C
encoder and the fastest output it has; and json.dump with indent=2 and sorted keys, the
shape gpudoctor writes, which Python's pure-Python encoder makes. The anchor is the fastest
pair, json.load + json.dumps; the ratios to json.load alone (as bench/report_load_bench.py
shows) and to json.load + json.dump(indent=2) are shown too. Each gpudoctor command runs N
times after a warm-up, its output to /dev/null; the table shows the median wall time, the
ratios, and the peak resident memory as a multiple of the file size. Target (issue 18): at
most 1.5x json.load + json.dumps and 3x the file in memory.

`report` has no --from: its row runs `gpudoctor report --sysroot` on a copy of the H100 fixture
machine with --report-envs copies of its conda environment (hard links) under /opt/envs, a
report of about 12 MB for 1300; its time is mostly the probes reading those environments, so
the row shows its peak memory against the report it wrote (--compare shows the DOM's); it is
not part of the verdict, which is about reading a report back and writing it out.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_load_bench import FIXTURE, HERE, base_report, run_measured, write_grown  # noqa: E402

PYTHON_ANCHOR = """
import json, os, sys, time
t0 = time.perf_counter()
doc = json.load(open(sys.argv[1], 'rb'))
t1 = time.perf_counter()
with open(os.devnull, 'w') as out:
    json.dump(doc, out, indent=2, sort_keys=True)
t2 = time.perf_counter()
with open(os.devnull, 'w') as out:
    out.write(json.dumps(doc))
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def python_anchor(path, runs):
    """Median seconds of json.load, json.dump(indent=2), json.dumps() (one line)."""
    samples = []
    for _ in range(runs + 1):
        out = subprocess.run([sys.executable, "-c", PYTHON_ANCHOR, path], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        samples.append([float(x) for x in out.split()])
    return [statistics.median(s[i] for s in samples[1:]) for i in range(3)]


def many_envs_root(directory, envs):
    """The H100 fixture machine with `envs` copies of its conda environment in /opt/envs."""
    root = os.path.join(directory, "root")
    shutil.copytree(FIXTURE, root, symlinks=True)
    conda = os.path.join(root, "opt", "conda")
    for i in range(envs):
        shutil.copytree(conda, os.path.join(root, "opt", "envs", f"env{i}"), symlinks=True,
                        copy_function=os.link)
    return root


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="12,45", help="report sizes in MB, comma separated")
    ap.add_argument("--gpudoctor", default=os.path.join(HERE, "..", "build", "gpudoctor"))
    ap.add_argument("--compare", help="another gpudoctor binary to run side by side")
    ap.add_argument("--report-envs", type=int, default=1300,
                    help="conda environments of the report row (0: no report row)")
    args = ap.parse_args()
    base = base_report(args.gpudoctor)
    print(f"load average before: {load_average()}")
    print(f"{'report':>8} {'command':28} {'median s':>9} {'py load':>8} {'+dumps':>7} "
          f"{'+dump(2)':>8} {'x load':>7} {'x l+dumps':>9} {'x l+dump(2)':>11} "
          f"{'peak RSS':>9} {'x file':>7}")
    worst_ratio = 0.0
    worst_memory = 0.0
    binaries = [("", args.gpudoctor)] + ([("other: ", args.compare)] if args.compare else [])
    with tempfile.TemporaryDirectory() as tmp:
        # First, while this script is small: a child's peak RSS (ru_maxrss) counts what it
        # shared with this process before exec, and the grown reports below make it large.
        if args.report_envs > 0:
            root = many_envs_root(tmp, args.report_envs)
            out = os.path.join(tmp, "report.json")
            for label, binary in binaries:
                argv = [binary, "report", "--sysroot", root, "--python-env", "/opt/envs",
                        "-o", out]
                run_measured(argv)
                runs = [run_measured(argv) for _ in range(args.runs)]
                seconds = statistics.median(r[0] for r in runs)
                rss = max(r[1] for r in runs)
                size = os.path.getsize(out)
                print(f"{size / 1e6:7.1f}M {label + 'report --sysroot':28} {seconds:9.3f} "
                      f"{'':8} {'':7} {'':8} {'':7} {'':9} {'':11} {rss / 2**20:7.0f}Mi "
                      f"{rss / size:7.2f}")
        for mb in [float(s) for s in args.sizes.split(",")]:
            path, size = write_grown(base, mb, tmp)
            load, dump, dumps = python_anchor(path, args.runs)
            anchor = load + dumps
            indented = load + dump
            for label, binary in binaries:
                for name, rest in [("check --from --json", ["check", "--from", path, "--json"])]:
                    argv = [binary] + rest
                    run_measured(argv)
                    runs = [run_measured(argv) for _ in range(args.runs)]
                    seconds = statistics.median(r[0] for r in runs)
                    rss = max(r[1] for r in runs)
                    ratio = seconds / anchor
                    memory = rss / size
                    if not label:
                        worst_ratio = max(worst_ratio, ratio)
                        worst_memory = max(worst_memory, memory)
                    print(f"{size / 1e6:7.1f}M {label + name:28} {seconds:9.3f} {load:8.3f} "
                          f"{dumps:7.3f} {dump:8.3f} {seconds / load:7.2f} {ratio:9.2f} "
                          f"{seconds / indented:11.2f} {rss / 2**20:7.0f}Mi {memory:7.2f}")
    print(f"load average after: {load_average()}")
    print(f"worst: {worst_ratio:.2f}x json.load + json.dumps (target <= 1.5), "
          f"{worst_memory:.2f}x the file in memory (target <= 3)")
    return 0 if worst_ratio <= 1.5 and worst_memory <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
