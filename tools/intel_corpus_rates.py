#!/usr/bin/env python3
"""Rates of the Intel corpus (tests/fixtures/intel-corpus.md): each machine and paste run through
the built gpudoctor (`check --json --no-smoke`, machines with the environment of their
replay.txt's first line), scored as the corpus has always been scored (docs/intel.md): a case
with a cause counts as named when its expected finding id is among the findings (any
severity but info), a healthy case when no finding is warn or fail.

    tools/intel_corpus_rates.py [--binary build/gpudoctor]
"""
import argparse, json, os, re, subprocess, sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(REPO, "tests", "fixtures")

# The first round's tables name causes in words; their expected ids (as tests/replay/intel_test.cpp
# asserts them; None: healthy).
FIRST = {
    "intel-arc-a770-ssh-not-in-render": ["intel.not_in_render_group"],
    "intel-bmg-g21-kernel-68-no-driver": ["intel.kernel_too_old"],
    "intel-xeonw-igpu-no-level-zero": ["intel.level_zero_missing", "intel.compute_runtime_missing"],
    "intel-adl-ipex-111-cpu-only": ["python.ipex_cpu_only"],
    "intel-a770-kernel-pre-62": ["intel.kernel_too_old"],
    "intel-b580-xe-611-healthy": None,
    "compute-runtime-477-sycl-ls-no-level-zero.txt": ["intel.level_zero_missing"],
    "torch-xpu-ops-2024-collect-env-max1100.txt": None,
    "pytorch-147226-xpu-init-failed.txt": ["python.torch_xpu_init"],
    "i915-backports-41-guc-missing.txt": ["gpu.firmware_missing"],
    "ipex-244-xpu-not-linked.txt": ["python.torch_no_xpu"],
    "ramalama-1585-iris-xe-vulkan-sycl-healthy.txt": None,
    "llama-cpp-sycl-doc-a770-healthy.txt": None,
    "xpumanager-smi-guide-discovery-healthy.txt": None,
    "compute-runtime-764-sycl-ls-opencl-gpu-only.txt": ["intel.level_zero_missing"],
    "ipex-364-xpu-device-properties-healthy.txt": None,
}


def rows():
    """(kind, name, holdout, expected ids or None for healthy) from the corpus's tables."""
    text = open(os.path.join(FIX, "intel-corpus.md")).read()
    out = []
    kind, holdout = None, False
    for line in text.splitlines():
        if line.startswith("### Results"):
            kind = None
            continue
        if line.startswith("## Machines") or line.startswith("### Machines"):
            kind, holdout = "machine", False
        elif line.startswith("## Pastes") or line.startswith("### Pastes"):
            kind, holdout = "paste", False
        elif line.strip() == "### holdout":
            holdout = True
        if not line.startswith("|") or kind is None:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names = re.findall(r"`([^`]+)`", line)
        if not names or cells[0] in ("tree", "file", "#") or set(cells[0]) <= set("- "):
            continue
        name = names[0]
        h = holdout or "HOLDOUT" in line
        ids = [c for c in re.findall(r"`([a-z_]+\.[a-z_]+)`", cells[-1])] if len(cells) >= 5 else None
        healthy = "healthy" in line.lower() and not ids
        if name in FIRST:
            ids, healthy = FIRST[name], FIRST[name] is None
        out.append((kind, name, h, None if healthy else ids))
    return out

def run(binary, kind, name):
    if kind == "machine":
        d = os.path.join(FIX, name)
        env = dict(os.environ)
        rp = os.path.join(d, "replay.txt")
        if os.path.exists(rp):
            for l in open(rp):
                if l.strip() and not l.startswith("#"):
                    for w in l.split():
                        if "=" in w: k, v = w.split("=", 1); env[k] = v
                    break
        args = [binary, "check", "--json", "--no-smoke", "--sysroot", d]
    else:
        env = dict(os.environ)
        args = [binary, "check", "--json", "--no-smoke", "--from", os.path.join(FIX, "pastes", "intel", name)]
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    try:
        return json.loads(r.stdout).get("findings", [])
    except json.JSONDecodeError:
        return None

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(REPO, "build", "gpudoctor"))
    a = ap.parse_args()
    tally = {}
    for kind, name, holdout, ids in rows():
        if kind == "paste" and holdout and not name.startswith("holdout/"):
            path = os.path.join(FIX, "pastes", "intel", "holdout", name)
            if os.path.exists(path): name = "holdout/" + name
        f = run(a.binary, kind, name)
        if f is None:
            verdict = "unreadable"
        elif ids is None:
            bad = sorted({x["id"] for x in f if x["severity"] in ("warn", "fail")})
            verdict = "ok" if not bad else "false-alarm " + ",".join(bad)
        else:
            got = {x["id"] for x in f if x["severity"] != "info"}
            verdict = "named" if any(i in got for i in ids) else "missed (" + ",".join(sorted(got)) + ")"
        key = (kind, "holdout" if holdout else "two-thirds")
        t = tally.setdefault(key, [0, 0])
        t[1] += 1
        t[0] += verdict in ("named", "ok")
        print(f"{kind:8} {'H' if holdout else ' '} {name:55} {verdict}")
    for (kind, part), (good, n) in sorted(tally.items()):
        print(f"{kind} {part}: {good}/{n}")

if __name__ == "__main__":
    main()
