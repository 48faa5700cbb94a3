#!/usr/bin/env python3
"""Validates real `gpudoctor report` output against schema/report.schema.json.

Reports: this machine (live, redacted and --no-redact), every fixture machine under
tests/fixtures replayed with --sysroot, and the ROCm and macOS fixtures again with the
variables their scenario tests set. Each report must also be accepted by
`gpudoctor check --from`. Then the schema must reject copies of those reports with one value of
the wrong type, so that the ROCm and macOS definitions are known to be exercised.
Reports made through the real Level Zero loader (libze1) with the fake drivers of
tests/fakes/level_zero (FAKES_DIR, where they were built) are validated too, with wrong copies
of their level_zero section.
Needs python3-jsonschema (Debian package).

usage: validate_report_schema.py GPUDOCTOR SCHEMA FIXTURES_DIR [FAKES_DIR]
"""
import concurrent.futures
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


# Fixtures replayed once more with the variables that fill the rest of their section
# (tests/rocm_scenarios_test.cpp and tests/macos_scenarios_test.cpp set the same ones).
VARIANTS = {
    "rocm-rx7600xt-gfx1102": {"HSA_OVERRIDE_GFX_VERSION": "11.0.0", "ROCM_PATH": "/opt/rocm",
                              "ROCR_VISIBLE_DEVICES": "0", "HIP_VISIBLE_DEVICES": "0"},
    "mac-highsierra-gtx750ti-cuda": {"DYLD_LIBRARY_PATH": "/usr/local/cuda/lib",
                                     "SYSTEM_VERSION_COMPAT": "1"},
    "mac-m1-miniforge-tf-metal": {"HOME": "/Users/dev"},
}

# (report, path, a value of the wrong type there): the schema must refuse each.
MUTANTS = [
    ("rocm-rx6700xt-gfx1031", ("snapshot", "rocm", "nodes", 0, "compute_units"), "40"),
    ("rocm-rx6700xt-gfx1031", ("snapshot", "rocm", "nodes", 0, "gfx_target"), 1031),
    ("rocm-rx6700xt-gfx1031", ("snapshot", "devices", 0, "kfd", 0, "vendor_id"), 0x11002),
    ("rocm-rx6700xt-gfx1031", ("snapshot", "rocm", "hip"),
     {"load_errors": [], "devices": [{"ordinal": "0"}]}),
    ("rocm-desktop-not-in-render",
     ("snapshot", "host", "access", "account", "device_groups", 0, "in_process"), None),
    ("rocm-desktop-not-in-render",
     ("snapshot", "host", "access", "device_nodes", 0, "path"), 128),
    ("rocm-rx7600xt-gfx1102", ("snapshot", "rocm", "installs", 0, "default_link"), "yes"),
    ("rocm-rx7600xt-gfx1102", ("snapshot", "rocm", "amdgpu_module"), "unloaded"),
    ("mac-egpu-rx5700xt-plaidml", ("snapshot", "macos", "gpus", 0, "vram_bytes"), "8 GB"),
    ("mac-egpu-rx5700xt-plaidml", ("snapshot", "devices", 0, "macos", "pcie_lane_width"), "x4"),
    ("mac-m1pro-torch-mps", ("snapshot", "macos", "arm64"), 1),
    ("mac-m1pro-torch-mps", ("snapshot", "macos", "sources"), None),
    # The live state's amdgpu figures (tests/fixtures/live-amdgpu-vram-79pct).
    ("live-amdgpu-vram-79pct", ("snapshot", "live_state", "gpus", 0, "memory_used_bytes"),
     "6812925952"),
    ("live-amdgpu-vram-79pct", ("snapshot", "live_state", "gpus", 0, "utilization_gpu_percent"),
     250),
    ("live-amdgpu-vram-79pct", ("snapshot", "live_state", "gpus", 0, "processes"), [{"pid": 1}]),
]

# Level Zero through the real loader and the fake drivers: (name, driver directories under
# FAKES_DIR/level_zero, joined into ZE_ENABLE_ALT_DRIVERS).
LEVEL_ZERO = [
    ("level_zero max 1550", ["max"]),
    ("level_zero arc wrong result and a crash", ["wrong-result", "init-crash"]),
]
LEVEL_ZERO_MUTANTS = [
    ("level_zero max 1550", ("snapshot", "level_zero", "tiles", 0, "parent"), "0"),
    ("level_zero max 1550", ("snapshot", "level_zero", "devices", 0, "uuid"), "GPU-0"),
    ("level_zero max 1550", ("snapshot", "devices", 0, "level_zero", 0, "eu_count"), "1024"),
    ("level_zero max 1550", ("snapshot", "level_zero", "drivers", 0, "driver_version"), 17000065),
    ("level_zero arc wrong result and a crash", ("snapshot", "level_zero", "smoke", 0, "n"), "256"),
]


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, **(env or {})))


