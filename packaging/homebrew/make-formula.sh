#!/usr/bin/env bash
# Writes the Homebrew formula for a release tarball (a `git archive` of a tag, as GitHub serves
# it): packaging/homebrew/make-formula.sh HOMEPAGE URL TARBALL > gpudoctor.rb
# The sha256 is computed from TARBALL, the file that URL serves.
set -euo pipefail
[[ $# -eq 3 ]] || { echo "usage: make-formula.sh HOMEPAGE URL TARBALL" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sha=$(sha256sum "$3" | cut -d' ' -f1)
sed -e "s|@HOMEPAGE@|$1|" -e "s|@URL@|$2|" -e "s|@SHA256@|$sha|" "$here/gpudoctor.rb.in"
