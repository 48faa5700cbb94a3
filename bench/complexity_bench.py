#!/usr/bin/env python3
"""Grows each count gpudoctor's work depends on ×10 three times and prints the time per unit and
the peak memory at each step: flat per-unit cost is the target, and a peak RSS under 3× the input.

    bench/complexity_bench.py [--gpudoctor build/gpudoctor] [--only NAME] [--steps 4]
                              [--dir /tmp/gpudoctor-complexity-bench] [--timeout 300]

Every input is real fixture content repeated (tests/fixtures/), changed only where a copy must
differ from the others to count (an address, a UUID, a package name):

- gpus-report: `check --from` a report of tests/fixtures/server-h100-torch-cu124 (eight H100s on
  PCI, NVML and the driver's files) whose PCI and NVML device lists are copied with new bus
  addresses and UUIDs: 16, 160, 1,600, 16,000 GPUs.
- gpus-paste: `check --from` an `nvidia-smi -q` paste (nvidia-docker-954-gtx1080.txt) with its
  GPU block repeated under new bus ids and UUIDs.
- diff: `diff` of two such reports (the second one's driver version changed).
- packages: `check --from` a pasted `pip list` (autogptq-598-ngc-pip-list.txt) whose rows are
  repeated with a copy number in each package's name: 300 … 300,000 packages.
- blank-lines: a pasted collect_env (pytorch-150733-rtx5090d-sm120.txt) followed by blank lines.
- log-lines: a kernel log paste (dalle-playground-104-api-mismatch-dmesg.txt) repeated: lines of
  messages that each name a finding.
- repeated-dumps: a pasted clinfo (deconwolf-75-amd-gfx1031.txt) repeated.
- summary: `summary --json` of a directory of copies of the H100 report, one node name each.

Each step runs once (after one warm-up run of the smallest step); the time is the child's wall
time, the memory its peak RSS (getrusage of that child, os.wait4, forked from a small launcher
process so that the inputs this script holds are not counted). A step that takes longer than
--timeout is reported as such and the series stops there.
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures")
PASTES = os.path.join(FIXTURES, "pastes")
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/home/user", "NO_COLOR": "1"}


def fixture_text(*parts):
    with open(os.path.join(PASTES, *parts), encoding="utf-8") as f:
        return f.read()


def h100_report(gpudoctor):
    r = subprocess.run([gpudoctor, "report", "--no-smoke", "--sysroot",
                        os.path.join(FIXTURES, "server-h100-torch-cu124")],
                       capture_output=True, text=True, env=dict(ENV, CONDA_PREFIX="/opt/conda"),
                       timeout=120)
    if r.returncode != 0:
        sys.exit("report of the H100 fixture failed: " + r.stderr)
    return json.loads(r.stdout)


def bus_id(i):
    """A distinct PCI address for copy i: domain, bus and device from its number."""
    return "%04x:%02x:%02x.0" % (i // 8192, i // 32 % 256, i % 32)


def many_gpus(report, n):
    """The report with n GPUs: its PCI GPUs and NVML devices copied under new addresses/UUIDs."""
    doc = copy.deepcopy(report)
    snap = doc["snapshot"]
    pci_gpus = [d for d in snap["pci"]["devices"] if d.get("vendor_id") == 0x10de]
    others = [d for d in snap["pci"]["devices"] if d.get("vendor_id") != 0x10de]
    nvml = (snap.get("nvml") or {}).get("devices") or []
    new_pci, new_nvml = [], []
    for i in range(n):
        p = dict(pci_gpus[i % len(pci_gpus)])
        p["address"] = bus_id(i)
        new_pci.append(p)
        if nvml:
            d = dict(nvml[i % len(nvml)])
            d["index"] = i
            d["pci_bus_id"] = "0000" + bus_id(i).upper()
            d["uuid"] = "GPU-%08x-0000-0000-0000-%012x" % (i, i)
            new_nvml.append(d)
    snap["pci"]["devices"] = others + new_pci
    if nvml:
        snap["nvml"]["devices"] = new_nvml
    return doc


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def nvidia_smi_q_paste(n):
    text = fixture_text("nvidia-smi-q", "nvidia-docker-954-gtx1080.txt")
    head, _, rest = text.partition("GPU 00000000:01:00.0\n")
    block, fence, tail = rest.rpartition("```")
    blocks = []
    for i in range(n):
        b = ("GPU 0000" + bus_id(i).upper() + "\n" + block).replace(
            "GPU-0200523e-f473-3a45-9b4a-fbbe0e41ccf8", "GPU-%08x-f473-3a45-9b4a-%012x" % (i, i))
        blocks.append(b)
    return head.replace("Attached GPUs                       : 1",
                        "Attached GPUs                       : %d" % n) + "".join(blocks) + fence + tail


def pip_list_paste(n):
    lines = fixture_text("packages", "autogptq-598-ngc-pip-list.txt").splitlines()
    header = [l for l in lines[:4]]
    rows = [l for l in lines[4:] if l.strip() and not l.startswith("`")]
    out = list(header)
    for i in range(n):
        name, _, version = rows[i % len(rows)].partition(" ")
        copy_no = i // len(rows)
        out.append("%s %s" % (name + ("-c%d" % copy_no if copy_no else ""), version.strip()))
    return "\n".join(out) + "\n```\n"


def series(args, work):
    """name → (unit, sizes, make(directory, size) → (argv, input bytes))."""
    report = None

    def need_report():
        nonlocal report
        if report is None:
            report = h100_report(args.gpudoctor)
        return report

    def gpus_report(d, n):
        path = write(d, "gpus-%d.json" % n, json.dumps(many_gpus(need_report(), n)))
        return [args.gpudoctor, "check", "--from", path], os.path.getsize(path)

    def diff(d, n):
        a = many_gpus(need_report(), n)
        b = copy.deepcopy(a)
        for dev in b["snapshot"]["nvml"]["devices"] if b["snapshot"].get("nvml") else []:
            dev["name"] = (dev.get("name") or "") + " (B)"
        pa = write(d, "diff-a-%d.json" % n, json.dumps(a))
        pb = write(d, "diff-b-%d.json" % n, json.dumps(b))
        return [args.gpudoctor, "diff", pa, pb], os.path.getsize(pa) + os.path.getsize(pb)

    def paste(name, text_of):
        def make(d, n):
            path = write(d, "%s-%d.txt" % (name, n), text_of(n))
            return [args.gpudoctor, "check", "--from", path], os.path.getsize(path)
        return make

    def summary(d, n):
        base = need_report()
        sub = os.path.join(d, "summary-%d" % n)
        os.makedirs(sub, exist_ok=True)
        total = 0
        for i in range(n):
            doc = copy.deepcopy(base)
            node = "gpu-r%03d-n%02d" % (i // 16, i % 16)
            doc["node"] = {"name": node, "source": "SLURMD_NODENAME"}
            doc["brief"]["node"] = node
            text = json.dumps(doc)
            total += len(text)
            write(sub, node + ".json", text)
        return [args.gpudoctor, "summary", "--json", sub], total

    collect_env = fixture_text("collect_env", "pytorch-150733-rtx5090d-sm120.txt")
    dmesg = fixture_text("kernel", "dalle-playground-104-api-mismatch-dmesg.txt")
    clinfo = fixture_text("clinfo", "deconwolf-75-amd-gfx1031.txt")
    all_series = {
        "gpus-report": ("GPU", [16, 160, 1600, 16000], gpus_report),
        "gpus-paste": ("GPU", [16, 160, 1600, 16000], paste("gpus-paste", nvidia_smi_q_paste)),
        "diff": ("GPU", [16, 160, 1600, 16000], diff),
        "packages": ("package", [300, 3000, 30000, 300000], paste("packages", pip_list_paste)),
        "blank-lines": ("line", [40000, 400000, 4000000, 40000000],
                        paste("blank", lambda n: collect_env + "\n" * n)),
        "log-lines": ("copy", [10, 100, 1000, 10000], paste("log", lambda n: dmesg * n)),
        "repeated-dumps": ("copy", [10, 100, 1000, 10000], paste("clinfo", lambda n: clinfo * n)),
        "summary": ("report", [3, 30, 300, 3000], summary),
    }
    return {k: v for k, v in all_series.items() if not args.only or k in args.only}


# Each command runs as a child of a small launcher started before any input is built: Linux
# counts in a child's ru_maxrss the memory of the process it was forked from, and this script
# holds the inputs (hundreds of MB at the last steps), which made every later peak look like its
# own. The launcher is a bare Python (about 10 MB): the floor of the "peak MB" column.
LAUNCHER = r"""
import json, os, subprocess, sys, time
for line in sys.stdin:
    req = json.loads(line)
    t = time.perf_counter()
    p = subprocess.Popen(req["argv"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env=req["env"])
    deadline = t + req["timeout"]
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            out = [time.perf_counter() - t, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)]
            break
        if time.perf_counter() > deadline:
            p.kill()
            _, _, usage = os.wait4(p.pid, 0)
            out = [None, usage.ru_maxrss * 1024, None]
            break
        time.sleep(0.005)
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""
_launcher = None


