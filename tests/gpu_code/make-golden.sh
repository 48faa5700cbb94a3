#!/usr/bin/env bash
# Writes cuobjdump.txt: per nvcc-built library of this directory (build/tests/gpu_code), each
# target cuobjdump --list-elf / --list-ptx names and how many files it lists for it.
#   tests/gpu_code/make-golden.sh CUOBJDUMP BUILD_DIR/tests/gpu_code > tests/gpu_code/cuobjdump.txt
# cuobjdump is not in every CUDA toolkit's bin/; PyPI's nvidia-cuda-cuobjdump wheel has it.
set -euo pipefail
cuobjdump=$1 dir=$2
echo "# cuobjdump ($("$cuobjdump" --version | tail -1)) on the libraries tests/gpu_code/CMakeLists.txt builds"
echo "# with nvcc ($(/usr/local/cuda/bin/nvcc --version | tail -1))."
echo "# <library> elf|ptx <target as cuobjdump names it> <files listed>"
for lib in "$dir"/libfatbin_*.so; do
  name=$(basename "$lib")
  "$cuobjdump" --list-elf "$lib" 2>/dev/null | sed -nE 's/.*\.(sm_[0-9a-z]+)\.cubin$/\1/p' |
    sort | uniq -c | awk -v n="$name" '{print n, "elf", $2, $1}'
  "$cuobjdump" --list-ptx "$lib" 2>/dev/null | sed -nE 's/.*\.(sm_[0-9a-z]+)\.ptx$/\1/p' |
    sort | uniq -c | awk -v n="$name" '{print n, "ptx", $2, $1}'
done