def level_zero_reports(fakes):
    """The Level Zero reports that can be made here: the fake drivers were built and the loader
    is installed."""
    lz = os.path.join(fakes or "", "level_zero")
    loader = any(os.path.exists(os.path.join(d, "libze_loader.so.1"))
                 for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib",
                           "/usr/lib/aarch64-linux-gnu"))
    if not fakes or not loader or not os.path.isdir(os.path.join(lz, "max")):
        return
    for name, dirs in LEVEL_ZERO:
        drivers = ",".join(os.path.join(lz, d, "libze_intel_gpu.so.1") for d in dirs)
        yield name, ["report", "--backend", "pci,level_zero", "--timeout", "5"], \
            {"ZE_ENABLE_ALT_DRIVERS": drivers}


def reports(fixtures, fakes=None):
    """(name, arguments, extra environment) of every report to check."""
    yield "live", ["report"], {}
    yield from level_zero_reports(fakes)
    yield "live --no-redact", ["report", "--no-redact", "--no-smoke"], {}
    for name in sorted(os.listdir(fixtures)):
        tree = os.path.join(fixtures, name)
        # A fixture machine is a directory with a README naming its source; tools/ is not one.
        if os.path.isfile(os.path.join(tree, "README.md")):
            yield name, ["report", "--sysroot", tree], {}
            if name in VARIANTS:
                yield name + " with variables", ["report", "--sysroot", tree], VARIANTS[name]


def set_at(document, path, value):
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value


def refused_mutants(validator, made, mutants=MUTANTS):
    """How many of `mutants` the schema wrongly accepts; each is named."""
    accepted = 0
    for name, path, value in mutants:
        if name not in made:
            print(f"FAIL mutant {name}: no such report")
            accepted += 1
            continue
        mutant = copy.deepcopy(made[name])
        set_at(mutant, path, value)
        if validator.is_valid(mutant):
            print(f"FAIL mutant {name}: {'/'.join(map(str, path))} = {value!r} was accepted")
            accepted += 1
    return accepted


def main():
    gpudoctor, schema_path, fixtures = sys.argv[1:4]
    fakes = sys.argv[4] if len(sys.argv) > 4 else None
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    # `report --brief` writes the report's "brief" record alone.
    brief_validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/brief",
                                                       "$defs": schema["$defs"]})
    failures = 0
    checked = 0
    made = {}
    with tempfile.TemporaryDirectory() as tmp:
        jobs = list(reports(fixtures, fakes))

        def make(index):
            """The report, its check --from and its --brief run for job `index` (subprocesses
            only: validation stays in the main thread, in order)."""
            name, args, env = jobs[index]
            out = os.path.join(tmp, f"report-{index}.json")
            r = run([gpudoctor] + args + ["-o", out], env)
            if r.returncode != 0:
                return r, None, None, None
            with open(out) as f:
                report = json.load(f)
            back = run([gpudoctor, "check", "--json", "--from", out])
            brief = run([gpudoctor] + args + ["--brief"], env)
            return r, report, back, brief

        # The runs are independent: as many at once as there are processors (each report is a
        # whole gpudoctor run; under the sanitizers one takes seconds).
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(make, range(len(jobs))))
        for (name, args, env), (r, report, back, brief) in zip(jobs, results):
            if report is None:
                print(f"FAIL {name}: exit {r.returncode}: {r.stderr.strip()}")
                failures += 1
                continue
            made[name] = report
            errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
            for e in errors[:5]:
                print(f"FAIL {name}: {'/'.join(map(str, e.path))}: {e.message[:300]}")
            if back.returncode not in (0, 1):
                print(f"FAIL {name}: check --from refused it: {back.stderr.strip()}")
                failures += 1
            failures += bool(errors)
            checked += 1
            brief_errors = list(brief_validator.iter_errors(json.loads(brief.stdout or "null")))
            for e in brief_errors[:5]:
                print(f"FAIL {name} --brief: {'/'.join(map(str, e.path))}: {e.message[:300]}")
            failures += bool(brief_errors) or brief.returncode != 0
    failures += refused_mutants(validator, made)
    tried = len(MUTANTS)
    if any(name.startswith("level_zero") for name in made):
        failures += refused_mutants(validator, made, LEVEL_ZERO_MUTANTS)
        tried += len(LEVEL_ZERO_MUTANTS)
    print(f"{checked} reports validated, {tried} wrong copies tried, {failures} failed")
    return 1 if failures or checked < 3 else 0


if __name__ == "__main__":
    sys.exit(main())
