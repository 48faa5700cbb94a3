#!/usr/bin/env python3
"""How long gpudoctor takes to read the GPU targets of a 1 GB+ CUDA library, side by side with
cuobjdump --list-elf on the same file.

It writes a shared library shaped like torch 2.5.1's libtorch_cuda.so (read from the PyPI
wheel: 340 fatbinary containers, 7 cubins each, ~900 MB): an ELF file whose .nv_fatbin holds
containers of sm_50 … sm_90 cubins with payloads of random size, 1.1 GB in all. It puts it in a
--sysroot tree as a venv's torch/lib/libtorch_cuda.so and times

  gpudoctor query --json --backend python --sysroot TREE

with that library, and with a one-container library in its place: the difference is the cost of
walking the big file's headers. Each is run warm (the file in the page cache) and cold (the file
evicted with posix_fadvise(DONTNEED) before each run; nothing else on the machine is touched).

  bench/gpu_code_bench.py build/gpudoctor [--size-mb 1100] [--runs 5] [--cuobjdump PATH]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ARCHS = [50, 60, 70, 75, 80, 86, 90]


def container(rng, payload_mean):
    """One fatbinary container: a 16-byte header and one 64-byte entry header per arch."""
    entries = []
    for arch in ARCHS:
        size = max(64, int(rng.expovariate(1 / payload_mean))) // 8 * 8
        header = struct.pack("<HHIQIIHHIIIQQQ", 2, 0x101, 64, size, 0, 0, 8, 1, arch, 0, 0,
                             0x11, 0, 0)
        entries.append((header, size))
    body = sum(64 + size for _, size in entries)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, body), entries


def write_library(path, size_bytes, seed=1):
    """An ELF64 file: header, .nv_fatbin (the containers), .shstrtab, the section table."""
    rng = random.Random(seed)
    payload_mean = 900 * 1024 * 1024 / (340 * len(ARCHS))  # torch 2.5.1's average cubin
    filler = os.urandom(1 << 20)
    with open(path, "wb") as f:
        f.write(b"\0" * 64)
        start = f.tell()
        containers = 0
        while f.tell() - start < size_bytes:
            head, entries = container(rng, payload_mean)
            f.write(head)
            for header, size in entries:
                f.write(header)
                left = size
                while left > 0:  # real bytes, so a cold read really goes to the disk
                    n = min(left, len(filler))
                    f.write(filler[:n])
                    left -= n
            containers += 1
        section_size = f.tell() - start
        names = b"\0.nv_fatbin\0.shstrtab\0"
        names_at = f.tell()
        f.write(names)
        while f.tell() % 8:
            f.write(b"\0")
        shoff = f.tell()
        f.write(b"\0" * 64)  # the null section
        f.write(struct.pack("<IIQQQQIIQQ", 1, 1, 2, 0, start, section_size, 0, 0, 8, 0))
        f.write(struct.pack("<IIQQQQIIQQ", 12, 3, 0, 0, names_at, len(names), 0, 0, 1, 0))
        f.seek(0)
        f.write(b"\x7fELF\x02\x01\x01" + b"\0" * 9)
        f.write(struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2))
    return containers


def make_tree(root, library):
    site = os.path.join(root, "home/u/venv/lib/python3.11/site-packages")
    os.makedirs(os.path.join(site, "torch/lib"), exist_ok=True)
    os.makedirs(os.path.join(site, "torch-2.5.1.dist-info"), exist_ok=True)
    with open(os.path.join(root, "home/u/venv/pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\nversion = 3.11.9\n")
    with open(os.path.join(site, "torch-2.5.1.dist-info/METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1\n")
    with open(os.path.join(site, "torch/version.py"), "w") as f:
        f.write("__version__ = '2.5.1+cu124'\ncuda = '12.4'\nhip = None\n")
    target = os.path.join(site, "torch/lib/libtorch_cuda.so")
    if os.path.lexists(target):
        os.remove(target)
    os.link(library, target)  # same file system: no second gigabyte written
    return target


def evict(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def timed(cmd, env, evict_path=None):
    if evict_path:
        evict(evict_path)
    t = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if out.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr[-500:]}")
    return elapsed, out.stdout


def median_ms(samples):
    return statistics.median(samples) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpudoctor")
    ap.add_argument("--size-mb", type=int, default=1100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cuobjdump", default=shutil.which("cuobjdump"))
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="gpudoctor-gpu-code-bench-")
    try:
        big = os.path.join(work, "big.so")
        small = os.path.join(work, "small.so")
        n = write_library(big, args.size_mb << 20)
        write_library(small, 1)
        print(f"library: {os.path.getsize(big) / 2**30:.2f} GiB, {n} containers, "
              f"{n * len(ARCHS)} cubins")
        env = {"PATH": "/usr/bin:/bin", "VIRTUAL_ENV": "/home/u/venv", "HOME": "/home/u"}
        results = {}
        for name, lib in (("small", small), ("big", big)):
            tree = os.path.join(work, "tree-" + name)
            target = make_tree(tree, lib)
            cmd = [args.gpudoctor, "query", "--json", "--backend", "python", "--sysroot", tree]
            _, out = timed(cmd, env)
            pkg = json.loads(out)["python"]["envs"][0]["packages"][0]
            sass = pkg["gpu_code"][0]["sass"]
            assert sass == [f"sm_{a}" for a in ARCHS], sass
            results[name] = {
                "warm": [timed(cmd, env)[0] for _ in range(args.runs)],
                "cold": [timed(cmd, env, target)[0] for _ in range(args.runs)],
            }
        for mode in ("warm", "cold"):
            big_ms = median_ms(results["big"][mode])
            small_ms = median_ms(results["small"][mode])
            print(f"{mode}: gpudoctor query --backend python: {big_ms:.1f} ms with the "
                  f"{args.size_mb} MB library, {small_ms:.1f} ms with a one-container one: "
                  f"reading the big one's headers costs {big_ms - small_ms:.1f} ms "
                  f"(median of {args.runs})")
        if args.cuobjdump:
            warm = [timed([args.cuobjdump, "--list-elf", big], env)[0] for _ in range(args.runs)]
            ours = median_ms(results["big"]["warm"]) - median_ms(results["small"]["warm"])
            print(f"warm: cuobjdump --list-elf on the same file: {median_ms(warm):.1f} ms "
                  f"({median_ms(warm) / max(ours, 0.1):.0f}x gpudoctor's header walk)")
        else:
            print("cuobjdump not found (pip install nvidia-cuda-cuobjdump): no side-by-side run")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
