#!/usr/bin/env bash
# Builds and installs gpudoctor with Homebrew from this clone's committed HEAD:
#   packaging/homebrew/install-head.sh [brew install options]
# The formula (gpudoctor.rb) goes into a local tap, gpudoctor/local, made here if missing.
set -euo pipefail
repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
if ! command -v brew >/dev/null; then
  echo "install-head.sh: brew is not installed (https://brew.sh)" >&2
  exit 2
fi
tap=gpudoctor/local
brew tap-new --no-git "$tap" >/dev/null 2>&1 || true  # already there: fine
cp "$repo/packaging/homebrew/gpudoctor.rb" "$(brew --repository "$tap")/Formula/gpudoctor.rb"
HOMEBREW_GPUDOCTOR_REPO="$repo" brew install --HEAD "$tap/gpudoctor" "$@"
