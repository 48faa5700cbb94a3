#!/usr/bin/env bash
# Installs the Debian packages listed in debian-packages.txt (beside this script).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
mapfile -t pkgs < <(grep -v -e '^#' -e '^[[:space:]]*$' "$here/debian-packages.txt")
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${pkgs[@]}" >/dev/null
echo "install-deps: ${#pkgs[@]} packages present" >&2
