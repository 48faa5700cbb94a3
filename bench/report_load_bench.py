#!/usr/bin/env python3
"""Times loading a large report, `gpudoctor check --from` and `gpudoctor diff`, against
Python's json.load of the same file, side by side, and prints the ratios and peak memory.

    bench/report_load_bench.py [--runs N] [--sizes 12,45] [--gpudoctor build/gpudoctor]
                               [--compare OTHER/gpudoctor]

The reports are real ones made large: `gpudoctor report` of the H100 fixture machine
(tests/fixtures/server-h100-torch-cu124), its Python environments and probe outcomes repeated
(each copy under its own prefix and label) until the file reaches each size in MB, as a shared
server with many conda environments and drivers makes them. Each command runs N times after a
warm-up; the table shows the median wall time, json.load's median (timed inside Python, so
without the interpreter's start), their ratio, and the peak resident memory of the gpudoctor
process as a multiple of the file size. The target (issue 18 §5): at most 1.5x json.load's
time and 3x the file in memory. --compare runs another build (main's, before a change) in
the same table.
"""
import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "tests", "fixtures", "server-h100-torch-cu124")


def base_report(gpudoctor):
    out = subprocess.run([gpudoctor, "report", "--sysroot", FIXTURE], check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


def grown(report, megabytes):
    """The report with its Python environments and probes repeated to about `megabytes`."""
    snap = report["snapshot"]
    envs = snap["python"]["envs"]
    probes = snap["probes"]
    one = len(json.dumps(envs)) + len(json.dumps(probes))
    copies = max(1, int(megabytes * 1e6 / (one * 1.55)))  # indent=2 adds about half
    big = copy.deepcopy(report)
    big_snap = big["snapshot"]
    big_snap["python"]["envs"] = []
    big_snap["probes"] = []
    for i in range(copies):
        for env in envs:
            e = copy.deepcopy(env)
            e["prefix"] = f"{env['prefix']}/envs/copy{i}"
            big_snap["python"]["envs"].append(e)
        for probe in probes:
            p = dict(probe)
            p["label"] = f"{probe['label']}#{i}"
            big_snap["probes"].append(p)
    return big


def write_grown(base, megabytes, directory):
    """The grown report written (as `gpudoctor report` writes it) under `directory`: its path
    and size in bytes."""
    path = os.path.join(directory, f"report-{megabytes:g}MB.json")
    with open(path, "w") as f:
        json.dump(grown(base, megabytes), f, indent=2, sort_keys=True)
    return path, os.path.getsize(path)


def run_measured(argv):
    """Wall seconds and peak RSS in bytes of one run."""
    t = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{' '.join(argv)} exited with {code}")
    return seconds, usage.ru_maxrss * 1024


def json_load_seconds(path, runs):
    code = ("import json, time, sys\n"
            "t = time.perf_counter()\n"
            "json.load(open(sys.argv[1], 'rb'))\n"
            "print(time.perf_counter() - t)\n")
    samples = []
    for _ in range(runs + 1):
        out = subprocess.run([sys.executable, "-c", code, path], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        samples.append(float(out))
    return statistics.median(samples[1:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="12,45", help="report sizes in MB, comma separated")
    ap.add_argument("--gpudoctor", default=os.path.join(HERE, "..", "build", "gpudoctor"))
    ap.add_argument("--compare", help="another gpudoctor binary to run side by side")
    args = ap.parse_args()
    base = base_report(args.gpudoctor)
    with open("/proc/loadavg") as f:
        print(f"load average: {' '.join(f.read().split()[:3])}")
    print(f"{'report':>8} {'command':35} {'median s':>9} {'json.load s':>11} {'ratio':>6} "
          f"{'peak RSS':>9} {'x file':>7}")
    worst_ratio = 0.0
    worst_memory = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for mb in [float(s) for s in args.sizes.split(",")]:
            path, size = write_grown(base, mb, tmp)
            load = json_load_seconds(path, args.runs)
            binaries = [("", args.gpudoctor)] + ([("other: ", args.compare)] if args.compare else [])
            for name, argv in [(label + name, [binary] + rest)
                               for label, binary in binaries
                               for name, rest in [("check --from", ["check", "--from", path]),
                                                  ("check --from --json",
                                                   ["check", "--from", path, "--json"]),
                                                  ("diff A A", ["diff", path, path])]]:
                run_measured(argv)
                runs = [run_measured(argv) for _ in range(args.runs)]
                seconds = statistics.median(r[0] for r in runs)
                rss = max(r[1] for r in runs)
                # diff reads the file twice: its time is against two loads, its memory two files.
                files = 2 if "diff" in name else 1
                ratio = seconds / (load * files)
                memory = rss / (size * files)
                if not name.endswith("--json") and not name.startswith("other"):
                    worst_ratio = max(worst_ratio, ratio)
                    worst_memory = max(worst_memory, memory)
                print(f"{size / 1e6:7.1f}M {name:35} {seconds:9.3f} {load * files:11.3f} "
                      f"{ratio:6.2f} {rss / 2**20:7.0f}Mi {memory:7.2f}")
    print(f"worst (text output): {worst_ratio:.2f}x json.load (target <= 1.5), "
          f"{worst_memory:.2f}x the file in memory (target <= 3)")
    return 0 if worst_ratio <= 1.5 and worst_memory <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
