#!/usr/bin/env python3
"""Validates real `gpudoctor report` output against schema/report.schema.json.

Reports: this machine (live, redacted and --no-redact) and every fixture machine under
tests/fixtures replayed with --sysroot. Each report must also be accepted by
`gpudoctor check --from`. Needs python3-jsonschema (Debian package).

usage: validate_report_schema.py GPUDOCTOR SCHEMA FIXTURES_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def reports(fixtures):
    """(name, arguments) of every report to check."""
    yield "live", ["report"]
    yield "live --no-redact", ["report", "--no-redact", "--no-smoke"]
    for name in sorted(os.listdir(fixtures)):
        tree = os.path.join(fixtures, name)
        # A fixture machine is a directory with a README naming its source; tools/ is not one.
        if os.path.isfile(os.path.join(tree, "README.md")):
            yield name, ["report", "--sysroot", tree]


def main():
    gpudoctor, schema_path, fixtures = sys.argv[1:4]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in reports(fixtures):
            out = os.path.join(tmp, "report.json")
            r = run([gpudoctor] + args + ["-o", out])
            if r.returncode != 0:
                print(f"FAIL {name}: exit {r.returncode}: {r.stderr.strip()}")
                failures += 1
                continue
            with open(out) as f:
                report = json.load(f)
            errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
            for e in errors[:5]:
                print(f"FAIL {name}: {'/'.join(map(str, e.path))}: {e.message[:300]}")
            back = run([gpudoctor, "check", "--json", "--from", out])
            if back.returncode not in (0, 1):
                print(f"FAIL {name}: check --from refused it: {back.stderr.strip()}")
                failures += 1
            failures += bool(errors)
            checked += 1
    print(f"{checked} reports validated, {failures} failed")
    return 1 if failures or checked < 3 else 0


if __name__ == "__main__":
    sys.exit(main())
