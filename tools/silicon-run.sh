#!/bin/bash
# tools/silicon-run.sh — the one script run on a lent NVIDIA machine (the workplace's device tool),
# from the repository root, with .gd carried: .gd/gpudoctor (built here, stripped), .gd/lib
# (libpci.so.3, libudev.so.1 in case the image lacks them) and .gd/debs (Debian's OpenCL and Vulkan
# loaders and libglvnd, for the second pass). It changes nothing the first pass reads; the second
# pass unpacks the loaders into / (the machine is thrown away after the lease).
#
# What it captures, all under $OUT (silicon.tar.gz and timings.txt):
#   env.txt           the machine: OS, driver, libraries on the loader path, device nodes, ICD files
#   smi/              nvidia-smi, -L, -q, -q -x, --query-gpu as CSV
#   a/                gpudoctor as a user would run it: check, check -v, --json, query, report…
#   py/props.json     torch.cuda.get_device_properties, CuPy's device attributes, JAX's devices
#   bench/            tools' matmul side by side: gpudoctor's CUDA kernel and cuBLAS series
#                     against torch.matmul (fp32 with TF32 off and on)
#   objdump/          cuobjdump --list-elf/--list-ptx on torch's, CuPy's and JAX's CUDA libraries
#   tree/             the machine as a --sysroot fixture (small text files, names of libraries)
#   b/                gpudoctor again with Debian's OpenCL and Vulkan loaders present
set -u
G=$PWD/.gd
W=/tmp/silicon
rm -rf "$W"
mkdir -p "$W"/a "$W"/b "$W"/smi "$W"/py "$W"/bench "$W"/objdump "$W"/tree
GD=$G/gpudoctor
chmod +x "$GD"
if ldd "$GD" | grep -q 'not found'; then export LD_LIBRARY_PATH=$G/lib; fi
export XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONUNBUFFERED=1

# run NAME SECONDS CMD…: stdout and stderr to files, exit status and wall time to timings.txt
run() {
  local name=$1 lim=$2
  shift 2
  local s=$EPOCHREALTIME
  timeout -k 5 "$lim" "$@" >"$W/$name.out" 2>"$W/$name.err"
  local rc=$? e=$EPOCHREALTIME
  printf '%-34s rc=%-4s %8.2f s\n' "$name" "$rc" "$(awk "BEGIN{print $e-$s}")" | tee -a "$W/timings.txt"
}

{
  date -u; uname -a; cat /etc/os-release; id; nproc; echo "--- ldd"; ldd "$GD"
  echo "--- ldconfig"; ldconfig -p | grep -E 'cuda|nvidia|OpenCL|vulkan|libpci|cublas|cudnn|openblas'
  echo "--- /usr/local/nvidia"; ls -la /usr/local/nvidia /usr/local/nvidia/lib64 /usr/local/nvidia/lib 2>&1 | head -120
  echo "--- ICD files"; ls -la /etc/OpenCL/vendors /usr/share/vulkan/icd.d /etc/vulkan/icd.d \
    /usr/local/nvidia/share/vulkan/icd.d /usr/share/glvnd/egl_vendor.d 2>&1
  echo "--- driver"; cat /proc/driver/nvidia/version 2>&1; grep -i nvidia /proc/modules 2>&1
  ls -la /sys/module | grep -i nvidia
  echo "--- nodes"; ls -la /dev/nvidia* /dev/nvidia-caps /dev/dri 2>&1
  echo "--- mounts"; grep -E 'nvidia|cuda' /proc/mounts
  echo "--- python"; command -v python3; python3 -c 'import sys, site; print(sys.version); print(sys.prefix); print(site.getsitepackages())'
  echo "--- environment"; env | grep -iE 'cuda|nvidia|ld_library|^path=' | sort
  echo "--- toolkit"; ls -la /usr/local/ | grep -i cuda; cat /usr/local/cuda/version.json 2>/dev/null | head -20
  command -v nvcc cuobjdump nvidia-smi lspci clinfo vulkaninfo
} >"$W/env.txt" 2>&1

