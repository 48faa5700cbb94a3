#!/usr/bin/env python3
"""Times `gpudoctor bench`'s matmul kernels against the libraries people use, side by side.

    bench/matmul_bench.py [--sizes 1024,2048] [--gpudoctor build/gpudoctor] [--runs 3]

- OpenCL: gpudoctor's matmul on PoCL against CLBlast's SGEMM on the same device
  (bench/clblast_sgemm.c, built here with cc against libclblast-dev; best of --runs after a
  warm-up). Target: ours at least as fast as CLBlast at every size. gpudoctor's own CLBlast
  series (issue 18 §2) is set against the same standalone program: it should be about 1×.
- Vulkan: gpudoctor's matmul on lavapipe, next to the CPU BLAS (OpenBLAS) and PoCL figures.
- CUDA, on a machine with an NVIDIA GPU: gpudoctor's PTX matmul against cuBLAS SGEMM through
  PyTorch or CuPy, whichever is installed (a line says so when neither is, or no GPU is there).

GFLOPS = 2n³ / time everywhere. gpudoctor's own figures come from one `gpudoctor bench --json`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The target: our OpenCL matmul at least as fast as CLBlast's SGEMM on the same device.
# cuBLAS is shown next to ours with no target: a vendor BLAS tuned per GPU is the ceiling.
CLBLAST_TARGET = 1.0
POCL_PLATFORM = "Portable Computing Language"


def gflops(n, ms):
    return 2.0 * n ** 3 / (ms * 1e-3) / 1e9


def gpudoctor_figures(binary, sizes, backend=None, save=None):
    """{(api, device, blas): {n: GFLOPS}} from one bench run (blas: None for our kernels)."""
    # lavapipe needs minutes for n=2048 on a small machine: a generous per-driver deadline.
    cmd = [binary, "bench", "--json", "--timeout", "1800", "--sizes", ",".join(map(str, sizes))]
    if backend:
        cmd += ["--backend", backend]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"gpudoctor bench failed ({run.returncode}): {run.stderr}")
    if save:
        with open(save, "w") as f:
            f.write(run.stdout)
    doc = json.loads(run.stdout)
    out = {}
    for r in doc["results"]:
        s = r["series"]
        out[(s["api"], s["device"], s.get("blas"))] = {
            p["n"]: p["gflops"] for p in s["points"] if p["gflops"]}
    return out


def clblast_figures(sizes, runs):
    """{n: GFLOPS} of CLBlast SGEMM on PoCL, or a reason string."""
    if shutil.which("cc") is None:
        return "no C compiler (cc)"
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "clblast_sgemm")
        build = subprocess.run(["cc", "-O2", "-o", exe, os.path.join(HERE, "clblast_sgemm.c"),
                                "-lclblast", "-lOpenCL"], capture_output=True, text=True)
        if build.returncode != 0:
            return "cannot build against libclblast (install libclblast-dev): " + build.stderr[-300:]
        out = {}
        for n in sizes:
            run = subprocess.run([exe, str(n), POCL_PLATFORM, str(runs)], capture_output=True,
                                 text=True)
            if run.returncode != 0:
                return f"CLBlast at n={n}: {run.stderr.strip()}"
            out[n] = gflops(n, float(run.stdout))
        return out


def cublas_figures(sizes, runs, tf32=False):
    """{n: GFLOPS} of cuBLAS SGEMM through PyTorch or CuPy, or a reason string. tf32: let cuBLAS
    use TF32 tensor cores for the fp32 product (PyTorch's allow_tf32; off by default since 1.12)."""
    try:
        import torch
        if not torch.cuda.is_available():
            return "PyTorch sees no CUDA device"
        torch.backends.cuda.matmul.allow_tf32 = tf32
        out = {}
        for n in sizes:
            a = torch.rand(n, n, device="cuda")
            b = torch.rand(n, n, device="cuda")
            torch.matmul(a, b)
            best = None
            for _ in range(runs):
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                torch.matmul(a, b)
                end.record()
                torch.cuda.synchronize()
                ms = start.elapsed_time(end)
                best = ms if best is None else min(best, ms)
            out[n] = gflops(n, best)
        return out
    except ImportError:
        pass
    if tf32:
        return "TF32 is measured through PyTorch only"
    try:
        import cupy
        out = {}
        for n in sizes:
            a = cupy.random.rand(n, n, dtype=cupy.float32)
            b = cupy.random.rand(n, n, dtype=cupy.float32)
            a @ b
            best = None
            for _ in range(runs):
                start, end = cupy.cuda.Event(), cupy.cuda.Event()
                start.record()
                a @ b
                end.record()
                end.synchronize()
                ms = cupy.cuda.get_elapsed_time(start, end)
                best = ms if best is None else min(best, ms)
            out[n] = gflops(n, best)
        return out
    except ImportError:
        return "neither PyTorch nor CuPy is installed"


def row(name, figures, sizes):
    cells = "".join(f"{figures[n]:>12.3g}" if n in figures else f"{'—':>12}" for n in sizes)
    print(f"{name[:52]:52}{cells}")


def compare(label, ours, theirs, sizes, target=None):
    """Prints ours/theirs per size; True when every ratio meets `target` (None: no target)."""
    met = True
    for n in sizes:
        if n not in ours or n not in theirs:
            print(f"{label} n={n}: not measured")
            met = False
            continue
        ratio = ours[n] / theirs[n]
        met = met and (target is None or ratio >= target)
        print(f"{label} n={n}: {ours[n]:.3g} / {theirs[n]:.3g} GFLOPS = {ratio:.2f}x")
    if target is not None:
        print(f"target: {label} >= {target:.2f}x at every size: {'met' if met else 'NOT met'}")
    return met


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1024,2048")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--gpudoctor", default=os.path.join(HERE, "..", "build", "gpudoctor"))
    ap.add_argument("--backend", help="passed to gpudoctor bench (e.g. cuda)")
    ap.add_argument("--tf32-too", action="store_true",
                    help="also time torch.matmul with TF32 allowed, and compare with that too")
    ap.add_argument("--save-json", help="keep what gpudoctor bench --json wrote in this file")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    load = [os.getloadavg()[0]]
    ours = gpudoctor_figures(args.gpudoctor, sizes, args.backend, args.save_json)
    print(f"{'GFLOPS (fp32 matmul, 2n³/t)':52}" + "".join(f"{'n=' + str(n):>12}" for n in sizes))
    for (api, device, blas), figures in ours.items():
        row(f"gpudoctor {api}{' ' + blas if blas else ''}: {device}", figures, sizes)
    clblast = clblast_figures(sizes, args.runs)
    if isinstance(clblast, dict):
        row("CLBlast SGEMM on PoCL", clblast, sizes)
    load.append(os.getloadavg()[0])
    cuda = [f for (api, _, blas), f in ours.items() if api == "cuda" and not blas]
    cublas = cublas_figures(sizes, args.runs) if cuda else "no CUDA device in gpudoctor bench"
    if isinstance(cublas, dict):
        row("cuBLAS SGEMM (PyTorch/CuPy)", cublas, sizes)
    tf32 = cublas_figures(sizes, args.runs, tf32=True) if cuda and args.tf32_too else None
    if isinstance(tf32, dict):
        row("cuBLAS fp32 with TF32 (PyTorch)", tf32, sizes)
    print()

    ok = True
    pocl = [f for (api, _, blas), f in ours.items() if api == "opencl" and not blas]
    pocl_clblast = [f for (api, _, blas), f in ours.items() if api == "opencl" and blas]
    if not isinstance(clblast, dict):
        print(f"skip CLBlast: {clblast}")
    elif not pocl:
        print("skip CLBlast: gpudoctor benchmarked no OpenCL device")
        ok = False
    else:
        ok = compare("gpudoctor OpenCL / CLBlast on PoCL", pocl[0], clblast, sizes,
                     CLBLAST_TARGET) and ok
        if pocl_clblast:
            compare("gpudoctor's CLBlast series / standalone CLBlast", pocl_clblast[0], clblast,
                    sizes)
    if isinstance(cublas, dict):
        ok = compare("gpudoctor CUDA / cuBLAS", cuda[0], cublas, sizes) and ok
        cuda_cublas = [f for (api, _, blas), f in ours.items() if api == "cuda" and blas]
        if cuda_cublas:
            compare("gpudoctor's cuBLAS series / torch.matmul", cuda_cublas[0], cublas, sizes)
        if isinstance(tf32, dict):
            compare("gpudoctor CUDA / cuBLAS with TF32", cuda[0], tf32, sizes)
        elif tf32 is not None:
            print(f"skip TF32: {tf32}")
    else:
        print(f"skip cuBLAS: {cublas}")
    cpu = [f for (api, _, _), f in ours.items() if api == "blas"]
    vk = [f for (api, _, _), f in ours.items() if api == "vulkan"]
    for name, base in (("CPU BLAS", cpu), ("gpudoctor OpenCL on PoCL", pocl)):
        for n in sizes:
            if base and vk and n in base[0] and n in vk[0]:
                print(f"gpudoctor Vulkan / {name} n={n}: {vk[0][n] / base[0][n]:.3g}x")
    print(f"load average (1 min) before/after: {load[0]:.1f} / {load[-1]:.1f} on "
          f"{os.cpu_count()} CPUs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
