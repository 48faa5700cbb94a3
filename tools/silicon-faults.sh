#!/bin/bash
# tools/silicon-faults.sh — the second script for a lent NVIDIA machine (after silicon-run.sh):
# the setups people break, made for real on a working GPU, each diagnosed by gpudoctor and tried
# by torch, so that what the real driver and framework answer becomes fixtures (recorded reports
# to replay, the framework's own words to paste). The machine is thrown away after the lease;
# what a case changes (a device node's mode) is put back before the next case.
#
#   OUT=… bash tools/silicon-faults.sh        (.gd carried, as for silicon-run.sh)
#
# Each case gets $OUT-side files faults/<case>/: check.txt (check -v), report.json (gpudoctor
# report --no-redact is not used: the default redaction), torch.txt (what torch printed).
set -u
G=$PWD/.gd
W=/tmp/faults
rm -rf "$W" /tmp/gd
mkdir -p "$W" /tmp/gd
cp "$G/gpudoctor" /tmp/gd/gpudoctor
cp -r "$G/lib" /tmp/gd/lib
chmod -R a+rX /tmp/gd
GD=/tmp/gd/gpudoctor
LIBS=""
if ldd "$GD" | grep -q 'not found'; then LIBS=/tmp/gd/lib; fi
PY=$(command -v python3)

TORCH='
import torch, traceback
print("torch", torch.__version__, "cuda", torch.version.cuda)
print("Is CUDA available:", torch.cuda.is_available())
print("device count:", torch.cuda.device_count())
try:
    x = torch.ones(256, 256, device="cuda")
    print("matmul sum:", float((x @ x).sum()))
except Exception:
    traceback.print_exc()
'

# case NAME [env assignments…] [-- runner]: runs check -v, report and torch under that env.
case_run() {
  local name=$1
  shift
  local runner=()
  local envs=()
  while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; runner=("$@"); break; fi
    envs+=("$1")
    shift
  done
  local d=$W/$name
  mkdir -p "$d"
  chmod 1777 "$d"
  # gpudoctor keeps the carried libpci on its path, after what the case sets.
  local gd_envs=() e
  for e in "${envs[@]}"; do
    case "$e" in LD_LIBRARY_PATH=*) e="$e${LIBS:+:$LIBS}" ;; esac
    gd_envs+=("$e")
  done
  local base=(env ${LIBS:+LD_LIBRARY_PATH=$LIBS} "${gd_envs[@]}")
  local s=$EPOCHREALTIME
  timeout 90 "${runner[@]}" "${base[@]}" "$GD" check -v --color never >"$d/check.txt" 2>&1
  echo "check rc=$?" >>"$d/rc.txt"
  timeout 90 "${runner[@]}" "${base[@]}" "$GD" report -o "$d/report.json" >"$d/report.log" 2>&1
  echo "report rc=$?" >>"$d/rc.txt"
  # torch without the carried libpci on its path: the framework as the user runs it.
  timeout 90 "${runner[@]}" env "${envs[@]}" "$PY" -c "$TORCH" >"$d/torch.txt" 2>&1
  echo "torch rc=$?" >>"$d/rc.txt"
  printf '%-28s %s  %.1f s\n' "$name" "$(tr '\n' ' ' <"$d/rc.txt")" \
    "$(awk "BEGIN{print $EPOCHREALTIME-$s}")" | tee -a "$W/summary.txt"
}

case_run healthy
case_run visible-empty CUDA_VISIBLE_DEVICES=
case_run visible-minus-one CUDA_VISIBLE_DEVICES=-1
case_run visible-index-1 CUDA_VISIBLE_DEVICES=1
case_run visible-bad-uuid CUDA_VISIBLE_DEVICES=GPU-00000000-1111-2222-3333-444444444444
# The toolkit's stub libcuda where the driver's should be (a Dockerfile that links it to
# libcuda.so.1 so that a build without a GPU succeeds, and ships that).
mkdir -p /tmp/stubs && ln -sf /usr/local/cuda/lib64/stubs/libcuda.so /tmp/stubs/libcuda.so.1
case_run stub-libcuda LD_LIBRARY_PATH=/tmp/stubs
case_run ptx-jit-disabled CUDA_DISABLE_PTX_JIT=1
case_run nvidia-visible-void NVIDIA_VISIBLE_DEVICES=void

if [ "${FAULTS_TRY:-0}" = 1 ]; then cat "$W/summary.txt"; exit 0; fi
# A user who cannot open the device nodes: the modes a udev rule or a container runtime leaves.
id gduser >/dev/null 2>&1 || useradd -M -s /bin/bash gduser
for f in /dev/nvidia0 /dev/nvidiactl /dev/nvidia-uvm; do stat -c '%n %a' "$f"; done >"$W/modes-before.txt"
chmod 0660 /dev/nvidia0 /dev/nvidiactl /dev/nvidia-uvm
case_run nonroot-nodes-0660 HOME=/tmp -- runuser -u gduser --
chmod 0666 /dev/nvidia0 /dev/nvidiactl /dev/nvidia-uvm
case_run nonroot-healthy HOME=/tmp -- runuser -u gduser --

dmesg 2>/dev/null | tail -50 >"$W/dmesg-tail.txt"
tar czf "$OUT/faults.tar.gz" -C /tmp faults
cat "$W/summary.txt"
