#!/usr/bin/env python3
"""How often `gpudoctor check --from` names the cause: on the examples of data/messages (the
tickets entries were written from) and on tests/fixtures/pastes/holdout (tickets set aside before
any entry was written, see its README). A paste counts as named when a warn or fail finding with
the expected id comes out (for an entry without a finding of its own: any warn or fail finding).

    tools/message_rates.py [path/to/gpudoctor]   (default: build/gpudoctor)
    tools/message_rates.py --corpus [path]        the pastes of tests/fixtures/pastes/messages
                                                  (in-sample and holdout apart, healthy ones too)
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
BIN = ARGS[0] if ARGS else os.path.join(ROOT, "build", "gpudoctor")


def findings(path):
    out = subprocess.run([BIN, "check", "--from", path, "--json"], capture_output=True, text=True)
    try:
        doc = json.loads(out.stdout)
    except json.JSONDecodeError:
        return None
    return [(f["id"], f["severity"]) for f in doc.get("findings", [])]


def named(found, expect):
    """expect: None (any warn/fail), a set of ids (any of them as warn/fail), or "healthy" (no
    warn/fail at all)."""
    if found is None:
        return False
    hits = [i for i, s in found if s in ("warn", "fail")]
    if expect == "healthy":
        return not hits
    if expect is None:
        return bool(hits)
    if isinstance(expect, str):
        expect = {expect}
    return any(i in expect for i in hits)


def corpus(readme):
    """The tables of a corpus README with "## In-sample" / "## Holdout" sections: rows
    (section, file, expected) where expected is a set of ids or "healthy" (—)."""
    rows, section = [], None
    for line in open(readme):
        if line.startswith("## "):
            section = line[3:].strip().lower()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if section is None or len(cells) != 4 or not cells[0].startswith("`"):
            continue
        exp = cells[3]
        expect = "healthy" if exp in ("—", "-") else {x.strip().strip("`") for x in exp.split(" or ")}
        rows.append((section, cells[0].strip("`"), expect))
    return rows


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


def corpus_rates():
    readme = os.path.join(ROOT, "tests", "fixtures", "pastes", "messages", "README.md")
    rows = []
    for section, name, expect in corpus(readme):
        found = findings(os.path.join(os.path.dirname(readme), name))
        ok = named(found, expect)
        got = sorted({i for i, s in (found or []) if s in ("warn", "fail")})
        rows.append((section, name, expect, ok, got, found is None))
    return rows


def print_corpus(rows):
    print("| set | paste | expected | verdict | warn/fail findings |")
    print("| --- | --- | --- | --- | --- |")
    for section, name, expect, ok, got, refused in rows:
        e = "healthy" if expect == "healthy" else " or ".join(sorted(expect))
        v = "refused" if refused else ("named" if ok and expect != "healthy" else
                                       "clean" if ok else
                                       "FALSE ALARM" if expect == "healthy" else "missed")
        print("| %s | `%s` | %s | %s | %s |" % (section, name, e, v, ", ".join(got) or "—"))
    print()
    for section in ("in-sample", "holdout"):
        rs = [r for r in rows if r[0] == section]
        cause = [r for r in rs if r[2] != "healthy"]
        healthy = [r for r in rs if r[2] == "healthy"]
        print("messages corpus, %s: cause named %d/%d; healthy without a warn/fail %d/%d; refused %d" % (
            section, sum(r[3] for r in cause), len(cause), sum(r[3] for r in healthy), len(healthy),
            sum(r[5] for r in rs)))


def main():
    if "--corpus" in sys.argv:
        print_corpus(corpus_rates())
        return
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
    print()
    print_corpus(corpus_rates())


if __name__ == "__main__":
    main()
