#!/usr/bin/env python3
"""Run the built gpudoctor on every machine of the corpus (tests/fixtures/corpus.md) and write
the results table, with the rates on the two-thirds and on the holdout apart, into corpus.md
under "## Results".

    tools/corpus_table.py [--binary build/gpudoctor] [--print]

Each machine is run as `gpudoctor check --json --no-smoke --sysroot DIR`, with the environment
of the first line of its replay.txt (NAME=value words; other words are arguments), as
tests/replay/corpus_test.cpp runs it. Verdicts:

- healthy row: `ok` when no finding fails, else `false-alarm`;
- row with a finding id: `named` when that id is among the findings, else `missed`;
- row marked `none yet`: `missed` (no check models the cause);
- a machine whose directory is absent: `not rebuilt`.

A missed machine is also said to be `flagged` (some other failure or warning, or an area other
than host, gpu and cuda not examined) or `silent` (an all-clear a user would stop at).

If `check --json` carries a `readiness` array (issue 26 §1: one entry per framework×GPU pair
with `first_failure`), the first failing stage of each pair is shown; the script does not
depend on it.
"""
import argparse
import json
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "tests", "fixtures")
CORPUS = os.path.join(FIXTURES, "corpus.md")
RESULTS = "## Results"
# Areas a --sysroot replay never examines (cuda: libcuda is not loaded) or that a tree leaves
# unexamined when the thread gave no /etc/os-release or PCI listing (host, gpu): they say
# nothing about the cause, so they do not count as flagging it.
QUIET_AREAS = {"cuda", "host", "gpu"}


def read_rows(text):
    """The rows of the table under "## The list"."""
    rows = []
    section = text.split("## The list", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 7 or not cells[0].isdigit():
            continue
        rows.append({
            "n": int(cells[0]), "machine": cells[1], "class": cells[2], "thread": cells[3],
            "cause": cells[4], "finding": cells[5], "holdout": cells[6] == "HOLDOUT",
        })
    return rows


def replay_line(machine_dir):
    """(env, args) of the first replay.txt line, or empty."""
    path = os.path.join(machine_dir, "replay.txt")
    if not os.path.exists(path):
        return {}, []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        env, args = {}, []
        for word in line.split():
            if "=" in word and not word.startswith("-"):
                k, v = word.split("=", 1)
                env[k] = v
            else:
                args.append(word)
        return env, args
    return {}, []


def run(binary, machine_dir):
    env, args = replay_line(machine_dir)
    base = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}
    base.update(env)
    cmd = [binary, "check", "--json", "--no-smoke", "--sysroot", machine_dir] + args
    p = subprocess.run(cmd, env=base, capture_output=True, text=True, timeout=120)
    if p.returncode not in (0, 1):
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip()[:200])
    return json.loads(p.stdout), None


def judge(row, report):
    findings = report.get("findings", [])
    ids = [f["id"] for f in findings]
    failing = [f["id"] for f in findings if f.get("severity") == "fail"]
    warning = [f["id"] for f in findings if f.get("severity") == "warn"]
    unexamined = [a["area"] for a in report.get("areas", [])
                  if a.get("state") == "not_examined" and a.get("area") not in QUIET_AREAS]
    flagged = bool(failing or warning or unexamined)
    want = row["finding"]
    if want == "healthy":
        verdict = "false-alarm" if failing else "ok"
    elif want == "none yet":
        verdict = "missed"
    else:
        verdict = "named" if want in ids else "missed"
    if verdict == "missed":
        verdict += " (flagged)" if flagged else " (silent)"
    given = ", ".join("%s %s" % (f["id"], f["severity"]) for f in findings
                      if f.get("severity") in ("fail", "warn")) or "—"
    if unexamined:
        given += "; not examined: " + ", ".join(unexamined)
    stages = []
    for pair in report.get("readiness", []) or []:
        if isinstance(pair, dict) and pair.get("first_failure"):
            ff = pair["first_failure"]
            stage = ff.get("stage") if isinstance(ff, dict) else ff
            label = " × ".join(str(pair.get(k)) for k in ("framework", "gpu") if pair.get(k))
            stages.append("%s: %s" % (label or "pair", stage))
    return verdict, given, "; ".join(stages)


def rate(rows):
    built = [r for r in rows if r["verdict"] != "not rebuilt"]
    good = [r for r in built if r["verdict"] in ("named", "ok")]
    alarms = [r for r in built if r["verdict"] == "false-alarm"]
    silent = [r for r in built if r["verdict"].endswith("(silent)")]
    return "%d/%d right (%d listed, %d not rebuilt), %d false alarm(s), %d silent" % (
        len(good), len(built), len(rows), len(rows) - len(built), len(alarms), len(silent))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(REPO, "build", "gpudoctor"))
    ap.add_argument("--print", action="store_true", help="print the table, do not write it")
    a = ap.parse_args()
    if not (os.path.isfile(a.binary) and os.access(a.binary, os.X_OK)):
        sys.exit("corpus_table.py: %s is not a runnable gpudoctor (build it first, or pass "
                 "--binary)" % a.binary)
    text = open(CORPUS, encoding="utf-8").read()
    rows = read_rows(text)
    any_readiness = False
    for r in rows:
        d = os.path.join(FIXTURES, r["machine"])
        if not os.path.isdir(d):
            r.update(verdict="not rebuilt", given="", stage="")
            continue
        report, err = run(a.binary, d)
        if report is None:
            r.update(verdict="error", given=err, stage="")
            continue
        any_readiness = any_readiness or "readiness" in report
        r["verdict"], r["given"], r["stage"] = judge(r, report)
    head = ["machine", "class", "holdout", "established cause", "expected", "finding(s) given",
            "verdict"]
    if any_readiness:
        head.insert(6, "first failing stage")
    out = [RESULTS, "",
           "Written by `tools/corpus_table.py` (`%s`); fail/warn findings are listed." %
           os.path.relpath(a.binary, REPO), "",
           "- two-thirds: " + rate([r for r in rows if not r["holdout"]]),
           "- holdout: " + rate([r for r in rows if r["holdout"]]), "",
           "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in rows:
        cells = [r["machine"], r["class"], "HOLDOUT" if r["holdout"] else "", r["cause"],
                 r["finding"], r["given"], r["verdict"]]
        if any_readiness:
            cells.insert(6, r["stage"])
        out.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    table = "\n".join(out) + "\n"
    if a.print:
        sys.stdout.write(table)
        return
    before = text.split(RESULTS, 1)[0]
    open(CORPUS, "w", encoding="utf-8").write(before + table)
    sys.stdout.write("\n".join(out[:6]) + "\n")


if __name__ == "__main__":
    main()