# SILICON_QUICK=1: only gpudoctor, nvidia-smi and the tree (no cuobjdump, no bench, no frameworks).
QUICK=${SILICON_QUICK:-0}
# cuobjdump on the frameworks' CUDA libraries, in the background (CPU only) while the GPU works.
TORCH_DIR=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))' 2>/dev/null)
CUPY_DIR=$(python3 -c 'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("cupy").origin))' 2>/dev/null)
SITE=$(python3 -c 'import site; print(site.getsitepackages()[0])')
[ "$QUICK" = 1 ] || (
  for f in "$TORCH_DIR"/lib/libtorch_cuda*.so "$TORCH_DIR"/lib/libc10_cuda.so \
           $(find "$SITE"/jax_plugins "$SITE"/jaxlib -name '*.so' -size +20M 2>/dev/null) \
           $(find "$CUPY_DIR" -name '*.so' 2>/dev/null); do
    [ -f "$f" ] || continue
    n=$(echo "${f#$SITE/}" | tr '/' '_')
    {
      echo "file: $f ($(stat -c %s "$f") bytes)"
      s=$EPOCHREALTIME
      timeout 150 cuobjdump --list-elf "$f"; echo "list-elf rc=$?"
      timeout 150 cuobjdump --list-ptx "$f"; echo "list-ptx rc=$?"
      echo "seconds: $(awk "BEGIN{print $EPOCHREALTIME-$s}")"
    } >"$W/objdump/$n.txt" 2>&1
  done
) &
OBJDUMP=$!

run smi/nvidia-smi 30 nvidia-smi
run smi/L 30 nvidia-smi -L
run smi/q 60 nvidia-smi -q
run smi/qx 60 nvidia-smi -q -x
run smi/query 30 nvidia-smi --format=csv --query-gpu=name,uuid,serial,pci.bus_id,pci.device_id,pci.sub_device_id,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,memory.total,driver_version,vbios_version,compute_cap,persistence_mode,mig.mode.current,ecc.mode.current,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,power.limit,temperature.gpu

# Pass A: gpudoctor as a user runs it, nothing added.
run a/version 20 "$GD" --version
run a/check 120 "$GD" check
run a/check-v 120 "$GD" check -v --color never
run a/check-json 120 "$GD" check --json
run a/query 120 "$GD" query
run a/query-json 120 "$GD" query --json
run a/query-python 120 "$GD" query --json --backend python
run a/report 120 "$GD" report -o "$W/a/report.json"
run a/report-markdown 120 "$GD" report --markdown "$W/a/report.md"
run a/brief 120 "$GD" report --brief
run a/replay 60 "$GD" check --from "$W/a/report.json" -v --color never
run a/oneline 120 "$GD" check --oneline
run a/prometheus 120 "$GD" check --prometheus "$W/a/metrics.prom"

# What the frameworks say about the same GPU.
[ "$QUICK" = 1 ] || {
run py/torch 120 python3 - <<'EOF'
import json, time
t = time.time()
import torch
out = {"import_s": time.time() - t, "version": torch.__version__, "cuda": torch.version.cuda,
       "cudnn": torch.backends.cudnn.version(), "available": torch.cuda.is_available(),
       "count": torch.cuda.device_count(), "arch_list": torch.cuda.get_arch_list(),
       "capability": torch.cuda.get_device_capability(0)}
p = torch.cuda.get_device_properties(0)
out["props"] = {k: getattr(p, k) for k in dir(p) if not k.startswith("_") and not callable(getattr(p, k))}
out["mem_get_info"] = torch.cuda.mem_get_info(0)
print(json.dumps(out, indent=1, default=str))
EOF
run py/cupy 120 python3 - <<'EOF'
import json, cupy
rt = cupy.cuda.runtime
p = rt.getDeviceProperties(0)
out = {"version": cupy.__version__, "driver": rt.driverGetVersion(), "runtime": rt.runtimeGetVersion(),
       "props": {k: (v.decode(errors="replace") if isinstance(v, bytes) else v) for k, v in p.items()}}
print(json.dumps(out, indent=1, default=str))
EOF
run py/jax 120 python3 -c 'import jax, json; print(json.dumps({"version": jax.__version__, "devices": [dict(str=str(d), kind=d.device_kind, platform=d.platform, cc=getattr(d, "compute_capability", None)) for d in jax.devices()]}, indent=1))'

# The bench: gpudoctor's kernels and its cuBLAS series against torch.matmul at the same sizes.
run bench/matmul 300 python3 bench/matmul_bench.py --gpudoctor "$GD" --backend cuda \
  --sizes 1024,2048,4096,8192 --runs 5 --tf32-too --save-json "$W/bench/gpudoctor-bench.json"
run bench/plot 120 "$GD" bench --backend cuda --sizes 256,512,1024,2048 --plot "$W/bench/plot.svg"
}

