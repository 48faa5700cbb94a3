#!/usr/bin/env python3
"""Many drivers (issue 18 §4, issue 13 class 8): gpudoctor with thousands of OpenCL ICDs and
a hundred Vulkan driver manifests, side by side with the tools people run, in one run.

    bench/many_drivers_bench.py [--build build] [--runs 3] [--icds 256,512,1024,2048]
                                [--manifests 128] [--distinct 16]

OpenCL: N registrations of N copies of a sane fake ICD (tests/fakes: the compute fake, which
answers like a driver and runs no kernel without --smoke), `gpudoctor query --backend opencl`;
every ICD must come back ok. Target: 2,048 under 3 s, and linear (the time per ICD flat from
256 to 2,048). (clinfo is no anchor here: it spins on the fake's unanswered queries.)

Vulkan: `gpudoctor query --backend vulkan` against `vulkaninfo --summary` on the same
VK_DRIVER_FILES: M manifests naming lavapipe (the issue's case; gpudoctor probes one library
once, the loader loads it M times), then D manifests naming D distinct copies of lavapipe
(one child each, the per-driver cost). Target (issue 18 §4): the M manifests no slower than
vulkaninfo. The D distinct copies are shown with their ratio and no target: each driver gets its
own child, so each pays a fresh process's loader and LLVM start-up that vulkaninfo, loading
every driver into one process, pays once; that is the price of a hanging or crashing driver
taking only its own child down.

Timings are wall-clock medians of --runs runs, with the CPU time of the command and its children;
the load average is printed before and after, since the machine may be shared.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

LVP_JSON = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"


def timed(argv, env, runs, check=None):
    """Median wall seconds and median CPU seconds (user+sys of the children) of `runs` runs."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        out = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             timeout=600)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if check is not None:
            check(out)
    return statistics.median(walls), statistics.median(cpus)


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def opencl_tree(root, fake, n):
    d = os.path.join(root, f"icds-{n}")
    os.makedirs(d)
    for i in range(n):
        lib = os.path.join(d, f"libfake{i}.so")
        shutil.copyfile(fake, lib)
        with open(os.path.join(d, f"fake{i}.icd"), "w") as f:
            f.write(lib + "\n")
    return d


def all_ok(n):
    def check(out):
        doc = json.loads(out.stdout)
        children = [p for p in doc["probes"] if p["label"] != "opencl"]
        bad = [p for p in children if p["status"] != "ok"]
        if len(children) != n or bad:
            sys.exit(f"{n} ICDs: {len(children)} children, {len(bad)} not ok: "
                     f"{bad[:1]}")
    return check


def bench_opencl(args, gd, root, env):
    fake = os.path.join(args.build, "tests/fakes/opencl/libfake_opencl_wrong_result.so")
    if not os.path.exists(fake):
        print(f"skip OpenCL: {fake} not built")
        return True
    sizes = [int(s) for s in args.icds.split(",")]
    print(f"OpenCL: N copies of a sane fake ICD, `gpudoctor query --backend opencl`"
          f" (median of {args.runs})")
    print(f"{'ICDs':>6} {'wall s':>8} {'cpu s':>8} {'ms/ICD':>8}")
    per = {}
    for n in sizes:
        d = opencl_tree(root, fake, n)
        e = dict(env, OCL_ICD_VENDORS=d)
        wall, cpu = timed([gd, "query", "--json", "--backend", "opencl"], e, args.runs, all_ok(n))
        per[n] = wall / n
        print(f"{n:6d} {wall:8.2f} {cpu:8.2f} {1000 * wall / n:8.2f}", flush=True)
        shutil.rmtree(d)
    big, small = max(sizes), min(sizes)
    print(f"linearity: time per ICD at {big} / at {small} = {per[big] / per[small]:.2f}"
          " (1.0 is linear)")
    ok = big < 2048 or per[big] * big < 3.0
    print(f"target: {big} ICDs under 3 s: {per[big] * big:.2f} s,"
          f" {'met' if ok else 'NOT met'} (ratio to the target {per[big] * big / 3.0:.2f})")
    return ok


def bench_vulkan(args, gd, root, env):
    if not (os.path.exists(LVP_JSON) and shutil.which("vulkaninfo")):
        print(f"skip Vulkan: needs {LVP_JSON} (mesa-vulkan-drivers) and vulkaninfo")
        return True
    lvp = json.load(open(LVP_JSON))["ICD"]["library_path"]
    ok = True
    print(f"Vulkan: `gpudoctor query --backend vulkan` vs `vulkaninfo --summary`"
          f" (median of {args.runs})")
    print(f"{'case':38} {'gpudoctor s':>11} {'cpu s':>6} {'vulkaninfo s':>12} {'cpu s':>6}"
          f" {'ratio':>6}")
    for case, count, distinct in (("manifests naming lavapipe", args.manifests, False),
                                  ("manifests naming copies of lavapipe", args.distinct, True)):
        if count <= 0:
            continue
        d = os.path.join(root, f"vk-{case[:9]}-{count}")
        os.makedirs(d)
        files = []
        for i in range(count):
            lib = lvp
            if distinct:
                lib = os.path.join(d, f"libvulkan_lvp{i}.so")
                shutil.copyfile(lvp, lib)
            path = os.path.join(d, f"lvp{i}.json")
            with open(path, "w") as f:
                json.dump({"file_format_version": "1.0.0",
                           "ICD": {"library_path": lib, "api_version": "1.1.230"}}, f)
            files.append(path)
        e = dict(env, VK_DRIVER_FILES=":".join(files))
        g, gc = timed([gd, "query", "--backend", "vulkan"], e, args.runs)
        v, vc = timed(["vulkaninfo", "--summary"], e, args.runs)
        print(f"{str(count) + ' ' + case:38} {g:11.2f} {gc:6.2f} {v:12.2f} {vc:6.2f}"
              f" {g / v:6.2f}", flush=True)
        if not distinct:
            ok = ok and g <= v
        shutil.rmtree(d)
    print(f"target: {args.manifests} manifests naming lavapipe no slower than vulkaninfo: "
          f"{'met' if ok else 'NOT met'} (the distinct copies: no target, the docstring says why)")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--build", default=os.path.join(here, "..", "build"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--icds", default="256,512,1024,2048")
    ap.add_argument("--manifests", type=int, default=128)
    ap.add_argument("--distinct", type=int, default=16)
    args = ap.parse_args()
    gd = os.path.join(args.build, "gpudoctor")
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")  # vulkaninfo complains loudly without it
    for v in ("OCL_ICD_FILENAMES", "VK_ADD_DRIVER_FILES", "VK_ICD_FILENAMES"):
        env.pop(v, None)
    print(f"{os.cpu_count()} CPUs; load average {load()}")
    with tempfile.TemporaryDirectory(prefix="gpudoctor-many-") as root:
        ok = bench_opencl(args, gd, root, env)
        print()
        ok = bench_vulkan(args, gd, root, env) and ok
    print(f"load average {load()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
