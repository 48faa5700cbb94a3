#!/usr/bin/env python3
"""Regenerates data/pci/ from an upstream pci.ids (https://github.com/pciutils/pciids).

  tools/refresh-pci-ids.py PCI_IDS [--commit SHA]

writes
  data/pci/gpu.ids                     the GPU vendors' part of PCI_IDS, in pci.ids' own format
  data/pci/nvidia_device_id_ranges.json NVIDIA's device-id blocks per chip, derived from it

What is kept (data/pci/README.md says why): the device lines (no subsystem lines) of NVIDIA
10de and AMD/ATI 1002 less their audio, USB, bridge and other non-GPU functions; Intel 8086's
graphics devices; Moore Threads 1ed5's GPUs; ASPEED 1a03's BMC graphics; Red Hat 1af4's
virtio GPU; the display (03), co-processor (0b40) and processing-accelerator (12) classes.

The ranges: every NVIDIA GPU function whose name starts with a chip code of an architecture
CUDA names (GK… Kepler to GB… Blackwell; the code's three digits, its variant suffixes such as
GL, M, B dropped) is put in its 0x80-aligned block of device ids. A block whose known ids all
belong to one chip becomes that chip's; adjacent blocks of one chip are joined; a block shared
by two chips is left out. Each range gets the chip's compute capability from
data/compat/gpu_compute_capability.json (kind "chip", from NVIDIA's CUDA GPUs page).
"""
import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_IDS = ROOT / "data/pci/gpu.ids"
OUT_RANGES = ROOT / "data/pci/nvidia_device_id_ranges.json"
CC_TABLE = ROOT / "data/compat/gpu_compute_capability.json"
BLOCK = 0x80

# Functions of GPU vendors that are not GPUs: dropped unless the name holds a product in
# brackets (the filter cmake/embed_pci_ids.cmake applied to the distribution's copy before).
NOT_GPU = re.compile(
    r"Audio|USB|UCSI|SMBus|LPC|IDE|SATA|Serial ATA|Ethernet|Bridge|[Mm]emory [Cc]ontroller|"
    r"FireWire|Modem|ISA|System Management|Host|Co-?[Pp]rocessor|Network|PCI Express|PCIe|"
    r"Switch|Controller|Port|Hub|I2C|SPI|UART|GPIO|Thermal|Sensor|Root|DMA|Crypto|Platform|RAID")
INTEL_GPU = re.compile(r"Graphics|Iris|UHD|\[Arc|Arc |DG[12]|Xe |Xe\]|Xe$|GPU|GMA|GT[1-4]|Display")
INTEL_NOT_GPU = re.compile(r"Audio|Port|Hub|Bridge|Memory Controller")


def keep_default(name):
    return not NOT_GPU.search(name) or "[" in name


# vendor id -> which of its device lines are GPUs
VENDORS = {
    "10de": keep_default,
    "1002": keep_default,
    "8086": lambda n: bool(INTEL_GPU.search(n)) and not INTEL_NOT_GPU.search(n),
    "1ed5": lambda n: "Audio" not in n,
    "1a03": lambda n: "Graphics" in n,
    "1af4": lambda n: "GPU" in n,
}
CLASSES = {"03": None, "0b": {"40"}, "12": None}  # class -> subclasses kept (None: all)

# Chip code prefix -> architecture, as NVIDIA's CUDA C++ Programming Guide names the
# architectures by compute capability (3 Kepler, 5 Maxwell, 6 Pascal, 7.0 Volta, 7.5 Turing,
# 8.0/8.6 Ampere, 8.9 Ada Lovelace, 9 Hopper, 10/12 Blackwell).
ARCH = {"GK": "Kepler", "GM": "Maxwell", "GP": "Pascal", "GV": "Volta", "TU": "Turing",
        "GA": "Ampere", "AD": "Ada Lovelace", "GH": "Hopper", "GB": "Blackwell"}
CHIP = re.compile(r"^(GK|GM|GP|GV|TU|GA|AD|GH|GB)(\d{3})[A-Z]*(?![0-9a-z])")
# Any other chip code of those families (GK11x emulation parts, the GB10B/GB20B SoC GPUs): its
# ids keep the block they sit in from being any one chip's.
OTHER_CHIP = re.compile(r"^(GK|GM|GP|GV|TU|GA|AD|GH|GB)\d\d[0-9A-Za-z]*")
NOT_A_GPU_FUNCTION = re.compile(r"Audio|USB|UCSI|[Bb]ridge|NVSwitch")


def sections(lines):
    """Yields (header line, [body lines]) for every top-level entry and class."""
    header, body = None, []
    for line in lines:
        if line.startswith("#") or not line.strip():
            continue
        if not line.startswith("\t"):
            if header is not None:
                yield header, body
            header, body = line, []
        elif header is not None:
            body.append(line)
    if header is not None:
        yield header, body


def subset(lines):
    out = []
    for header, body in sections(lines):
        vid = header[:4]
        if header.startswith("C "):
            cls = header[2:4]
            if cls not in CLASSES:
                continue
            subs = [b for b in body if not b.startswith("\t\t")
                    and (CLASSES[cls] is None or b[1:3] in CLASSES[cls])]
            out.append(header)
            out.extend(subs)
        elif vid in VENDORS and re.match(r"^[0-9a-f]{4}  ", header):
            keep = VENDORS[vid]
            devices = [b for b in body if re.match(r"^\t[0-9a-f]{4}  ", b) and keep(b[7:])]
            out.append(header)
            out.extend(devices)
    return out


