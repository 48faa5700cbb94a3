#!/usr/bin/env python3
"""Turns what tools/silicon-run.sh captured on a lent GPU machine into a fixture: the machine as a
--sysroot tree and, under recorded/, what gpudoctor and the vendors' own tools said there.

    tools/silicon-fixture.py silicon.tar.gz tests/fixtures/silicon-h200

Identifiers are replaced, the same way in every file so that joins still hold: each GPU UUID by
a made-up one, each board serial by zeros. /proc/cmdline (the workplace's VM launcher) is left
out, and so are the frameworks' RECORD files (long, and nothing reads them in a tree).
"""
import io
import json
import re
import sys
import tarfile
from pathlib import Path

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SERIAL = re.compile(r"Serial Number\s*:\s*(\d+)")

RECORDED = {  # capture path -> recorded/ name
    "a/report.json": "report.json",
    "a/query-json.out": "query.json",
    "a/check.out": "check.txt",
    "a/check-v.out": "check-v.txt",
    "a/query.out": "query.txt",
    "smi/nvidia-smi.out": "nvidia-smi.txt",
    "smi/q.out": "nvidia-smi-q.txt",
    "smi/query.out": "nvidia-smi-query.csv",
    "py/torch.out": "torch-properties.json",
    "py/cupy.out": "cupy-properties.json",
    "py/jax.out": "jax-devices.json",
    "bench/matmul.out": "matmul-bench.txt",
    "bench/gpudoctor-bench.json": "bench.json",
    "b/check-v.out": "check-v-with-loaders.txt",
    "b/bench.out": "bench-with-loaders.json",
    "timings.txt": "timings.txt",
    "env.txt": "env.txt",
}


def main():
    src, dest = sys.argv[1], Path(sys.argv[2])
    files = {}
    with tarfile.open(src) as tar:
        for m in tar.getmembers():
            rel = m.name.split("/", 1)[1] if "/" in m.name else ""
            if m.isfile():
                files[rel] = tar.extractfile(m).read()
            elif m.issym():
                files[rel] = ("link", m.linkname)

    uuids = {}
    serials = set()
    for data in files.values():
        if not isinstance(data, tuple):
            serials.update(SERIAL.findall(data.decode("utf-8", "replace")))

    def scrub(data):
        text = data.decode("utf-8", "replace")
        for u in UUID.findall(text):
            uuids.setdefault(u, "%08x-0000-4000-8000-%012x" % (len(uuids) + 1, len(uuids) + 1))
        for u, fake in uuids.items():
            text = text.replace(u, fake).replace(u.replace("-", ""), fake.replace("-", ""))
        for serial in serials:
            text = text.replace(serial, "0" * len(serial))
        return text.encode()

    dest.mkdir(parents=True, exist_ok=True)
    for rel, data in sorted(files.items()):
        if not rel.startswith("tree/"):
            continue
        path = rel[len("tree/"):]
        if path == "proc/cmdline" or path.endswith("/RECORD"):
            continue
        out = dest / path
        out.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, tuple):
            if out.is_symlink() or out.exists():
                out.unlink()
            out.symlink_to(data[1])
        else:
            out.write_bytes(scrub(data))
    rec = dest / "recorded"
    rec.mkdir(exist_ok=True)
    for rel, name in RECORDED.items():
        if rel in files and not isinstance(files[rel], tuple):
            (rec / name).write_bytes(scrub(files[rel]))
    # cuobjdump's listings, summarised: per library the targets and the time it took.
    lines = []
    for rel, data in sorted(files.items()):
        if not rel.startswith("objdump/") or isinstance(data, tuple):
            continue
        text = data.decode("utf-8", "replace")
        elf = sorted(set(re.findall(r"^ELF file\s+\d+: \S+?\.(sm_\w+)\.cubin", text, re.M)))
        ptx = sorted(set(re.findall(r"^PTX file\s+\d+: \S+?\.(sm_\w+)\.ptx", text, re.M)))
        if not elf and not ptx:
            continue
        head = re.search(r"^file: (\S+) \((\d+) bytes\)", text, re.M)
        secs = re.search(r"^seconds: (\S+)", text, re.M)
        n_elf = len(re.findall(r"^ELF file", text, re.M))
        n_ptx = len(re.findall(r"^PTX file", text, re.M))
        lines.append(f"{head.group(1)}\t{head.group(2)} bytes\t{n_elf} ELF: {' '.join(elf)}"
                     f"\t{n_ptx} PTX: {' '.join(ptx)}\t{float(secs.group(1)):.2f} s")
    (rec / "cuobjdump.tsv").write_text(
        "# library\tsize\tcuobjdump --list-elf (count: targets)\t--list-ptx\twall time of both\n"
        + "\n".join(lines) + "\n")
    print(json.dumps({"uuids replaced": len(uuids), "files": len(files)}))


if __name__ == "__main__":
    main()