def start_launcher():
    global _launcher
    _launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)


def run(argv, timeout):
    """(wall s, peak RSS bytes, exit status) of one child; None for the time past the timeout."""
    _launcher.stdin.write(json.dumps({"argv": argv, "timeout": timeout, "env": ENV}) + "\n")
    _launcher.stdin.flush()
    wall, rss, status = json.loads(_launcher.stdout.readline())
    return wall, rss, status


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpudoctor", default=os.path.join(HERE, "..", "build", "gpudoctor"))
    ap.add_argument("--only", nargs="*", help="series to run (default: all)")
    ap.add_argument("--steps", type=int, default=4, help="sizes per series, each ×10 (max 4)")
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(),
                                                  "gpudoctor-complexity-bench"))
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    start_launcher()
    args.gpudoctor = os.path.abspath(args.gpudoctor)
    os.makedirs(args.dir, exist_ok=True)

    print(f"{'series':15} {'count':>10} {'input MB':>9} {'wall s':>8} {'µs/unit':>9} "
          f"{'×prev':>6} {'peak MB':>8} {'RSS/input':>9} exit")
    worst = {}
    for name, (unit, sizes, make) in series(args, args.dir).items():
        previous = None
        for i, n in enumerate(sizes[:args.steps]):
            argv, size = make(args.dir, n)
            if i == 0:
                run(argv, args.timeout)  # warm-up: the binary and its tables into memory
            wall, rss, status = run(argv, args.timeout)
            if wall is None:
                print(f"{name:15} {n:>10} {size / 1e6:9.2f} {'>' + str(int(args.timeout)):>8} "
                      f"{'':>9} {'':>6} {rss / 1e6:8.1f} {'':>9} killed")
                worst[name] = float("inf")
                break
            per = wall / n * 1e6
            ratio = per / previous if previous else float("nan")
            print(f"{name:15} {n:>10} {size / 1e6:9.2f} {wall:8.2f} {per:9.2f} "
                  f"{ratio:6.2f} {rss / 1e6:8.1f} {rss / size:9.2f} {status}")
            if previous:
                worst[name] = max(worst.get(name, 0), ratio)
            previous = per
            for f in argv[2:]:
                if f.startswith(args.dir) and os.path.isfile(f) and n == sizes[args.steps - 1]:
                    os.unlink(f)
    print("\nthe largest growth of the per-unit time from one step to the next (flat: ~1, "
          "linear work; 10: quadratic):")
    for name, r in worst.items():
        print(f"  {name:15} {r:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
