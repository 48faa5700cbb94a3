#!/usr/bin/env python3
"""Times `gpudoctor summary` on 10,000 full reports against a plain Python json.load aggregation.

    bench/summary_bench.py [--nodes 10000] [--runs 3] [--dir /tmp/gpudoctor-summary-bench]
                           [--gpudoctor build/gpudoctor]

The reports are real shapes: `gpudoctor report` of every fixture machine in tests/fixtures
(replayed with --sysroot) and of this machine (with its smoke matmuls), each written by the
gpudoctor under test. A fleet is made of copies of them: nine in ten are the eight-H100 server
(tests/fixtures/server-h100-torch-cu124), one in twenty the A100 server, the rest spread over the
other machines (the broken ones among them). Each copy gets its node's name
(gpu-rRRR-nNN) and a time a few minutes before the newest; so that `summary` has outliers to
find, one node in 300 is three days old, one in 500 lost a GPU (its last device removed from the
snapshot and the brief record) and the smoke FLOP/s of this machine's copies are scaled by a
factor around 1 (one in 50 of them by 0.3). Nothing else is changed.

Both sides read the same files from the page cache (one warm-up run first), CPU time is user +
system of the process and its threads (getrusage of the child). The Python side is what one would
write without gpudoctor: json.load of each file, then the same grouping of its "brief" record
(findings by id and level with their nodes, nodes per GPU model and per version, the median smoke
FLOP/s). Its results are compared with `summary --json`: the failing nodes and every finding
group's node count must agree.

The target (issue 16): under 2 s of CPU for 10,000 reports of about 46 KB on a 2-core machine.
"""
import argparse
import hashlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures")
NOT_MACHINES = {"fuzz", "macho", "macos-system-profiler", "tools"}
PYTHON_AGGREGATION = r'''
import json, os, statistics, sys
from collections import defaultdict
root = sys.argv[1]
groups = defaultdict(set); gpus = defaultdict(lambda: defaultdict(set))
versions = defaultdict(lambda: defaultdict(set)); smoke = defaultdict(list)
failing = set(); unreadable = 0
for dirpath, _, files in os.walk(root):
    for name in files:
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                doc = json.load(f)
            b = doc["brief"]
        except (ValueError, KeyError):
            unreadable += 1
            continue
        node = b["node"] or name[:-5]
        if b["summary"]["failures"]:
            failing.add(node)
        for x in b["findings"]:
            groups[(x["id"], x["severity"])].add(node)
        for g in b["gpus"]:
            gpus[g["model"]][g["count"]].add(node)
        for area, comps in b["versions"].items():
            for comp, value in comps.items():
                versions[(area, comp)][value].add(node)
        for s in b["smoke"]:
            if s["flops"]:
                smoke[(s["api"], s["device"])].append(min(s["flops"]))
medians = {k: statistics.median(v) for k, v in smoke.items()}
print(json.dumps({"failing": len(failing), "unreadable": unreadable,
                  "groups": {k[0] + " " + k[1]: len(v) for k, v in groups.items()},
                  "models": len(gpus), "versions": len(versions), "smoke": len(medians)}))
'''


def machine_fixtures():
    for name in sorted(os.listdir(FIXTURES)):
        path = os.path.join(FIXTURES, name)
        if name in NOT_MACHINES or not os.path.isfile(os.path.join(path, "README.md")):
            continue
        yield name, path


def templates(gpudoctor):
    """name → report (parsed) of every fixture machine and of this machine."""
    env = {"PATH": "/usr/bin:/bin", "HOME": "/home/user"}
    out = {}
    for name, path in machine_fixtures():
        extra = {"CONDA_PREFIX": "/opt/conda"} if name == "server-h100-torch-cu124" else {}
        r = subprocess.run([gpudoctor, "report", "--no-smoke", "--sysroot", path],
                           capture_output=True, text=True, env=dict(env, **extra), timeout=120)
        if r.returncode == 0:
            out[name] = json.loads(r.stdout)
    r = subprocess.run([gpudoctor, "report"], capture_output=True, text=True, timeout=300)
    if r.returncode == 0:
        out["this-machine"] = json.loads(r.stdout)
    return out


