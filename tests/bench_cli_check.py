#!/usr/bin/env python3
"""`gpudoctor bench` end to end on this machine with tiny sizes (a ctest, see CMakeLists.txt).

    bench_cli_check.py GPUDOCTOR docs/bench.md

Checks that `bench --json` has every field docs/bench.md documents, that `--plot` writes
well-formed SVG (parsed as XML here) with exactly one series per benchmarked device, that the
plot is the only file written, and that the run takes seconds.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def documented_fields(doc_path):
    """(path, subkeys) per row of the JSON table: `results[].series.points[].n` and the
    backticked keys its meaning lists for an object."""
    rows = []
    with open(doc_path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\| (`[^|]+`) \| (.*) \|$", line.strip())
            if not m:
                continue
            keys = re.findall(r"`([a-z_]+)`", m.group(2))
            for path in re.findall(r"`([^`]+)`", m.group(1)):
                rows.append((path, keys))
    return rows


def values_at(doc, path):
    """Every value at a dotted path, `[]` meaning each element; a missing key raises KeyError."""
    values = [doc]
    for part in path.split("."):
        each = part.endswith("[]")
        key = part[:-2] if each else part
        nxt = []
        for v in values:
            if v is None:
                continue
            if key not in v:
                raise KeyError(f"{path}: no '{key}' in {sorted(v)}")
            item = v[key]
            nxt.extend(item if each else [item])
        values = nxt
    return values


def check_json(doc, doc_path):
    for path, keys in documented_fields(doc_path):
        values = values_at(doc, path)
        for v in values:
            objects = v if isinstance(v, list) else [v]
            for o in objects:
                if isinstance(o, dict):
                    missing = [k for k in keys if k not in o]
                    assert not missing, f"{path}: documented keys missing: {missing}"
    apis = [r["series"]["api"] for r in doc["results"]]
    assert apis and apis[0] == "blas", f"the CPU BLAS comes first: {apis}"
    assert doc["sizes"] == [16, 32], doc["sizes"]
    cpu = doc["results"][0]["series"]["points"]
    assert [p["n"] for p in cpu] == [16, 32] and all(p["gflops"] > 0 for p in cpu), cpu


def check_svg(path, doc):
    root = ET.parse(path).getroot()  # raises on malformed XML
    assert root.tag == SVG + "svg", root.tag
    series = [g for g in root.iter(SVG + "g") if g.get("class") == "series"]
    measured = [r for r in doc["results"]
                if any(p.get("gflops") for p in r["series"]["points"])]
    assert len(series) == len(measured), f"{len(series)} series for {len(measured)} devices"
    for g, r in zip(series, measured):
        assert g.get("data-device") == r["series"]["device"], (g.get("data-device"), r)
        assert g.find(SVG + "polyline") is not None
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    for label in ("matrix size n", "GFLOPS", "16", "32"):
        assert label in texts, f"no '{label}' on the axes"


# The shell's choices of drivers and devices (as the gtest binary unsets them, test_support.cpp):
# this machine's own PoCL and lavapipe must be what the bench finds.
SHELL_CHOICES = ("VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES",
                 "VK_LOADER_DRIVERS_SELECT", "VK_LOADER_DRIVERS_DISABLE", "OCL_ICD_FILENAMES",
                 "OCL_ICD_VENDORS", "OPENCL_VENDOR_PATH", "CUDA_VISIBLE_DEVICES",
                 "LD_LIBRARY_PATH")


def main():
    gpudoctor, doc_path = sys.argv[1], sys.argv[2]
    env = {k: v for k, v in os.environ.items() if k not in SHELL_CHOICES}
    with tempfile.TemporaryDirectory() as tmp:
        plot = os.path.join(tmp, "plot.svg")
        start = time.monotonic()
        run = subprocess.run([gpudoctor, "bench", "--sizes", "32,16,32", "--json", "--plot", plot],
                             capture_output=True, text=True, timeout=120, env=env)
        seconds = time.monotonic() - start
        assert run.returncode == 0, f"exit {run.returncode}: {run.stderr}{run.stdout[-2000:]}"
        assert run.stderr == "", f"progress only on a terminal, got: {run.stderr!r}"
        doc = json.loads(run.stdout)
        check_json(doc, doc_path)
        check_svg(plot, doc)
        assert os.listdir(tmp) == ["plot.svg"], os.listdir(tmp)
        assert seconds < 30, f"took {seconds:.1f} s"
    print(f"ok: {len(doc['results'])} series in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
