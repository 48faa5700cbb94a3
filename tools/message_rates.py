#!/usr/bin/env python3
"""How often `gpudoctor check --from` names the cause: on the examples of data/messages (the
tickets entries were written from) and on tests/fixtures/pastes/holdout (tickets set aside before
any entry was written, see its README). A paste counts as named when a warn or fail finding with
the expected id comes out (for an entry without a finding of its own: any warn or fail finding).

    tools/message_rates.py [path/to/gpudoctor]   (default: build/gpudoctor)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "gpudoctor")


def findings(path):
    out = subprocess.run([BIN, "check", "--from", path, "--json"], capture_output=True, text=True)
    try:
        doc = json.loads(out.stdout)
    except json.JSONDecodeError:
        return None
    return [(f["id"], f["severity"]) for f in doc.get("findings", [])]


def named(found, expect):
    if found is None:
        return False
    hits = [i for i, s in found if s in ("warn", "fail")]
    return bool(hits) if expect is None else expect in hits


def in_sample():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(glob.glob(os.path.join(ROOT, "data", "messages", "*.json"))):
            for e in json.load(open(f)).get("entries", []):
                expect = e["finding"]["id"] if "finding" in e else None
                for k, x in enumerate(e["examples"]):
                    p = os.path.join(tmp, "%s-%d.txt" % (e["id"], k))
                    open(p, "w").write(x["text"] + "\n")
                    rows.append((x["url"], e["id"], expect, named(findings(p), expect)))
    return rows


def holdout():
    rows = []
    readme = os.path.join(ROOT, "tests", "fixtures", "pastes", "holdout", "README.md")
    for line in open(readme):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        name, expect = cells[0].strip("`"), cells[3].strip("`")
        p = os.path.join(os.path.dirname(readme), name)
        rows.append((name, expect, named(findings(p), expect)))
    return rows


def main():
    ins = in_sample()
    hold = holdout()
    # One verdict per ticket: a thread with several examples counts once (named if any is).
    by_url = {}
    for url, _, _, ok in ins:
        by_url[url] = by_url.get(url, False) or ok
    print("| holdout paste | expected | named |")
    print("| --- | --- | --- |")
    for name, expect, ok in hold:
        print("| `%s` | `%s` | %s |" % (name, expect, "yes" if ok else "no"))
    n_in = sum(by_url.values())
    n_h = sum(ok for _, _, ok in hold)
    print()
    print("in-sample (entry examples, per ticket): %d/%d named" % (n_in, len(by_url)))
    print("holdout: %d/%d named" % (n_h, len(hold)))


if __name__ == "__main__":
    main()