def write_fleet(gpudoctor, directory, nodes):
    base = templates(gpudoctor)
    others = [k for k in base if k not in ("server-h100-torch-cu124", "server-a100-sxm4")]
    rng = random.Random(16)
    newest = time.time()
    sizes = []
    for i in range(nodes):
        roll = rng.random()
        name = ("server-h100-torch-cu124" if roll < 0.90 else
                "server-a100-sxm4" if roll < 0.95 else others[i % len(others)])
        doc = json.loads(json.dumps(base[name]))
        node = "gpu-r%03d-n%02d" % (i // 16, i % 16)
        t = newest - rng.uniform(0, 1800) - (3 * 86400 if i % 300 == 7 else 0)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
        doc["generated_at"] = doc["brief"]["generated_at"] = stamp
        doc["node"] = {"name": node, "source": "SLURMD_NODENAME"}
        doc["brief"]["node"] = node
        if i % 500 == 11 and doc["brief"]["gpus"] and len(doc["snapshot"]["devices"]) > 1:
            doc["snapshot"]["devices"].pop()
            doc["brief"]["gpus"][0]["count"] -= 1
            doc["summary"]["devices"] -= 1
        for s in doc["brief"]["smoke"]:
            factor = 0.3 if i % 50 == 3 else rng.gauss(1.0, 0.04)
            s["flops"] = [f * factor for f in s["flops"]]
        text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        sizes.append(len(text.encode()))
        with open(os.path.join(directory, node + ".json"), "w", encoding="utf-8") as f:
            f.write(text)
    return sizes


def timed(argv):
    """(wall s, CPU s of the child and its threads, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode not in (0, 1):
        sys.exit(f"{argv[0]} failed ({r.returncode}): {r.stderr}")
    return wall, cpu, r.stdout


def best_of(argv, runs):
    timed(argv)  # warm-up: the files into the page cache, the binary into memory
    samples = [timed(argv) for _ in range(runs)]
    return min(s[1] for s in samples), statistics.median(s[0] for s in samples), samples[-1][2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "gpudoctor-summary-bench"))
    ap.add_argument("--gpudoctor", default=os.path.join(HERE, "..", "build", "gpudoctor"))
    args = ap.parse_args()

    directory = os.path.join(args.dir, str(args.nodes))
    # The reports are remade when the gpudoctor that wrote them is another build: a cached fleet
    # from an older binary would time the shapes of older reports.
    stamp_file = directory + ".made-by"
    with open(args.gpudoctor, "rb") as f:
        stamp = hashlib.sha256(f.read()).hexdigest()
    made_by = open(stamp_file).read() if os.path.exists(stamp_file) else ""
    if (not os.path.isdir(directory) or len(os.listdir(directory)) != args.nodes
            or made_by != stamp):
        os.makedirs(directory, exist_ok=True)
        for f in os.listdir(directory):
            os.unlink(os.path.join(directory, f))
        print(f"writing {args.nodes} reports to {directory} …", file=sys.stderr)
        write_fleet(args.gpudoctor, directory, args.nodes)
        with open(stamp_file, "w") as f:
            f.write(stamp)
    sizes = [os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory)]
    total = sum(sizes)
    print(f"{len(sizes)} reports, {total / 1e6:.0f} MB, {statistics.mean(sizes) / 1e3:.1f} KB on "
          f"average ({min(sizes) / 1e3:.1f}–{max(sizes) / 1e3:.1f} KB); {os.cpu_count()} cores")

    ours_cpu, ours_wall, ours_out = best_of([args.gpudoctor, "summary", "--json", directory],
                                            args.runs)
    py_cpu, py_wall, py_out = best_of([sys.executable, "-c", PYTHON_AGGREGATION, directory],
                                      args.runs)

    summary = json.loads(ours_out)
    python = json.loads(py_out)
    ours_groups = {f["id"] + " " + f["severity"]: f["nodes"]["count"] for f in summary["findings"]}
    agree = (python["groups"] == ours_groups and python["failing"] == summary["failing"]["count"]
             and python["unreadable"] == len(summary["unreadable"]))
    print(f"{'':34} {'CPU s':>7} {'wall s':>7}")
    print(f"{'gpudoctor summary --json':34} {ours_cpu:7.2f} {ours_wall:7.2f}")
    print(f"{'python json.load aggregation':34} {py_cpu:7.2f} {py_wall:7.2f}")
    print(f"CPU ratio python / gpudoctor: {py_cpu / ours_cpu:.1f}x; target: gpudoctor under 2 s "
          f"of CPU for 10,000 reports: {'met' if ours_cpu < 2.0 * args.nodes / 10000 else 'MISSED'}")
    print(f"results agree (failing nodes, node count of each of {len(ours_groups)} finding "
          f"groups, unreadable): {'yes' if agree else 'NO'}; {len(summary['nodes'])} nodes, "
          f"{len(summary['outliers'])} outliers")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
