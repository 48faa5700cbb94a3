#!/usr/bin/env bash
# The terminal transcripts in docs/screens/: gpudoctor at an 80-column terminal (script(1), a
# pseudo-terminal set to 80 columns, COLUMNS=80), on fixture machines, run as each fixture's
# replay.txt runs it. Usage: tools/make-screens.sh [build/gpudoctor]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/gpudoctor}")
out=docs/screens
fx=tests/fixtures

screen() {  # screen FILE LANG ENV... -- ARGS...
  local file=$1 lang=$2; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local cmd="stty cols 80 rows 50; env -i ${envs[*]} LANG=$lang COLUMNS=80 TERM=xterm $bin $*"
  {
    echo "\$ gpudoctor $*"
    script -q -e -c "$cmd" /dev/null | tr -d '\r' || true
  } | sed "s#$PWD/##g" > "$out/$file"
}

h100="CONDA_PREFIX=/opt/conda HOME=/home/user PATH=/opt/conda/bin:/usr/bin:/bin"
rtx="VIRTUAL_ENV=/home/user/berkeley-humanoid-lite/.venv HOME=/home/user PATH=/usr/local/bin:/usr/bin:/bin"
mac="HOME=/Users/dev PATH=/usr/bin:/bin CONDA_PREFIX=/Users/dev/miniforge3/envs/tensorflow_m1"

screen healthy-h100.txt C.UTF-8 $h100 -- check --color never --sysroot $fx/server-h100-torch-cu124
screen broken-rtx5090.txt C.UTF-8 $rtx -- check --color never --sysroot $fx/rtx5090-torch-cu121-no-sm120
screen broken-rtx5090-verbose.txt C.UTF-8 $rtx -- check -v --color never --sysroot $fx/rtx5090-torch-cu121-no-sm120
screen broken-rtx5090-quiet-ascii.txt C $rtx -- check -q --color never --sysroot $fx/rtx5090-torch-cu121-no-sm120
screen mac-m1-tf-metal.txt C.UTF-8 $mac -- check --color never --sysroot $fx/mac-m1-miniforge-tf-metal
screen query-rtx5090.txt C.UTF-8 $rtx -- query --color never --sysroot $fx/rtx5090-torch-cu121-no-sm120
env -i $rtx "$bin" report --sysroot $fx/rtx5090-torch-cu121-no-sm120 --markdown - \
  | sed "s#$PWD/##g" > $out/broken-rtx5090-ticket.md
