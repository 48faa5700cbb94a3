#!/usr/bin/env bash
# Installs what gpudoctor needs to build and run (debian-build-packages.txt, without
# Recommends), and with --tests also what the tests and benchmarks need (debian-packages.txt):
# real CPU drivers (PoCL, lavapipe), OpenBLAS, GoogleTest, the shells and tools the tests run.
# Those change what gpudoctor finds, so a machine to be diagnosed gets only the first list.
#   packaging/install-deps.sh [--tests]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tests=0
case "${1:-}" in
  "") ;;
  --tests) tests=1 ;;
  *) echo "usage: install-deps.sh [--tests]" >&2; exit 2 ;;
esac
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
list() { grep -v -e '^#' -e '^[[:space:]]*$' "$here/$1"; }
mapfile -t build < <(list debian-build-packages.txt)
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${build[@]}" >/dev/null
count=${#build[@]}
if ((tests)); then
  mapfile -t test_tools < <(list debian-packages.txt)
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${test_tools[@]}" >/dev/null
  count=$((count + ${#test_tools[@]}))
fi
echo "install-deps: ${count} packages present" >&2
