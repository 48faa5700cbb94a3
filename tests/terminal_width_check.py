#!/usr/bin/env python3
"""Every command as a person at an 80-column terminal sees it (a ctest, see CMakeLists.txt).

    terminal_width_check.py GPUDOCTOR FIXTURES

Runs gpudoctor with its standard output and error on a pseudo-terminal 80 columns wide
(TIOCSWINSZ) and checks what the terminal was sent: no line wider than 80 columns (colour sequences take none);
with LANG=C nothing but ASCII; `report` on a terminal writes a file and says where, in a few
lines, instead of the JSON; the last line after --from or --sysroot does not send the reader to
`gpudoctor query` of the machine they are sitting at.
"""
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import tempfile
import termios

COLUMNS = 80
ANSI = re.compile(r"\x1b\[[0-9;]*m")
failures = []


def on_terminal(args, lang, cwd=None, timeout=300, stderr=True):
    """What gpudoctor wrote to a terminal COLUMNS wide (its notes and errors too), and its exit
    status."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update({"LANG": lang, "COLUMNS": str(COLUMNS), "TERM": "xterm"})
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(args, stdout=slave, stderr=slave if stderr else subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL,
                            env=env, cwd=cwd)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    code = proc.wait(timeout=timeout)
    os.close(master)
    return b"".join(chunks), code


def check_screen(name, raw, lang):
    text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
    if lang == "C" and any(b >= 0x80 for b in raw):
        failures.append(f"{name} LANG=C: bytes above ASCII on the terminal")
    for n, line in enumerate(text.split("\n"), 1):
        # A carriage return starts the line over (a progress line redrawn with "\r\033[K"):
        # what stays on the screen is the text after the last one.
        shown = ANSI.sub("", line.rsplit("\r", 1)[-1])
        if len(shown) > COLUMNS:
            failures.append(f"{name} LANG={lang}: line {n} is {len(shown)} columns: {shown!r}")
    return text


def main():
    gpudoctor, fixtures = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    broken = os.path.join(fixtures, "rtx5090-torch-cu121-no-sm120")
    if not os.path.isdir(broken):
        broken = os.path.join(fixtures, "nvidia-driver-library-mismatch")
    paste = os.path.join(fixtures, "pastes", "apps", "cudakdtree-18-rtx4090-no-kernel-image.txt")
    healthy = os.path.join(fixtures, "server-h100-torch-cu124")
    mac = os.path.join(fixtures, "mac-m1-miniforge-tf-metal")
    seed_mac = os.path.join(fixtures, "mac-highsierra-gtx750ti-cuda")
    reports = tempfile.mkdtemp()
    report_files = []
    for root in (healthy, broken):
        out = os.path.join(reports, os.path.basename(root) + ".json")
        subprocess.run([gpudoctor, "report", "--sysroot", root, "-o", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report_files.append(out)
    runs = {
        "check": [gpudoctor, "check", "--no-smoke"],
        "check -v": [gpudoctor, "check", "-v", "--no-smoke"],
        "check --sysroot": [gpudoctor, "check", "--sysroot", broken],
        "check -v --sysroot": [gpudoctor, "check", "-v", "--sysroot", broken],
        "check -q --sysroot": [gpudoctor, "check", "-q", "--sysroot", broken],
        "check --from": [gpudoctor, "check", "--from", paste],
        "check -v --from": [gpudoctor, "check", "-v", "--from", paste],
        "check healthy": [gpudoctor, "check", "--sysroot", healthy],
        "check mac": [gpudoctor, "check", "--sysroot", mac],
        "check -v seed mac": [gpudoctor, "check", "-v", "--sysroot", seed_mac],
        "query mac": [gpudoctor, "query", "--sysroot", mac],
        "diff": [gpudoctor, "diff"] + report_files,
        "summary": [gpudoctor, "summary"] + report_files,
        "check --help": [gpudoctor, "check", "--help"],
        "query": [gpudoctor, "query"],
        "query --sysroot": [gpudoctor, "query", "--sysroot", broken],
        "bench --help": [gpudoctor, "bench", "--help"],
        "explain": [gpudoctor, "explain"],
    }
    if os.environ.get("GPUDOCTOR_TEST_BENCH", "1") != "0":
        runs["bench"] = [gpudoctor, "bench", "--sizes", "16", "--no-vendor-blas", "--timeout", "60"]
    screens = {}
    for lang in ("C.UTF-8", "C"):
        for name, args in runs.items():
            raw, _ = on_terminal(args, lang)
            screens[(name, lang)] = check_screen(name, raw, lang)

    for name in ("check --sysroot", "check --from"):
        last = [l for l in screens[(name, "C.UTF-8")].split("\n") if l.strip()][-1]
        if re.search(r"gpudoctor query\s*$", ANSI.sub("", last)):
            failures.append(f"{name}: the last line points at this machine's query: {last!r}")
    if "--sysroot" not in screens[("check -v --sysroot", "C.UTF-8")].strip().split("\n\n")[-1]:
        failures.append("check -v --sysroot: the last line does not name the tree it read")

    with tempfile.TemporaryDirectory() as cwd:
        raw, code = on_terminal([gpudoctor, "report", "--sysroot", broken], "C.UTF-8", cwd=cwd,
                                stderr=False)
        text = check_screen("report", raw, "C.UTF-8")
        written = [f for f in os.listdir(cwd) if f.startswith("gpudoctor-report-") and f.endswith(".json")]
        if code != 0 or len(written) != 1:
            failures.append(f"report on a terminal: exit {code}, files {written}")
        elif written[0] not in text or len(text.strip().split("\n")) > 5 or "{" in text:
            failures.append(f"report on a terminal: does not say where in a few lines: {text!r}")
        elif os.path.getsize(os.path.join(cwd, written[0])) < 1000:
            failures.append("report on a terminal: the file is not the report")

    for f in failures:
        print("FAIL:", f)
    print(f"{len(runs) * 2 + 1} screens at {COLUMNS} columns, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
