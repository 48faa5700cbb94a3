#!/bin/bash
# tools/silicon-pastes.sh — on a lent GPU machine: what the tools people paste into tickets print
# there today (current torch, JAX, CuPy, Numba, nvcc, nvidia-smi), one file each under
# $OUT/pastes.tar.gz, for the paste readers' fixtures (tests/fixtures/pastes/silicon-h200).
set -u
W=/tmp/pastes
rm -rf "$W"
mkdir -p "$W"
export XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONUNBUFFERED=1
cap() { local name=$1; shift; timeout 120 "$@" >"$W/$name.txt" 2>&1; echo "$name rc=$?" >>"$W/rc.txt"; }
cap collect_env python3 -m torch.utils.collect_env
cap torch_config python3 -c 'import torch; print(torch.__config__.show()); print(torch.__version__, torch.version.cuda, torch.cuda.is_available())'
cap jax_env python3 -c 'import jax; jax.print_environment_info()'
cap cupy_config python3 -c 'import cupy; cupy.show_config()'
cap numba_s python3 -m numba -s
cap nvcc_version nvcc --version
cap smi_topo nvidia-smi topo -m
cap smi_L nvidia-smi -L
cap pip_list python3 -m pip list
cap pip_freeze python3 -m pip freeze
cap torch_version python3 -c 'import torch; print(torch.__version__)'
cap uname uname -a
cap proc_version cat /proc/version
tar czf "$OUT/pastes.tar.gz" -C /tmp pastes
cat "$W/rc.txt"