# The machine as a fixture tree: small text files, device nodes and libraries by name only.
T=$W/tree
cap() {
  for p in "$@"; do
    [ -e "$p" ] || [ -L "$p" ] || continue
    mkdir -p "$T$(dirname "$p")"
    if [ -L "$p" ] && [[ "$p" != /sys/bus/pci/devices/* ]]; then cp -P "$p" "$T$p"
    elif [ -f "$p" ]; then head -c 262144 "$p" >"$T$p" 2>/dev/null || rm -f "$T$p"
    fi
  done
}
cat /etc/os-release >"$W/os-release"; mkdir -p "$T/etc"; cp "$W/os-release" "$T/etc/os-release"
cap /etc/ld.so.conf /etc/ld.so.conf.d/* /proc/sys/kernel/osrelease /proc/version /proc/modules \
    /proc/cmdline /proc/meminfo /etc/OpenCL/vendors/* /usr/share/vulkan/icd.d/* /etc/vulkan/icd.d/* \
    /usr/local/nvidia/share/vulkan/icd.d/* /etc/nvidia-container-runtime/config.toml /etc/cdi/* \
    /var/run/cdi/* /usr/local/cuda/version.json /usr/local/cuda/include/cudnn_version.h
cap $(find /proc/driver/nvidia -type f 2>/dev/null)
for m in /sys/module/nvidia*; do cap "$m"/version "$m"/initstate "$m"/srcversion "$m"/taint; done
for d in /sys/bus/pci/devices/*; do
  case "$(cat "$d/class")" in 0x03*|0x1200*|0x0680*) ;; *) continue ;; esac
  [ "$(cat "$d/vendor")" = 0x10de ] || [[ "$(cat "$d/class")" == 0x03* ]] || continue
  cap "$d"/{class,vendor,device,subsystem_vendor,subsystem_device,revision,current_link_speed,current_link_width,max_link_speed,max_link_width,numa_node,boot_vga,local_cpulist}
  [ -L "$d/driver" ] && ln -s "../../drivers/$(basename "$(readlink -f "$d/driver")")" "$T$d/driver"
done
for f in /dev/nvidia* /dev/nvidia-caps/* /dev/dri/*; do
  [ -e "$f" ] && [ ! -d "$f" ] && mkdir -p "$T$(dirname "$f")" && : >"$T$f"
done
ls -la /dev/nvidia* /dev/nvidia-caps /dev/dri >"$W/tree-dev-ls.txt" 2>&1
# The variables gpudoctor honours under --sysroot (app/machine_source.cpp), this shell's values;
# the carried libraries' directory is left out of LD_LIBRARY_PATH.
mkdir -p "$T/.gpudoctor"
for v in PATH HOME CUDA_HOME CUDA_PATH OCL_ICD_FILENAMES OCL_ICD_VENDORS VK_DRIVER_FILES \
         VK_ICD_FILENAMES NVIDIA_VISIBLE_DEVICES NVIDIA_DRIVER_CAPABILITIES CUDA_VISIBLE_DEVICES \
         VIRTUAL_ENV CONDA_PREFIX; do
  [ -n "${!v+x}" ] && echo "$v=${!v}"
done >"$T/.gpudoctor/environment.txt"
# The interpreter's links (a venv is found by its bin/python), and the libraries .icd files name.
PREFIX=$(python3 -c 'import sys; print(sys.prefix)')
mkdir -p "$T$PREFIX/bin"
for f in "$PREFIX"/bin/python*; do if [ -L "$f" ]; then cp -P "$f" "$T$f"; else : >"$T$f"; fi; done
for icd in /etc/OpenCL/vendors/*.icd; do
  lib=$(head -1 "$icd")
  for f in $( [ "${lib#/}" != "$lib" ] && echo "$lib" || ls /usr/lib/x86_64-linux-gnu/"$lib" \
             /lib/x86_64-linux-gnu/"$lib" /usr/lib64/"$lib" /usr/lib/"$lib" 2>/dev/null); do
    mkdir -p "$T$(dirname "$f")"; [ -L "$f" ] && cp -P "$f" "$T$f" || : >"$T$f"
  done
done
for lib in $(ldconfig -p | awk '/libcuda\.so|libnvidia-ml\.so|libnvidia-opencl|libGLX_nvidia|libnvidia-ptxjitcompiler|libcudadebugger/ {print $NF}' | sort -u); do
  dir=$(dirname "$lib"); mkdir -p "$T$dir"
  for f in "$dir"/$(basename "$lib" | sed 's/\.so.*//').so*; do
    if [ -L "$f" ]; then cp -P "$f" "$T$f"; else : >"$T$f"; fi
  done
done
ls -laR /usr/local/nvidia 2>/dev/null | head -400 >"$W/tree-nvidia-ls.txt"
for di in "$SITE"/*.dist-info; do
  case "$(basename "$di" | tr 'A-Z' 'a-z')" in
    torch-*|torchvision-*|jax-*|jaxlib-*|jax_cuda*|cupy*|nvidia_*|triton-*|numba*|tensorflow*|cuda_*) ;;
    *) continue ;;
  esac
  cap "$di"/METADATA "$di"/WHEEL "$di"/INSTALLER "$di"/top_level.txt
  [ "$(stat -c %s "$di/RECORD" 2>/dev/null || echo 9999999)" -lt 300000 ] && cap "$di"/RECORD
done
cap "$TORCH_DIR"/version.py "$SITE"/jax/version.py "$SITE"/jaxlib/version.py "$(dirname "$SITE")"/../../pyvenv.cfg
ls -la "$TORCH_DIR"/lib "$SITE"/nvidia/*/lib "$SITE"/jax_plugins/* "$CUPY_DIR" >"$W/tree-python-ls.txt" 2>&1
python3 -c 'import sys; print(sys.prefix)' >"$W/tree-python-prefix.txt"

# Pass B: Debian's OpenCL and Vulkan loaders, pointed at NVIDIA's ICDs where the image has none.
# (SILICON_TRY=1 stops before it: for trying the script on a machine that is not thrown away.)
if [ "${SILICON_TRY:-0}" = 1 ]; then tar czf "$OUT/silicon.tar.gz" -C /tmp silicon; exit 0; fi
for f in "$G"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
if ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
  ocl=$(ldconfig -p | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
  [ -z "$ocl" ] && ocl=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 2>/dev/null)
  if [ -n "$ocl" ]; then mkdir -p /tmp/ocl && echo "$ocl" >/tmp/ocl/nvidia.icd && export OCL_ICD_VENDORS=/tmp/ocl; fi
fi
if ! ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json >/dev/null 2>&1 &&
   [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
env | grep -E 'OCL_ICD|VK_DRIVER' >"$W/b/env.txt"
run b/check-v 120 "$GD" check -v --color never
run b/query-json 120 "$GD" query --json
[ "$QUICK" = 1 ] || run b/bench 240 "$GD" bench --json --backend opencl,vulkan,cuda --sizes 1024,2048,4096

for i in $(seq 90); do kill -0 "$OBJDUMP" 2>/dev/null || break; sleep 1; done
kill "$OBJDUMP" 2>/dev/null; pkill cuobjdump
tar czf "$OUT/silicon.tar.gz" -C /tmp silicon
cp "$W/timings.txt" "$OUT/timings.txt"
cat "$W/a/check.out"
