#!/usr/bin/env bash
# What `gpudoctor --version` says about its revision and the date of its compat data
# (cmake/build_info.cmake), built from a git checkout, from a `git archive` release tarball,
# from a plain copy, and as a packager gives them.
#   build_info_check.sh SOURCE_DIR     (exit 77: skipped, not a git checkout)
set -euo pipefail
src=$(cd "$1" && pwd)
if ! command -v git >/dev/null || ! git -C "$src" rev-parse HEAD >/dev/null 2>&1; then
  echo "build_info_check: not a git checkout, skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() {  # expect FILE TEXT
  grep -qF -- "$2" "$1" || { echo "FAIL: $1 lacks: $2" >&2; sed 's/^/  /' "$1" >&2; failures=$((failures + 1)); }
}
info() { cmake -DSRC="$1" -DOUT="$2" "${@:3}" -P "$1/cmake/build_info.cmake"; }

rev=$(git -C "$src" rev-parse --short=12 HEAD)
compat=$(git -C "$src" log -1 --format=%cs -- data/compat)
head_date=$(git -C "$src" log -1 --format=%cs HEAD)

# A checkout: HEAD ("-dirty" when tracked files changed), the last commit that changed data/compat.
info "$src" "$tmp/checkout.hpp"
expect "$tmp/checkout.hpp" "kGitRevision = \"$rev"
expect "$tmp/checkout.hpp" "kCompatDataDate = \"$compat\""
expect "$tmp/checkout.hpp" "the last change to data/compat"
# Written again with nothing changed: left alone, so nothing recompiles.
touch -d '2000-01-01' "$tmp/checkout.hpp"
info "$src" "$tmp/checkout.hpp"
[[ $(stat -c %Y "$tmp/checkout.hpp") == $(date -d '2000-01-01' +%s) ]] ||
  { echo "FAIL: an unchanged build_info.hpp was rewritten" >&2; failures=$((failures + 1)); }

# A release tarball as `git archive` makes it (export-subst in .gitattributes): no .git, the
# stamp in cmake/git_archive.txt.
mkdir "$tmp/tarball"
git -C "$src" archive HEAD cmake/git_archive.txt cmake/build_info.cmake | tar -x -C "$tmp/tarball"
info "$tmp/tarball" "$tmp/tarball.hpp"
expect "$tmp/tarball.hpp" "kGitRevision = \"$rev\""
expect "$tmp/tarball.hpp" "kCompatDataDate = \"$head_date\""
expect "$tmp/tarball.hpp" "the release commit"

# A plain copy: neither is known, and the header says so.
mkdir -p "$tmp/copy/cmake"
cp "$src/cmake/build_info.cmake" "$src/cmake/git_archive.txt" "$tmp/copy/cmake/"
info "$tmp/copy" "$tmp/copy.hpp"
expect "$tmp/copy.hpp" "kGitRevision = std::nullopt"
expect "$tmp/copy.hpp" "kCompatDataDate = std::nullopt"
# What a packager gives (-DGPUDOCTOR_GIT_REVISION, -DGPUDOCTOR_COMPAT_DATE) wins.
info "$tmp/copy" "$tmp/given.hpp" -DREVISION=0123456789ab -DCOMPAT_DATE=2026-01-02
expect "$tmp/given.hpp" "kGitRevision = \"0123456789ab\""
expect "$tmp/given.hpp" "kCompatDataDate = \"2026-01-02\""
# A date that is not one is not written.
info "$tmp/copy" "$tmp/bad.hpp" -DCOMPAT_DATE=yesterday
expect "$tmp/bad.hpp" "kCompatDataDate = std::nullopt"

if ((failures)); then exit 1; fi
echo "build_info_check: checkout, tarball, copy and given values pass"