def nvidia_devices(lines):
    for header, body in sections(lines):
        if header.startswith("10de  "):
            for b in body:
                m = re.match(r"^\t([0-9a-f]{4})  (.*)$", b)
                if m:
                    yield int(m.group(1), 16), m.group(2)


def derive_ranges(lines, cc_rows):
    chips_by_block = {}
    for dev, name in nvidia_devices(lines):
        if NOT_A_GPU_FUNCTION.search(name):
            continue
        m = CHIP.match(name)
        other = OTHER_CHIP.match(name)
        if m:
            key = m.group(1) + m.group(2)
        elif other:
            key = "~" + other.group(0)  # a family's chip code of another form: claims no block
        else:
            continue
        chips_by_block.setdefault(dev // BLOCK, {}).setdefault(key, []).append(dev)
    ranges, shared = [], []
    for block in sorted(chips_by_block):
        chips = chips_by_block[block]
        if len(chips) != 1 or next(iter(chips)).startswith("~"):
            shared.append({"block": f"0x{block * BLOCK:04x}",
                           "chips": sorted(c.lstrip("~") for c in chips)})
            continue
        chip, ids = next(iter(chips.items()))
        last = ranges[-1] if ranges else None
        if last and last["chip"] == chip and int(last["last"], 16) + 1 == block * BLOCK:
            last["last"] = f"0x{block * BLOCK + BLOCK - 1:04x}"
            last["known_ids"] += len(ids)
            continue
        cc = cc_rows.get(chip)
        ranges.append({"first": f"0x{block * BLOCK:04x}", "last": f"0x{block * BLOCK + BLOCK - 1:04x}",
                       "chip": chip, "architecture": ARCH[chip[:2]],
                       "compute_capability": cc, "known_ids": len(ids),
                       "source": "derived" if cc else "derived-no-cc"})
    return ranges, shared


def header_lines(lines, commit):
    upstream = []
    for line in lines:
        if not line.startswith("#"):
            break
        upstream.append(line)
    ours = ["#",
            "#\tThe GPU vendors' part of the PCI ID Repository's pci.ids, made from upstream",
            f"#\thttps://github.com/pciutils/pciids commit {commit or 'unknown'}",
            "#\tby tools/refresh-pci-ids.py (what is kept: data/pci/README.md). Do not edit.",
            "#"]
    return upstream + ours


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pci_ids")
    ap.add_argument("--commit", help="the pciutils/pciids commit the file came from")
    args = ap.parse_args()
    lines = Path(args.pci_ids).read_text(encoding="utf-8", errors="replace").splitlines()
    version = next((l.split(":", 1)[1].strip() for l in lines if "Version:" in l), None)
    date = next((l.split(":", 1)[1].strip() for l in lines if l.startswith("#\tDate:")), None)
    if not version:
        sys.exit(f"{args.pci_ids}: no '# Version:' line; is it a pci.ids?")
    body = subset(lines)
    OUT_IDS.write_text("\n".join(header_lines(lines, args.commit) + [""] + body) + "\n",
                       encoding="utf-8")

    cc_rows = {r["chip"]: r["cc"] for r in json.loads(CC_TABLE.read_text())["rows"]
               if r.get("kind") == "chip"}
    ranges, shared = derive_ranges(body, cc_rows)
    doc = {
        "schema": "nvidia_device_id_ranges/1",
        "title": "NVIDIA PCI device-id blocks per chip, for ids no table names yet",
        "pci_ids": {"version": version, "date": date, "commit": args.commit},
        "notes": [
            "Derived by tools/refresh-pci-ids.py from data/pci/gpu.ids: every NVIDIA GPU function "
            "named with a chip code (GK… to GB…, three digits, variant suffixes dropped) falls in "
            f"a 0x{BLOCK:x}-aligned block of device ids; a block whose known ids all name one chip "
            "is that chip's, adjacent blocks of one chip are joined, blocks shared by two chips "
            "are listed under shared_blocks and place nothing.",
            "An id inside a range that no table names is said to be that chip, inferred from the "
            "device id range; never a known name.",
            "compute_capability: the chip's row in data/compat/gpu_compute_capability.json "
            "(NVIDIA's CUDA GPUs page); null where that file has none for the chip."],
        "sources": [
            {"id": "derived", "url": "https://developer.nvidia.com/cuda-gpus",
             "title": "Ranges from the PCI ID Repository (https://github.com/pciutils/pciids); "
                      "compute capability of the chip from NVIDIA's CUDA GPUs page; architecture "
                      "names as https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html"
                      "#compute-capability gives them", "status": "derived"},
            {"id": "derived-no-cc", "url": "https://github.com/pciutils/pciids",
             "title": "Ranges from the PCI ID Repository; no compute capability published for "
                      "the chip in gpudoctor's tables", "status": "derived"}],
        "rows": ranges,
        "shared_blocks": shared,
    }
    OUT_RANGES.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT_IDS.relative_to(ROOT)}: pci.ids {version}, {len(body)} lines")
    print(f"{OUT_RANGES.relative_to(ROOT)}: {len(ranges)} ranges, {len(shared)} shared blocks")


if __name__ == "__main__":
    main()
