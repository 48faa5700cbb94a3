#!/usr/bin/env python3
"""Times `gpudoctor query` against the tools people run today, side by side on one machine.

    bench/query_bench.py [--runs N] [--gpudoctor build/gpudoctor]

Each command runs N times (after one warm-up run) with its output discarded; the table shows
the median and the best wall time, and the ratio of gpudoctor's median to each tool's. The
target (issue 2): `gpudoctor query` with every backend takes no longer than the slowest of
clinfo, `vulkaninfo --summary` and `lspci -vvv` alone.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def time_command(argv, runs, env):
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples), min(samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--gpudoctor", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                       "gpudoctor"))
    args = ap.parse_args()
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")  # vulkaninfo complains loudly without it

    tools = [("clinfo", ["clinfo"]), ("vulkaninfo --summary", ["vulkaninfo", "--summary"]),
             ("lspci -vvv", ["lspci", "-vvv"])]
    ours = [("gpudoctor query", [args.gpudoctor, "query"]),
            ("gpudoctor query --json", [args.gpudoctor, "query", "--json"]),
            # the backends issue 2 covers: the same ground as the three tools together
            ("gpudoctor query (pci,opencl,vulkan,host)",
             [args.gpudoctor, "query", "--backend", "host,pci,opencl,vulkan"])]
    rows = []
    for name, argv in tools + ours:
        if shutil.which(argv[0]) is None and not os.path.exists(argv[0]):
            print(f"skip {name}: {argv[0]} not installed", file=sys.stderr)
            continue
        med, best = time_command(argv, args.runs, env)
        rows.append((name, med, best))

    print(f"{'command':42} {'median ms':>10} {'best ms':>10}")
    for name, med, best in rows:
        print(f"{name:42} {med * 1000:10.1f} {best * 1000:10.1f}")
    theirs = [r for r in rows if not r[0].startswith("gpudoctor")]
    mine = {r[0]: r[1] for r in rows if r[0].startswith("gpudoctor")}
    if not theirs or "gpudoctor query" not in mine:
        return 1
    print()
    for name, med, _ in theirs:
        print(f"gpudoctor query / {name:22} {mine['gpudoctor query'] / med:6.2f}x")
    slowest = max(theirs, key=lambda r: r[1])
    ok = True
    for name in ("gpudoctor query", "gpudoctor query (pci,opencl,vulkan,host)"):
        if name not in mine:
            continue
        met = mine[name] <= slowest[1]
        ok = ok and met
        print(f"target: {name} <= slowest tool ({slowest[0]}, {slowest[1] * 1000:.1f} ms): "
              f"{mine[name] * 1000:.1f} ms, {'met' if met else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
