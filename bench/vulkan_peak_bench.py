#!/usr/bin/env python3
"""Vulkan matmul against the device's own FMA rate, side by side in one run (issue 18 §1).

    bench/vulkan_peak_bench.py [--sizes 512,1024] [--runs 3] [--gpudoctor build/gpudoctor]

Each run is one `gpudoctor bench --backend vulkan --json`: in the same child, on every Vulkan
device, gpudoctor's FMA peak shader (probes/vulkan/fma_peak.comp: independent vec4 FMA chains
in registers, best of 20 dispatches) and then the matmul at each size (best of at least 5 timed
runs). The ratio matmul / peak is taken within each run, so both share that run's load; the
median over --runs is printed with the load average. Target (lavapipe): at least 0.50 at every
n ≥ 512.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

TARGET = 0.50


def one_run(binary, sizes):
    """{device: (peak GFLOPS, {n: matmul GFLOPS})} of one bench run."""
    run = subprocess.run([binary, "bench", "--backend", "vulkan", "--json", "--no-vendor-blas",
                          "--timeout", "1800", "--sizes", ",".join(map(str, sizes))],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"gpudoctor bench failed ({run.returncode}): {run.stderr}")
    out = {}
    for r in json.loads(run.stdout)["results"]:
        s = r["series"]
        peak = (s.get("measured_peak") or {}).get("gflops")
        if s["api"] == "vulkan" and peak:
            out[s["device"]] = (peak, {p["n"]: p["gflops"] for p in s["points"] if p["gflops"]})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="512,1024")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--gpudoctor", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                       "gpudoctor"))
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    load = [os.getloadavg()[0]]
    runs = []
    for _ in range(args.runs):
        runs.append(one_run(args.gpudoctor, sizes))
        load.append(os.getloadavg()[0])
    devices = sorted({d for r in runs for d in r})
    if not devices:
        print("no Vulkan device with a measured FMA peak")
        return 1
    met = True
    for dev in devices:
        print(dev)
        for i, r in enumerate(runs):
            if dev not in r:
                continue
            peak, mm = r[dev]
            cells = ", ".join(f"n={n} {mm[n]:.1f} ({mm[n] / peak:.2f}x)" for n in sizes if n in mm)
            print(f"  run {i + 1}: FMA peak {peak:.1f} GFLOPS; matmul {cells}")
        for n in sizes:
            ratios = [r[dev][1][n] / r[dev][0] for r in runs if dev in r and n in r[dev][1]]
            if not ratios:
                print(f"  n={n}: not measured")
                met = False
                continue
            med = statistics.median(ratios)
            met = met and (n < 512 or med >= TARGET)
            print(f"  n={n}: matmul / FMA peak, median of {len(ratios)}: {med:.2f}x "
                  f"(range {min(ratios):.2f}-{max(ratios):.2f})")
    print(f"load average (1 min) during the runs: {min(load):.1f}-{max(load):.1f} on "
          f"{os.cpu_count()} CPUs")
    print(f"target: matmul >= {TARGET:.2f}x of the FMA peak at n >= 512: "
          f"{'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
