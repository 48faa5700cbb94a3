#!/usr/bin/env bash
# Checks that every target still compiles as ONE translation unit (CMAKE_UNITY_BUILD_BATCH_SIZE
# 0), the superset of every batching the default build (16 sources a unit) can produce: two
# helpers with internal linkage and the same name in one library or one test executable clash
# here whatever the batches. Syntax only, so it takes a minute or two, not a build.
#
#   tools/unity-check.sh [BUILD_DIR]          default build dir: build-unity-check
#
# A clash is fixed by a more specific name, or in a test file by naming the file's namespace
# after the file (namespace paste_test { … } instead of namespace { … }).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-unity-check}
compiler=()
if [ -z "${CXX:-}" ] && command -v clang++ >/dev/null; then
  compiler=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0 "${compiler[@]}" >/dev/null
# The generated sources (embedded tables, SPIR-V, build_info.hpp) the units include.
generated=$(ninja -C "$build" -t targets all | grep -oE '^(generated/[^:]+|[^:]*build_info\.hpp)' | sort -u)
# shellcheck disable=SC2086
ninja -C "$build" $generated >/dev/null
status=0
while IFS= read -r unit; do
  rel=${unit#"$build"/}
  cmd=$(ninja -C "$build" -t commands "$rel.o" | tail -1)
  cmd=${cmd#*ccache }
  cmd=$(sed -E 's/ -o [^ ]+ / /; s/ -MD -MT [^ ]+ -MF [^ ]+ / /' <<<"$cmd")
  if ! out=$(cd "$build" && eval "$cmd -fsyntax-only -ferror-limit=0" 2>&1); then
    status=1
  fi
  errors=$(grep -E 'error:' <<<"$out" || true)
  if [ -n "$errors" ]; then
    echo "unity-check: ${rel%%.dir/*}:" >&2
    echo "$errors" >&2
  fi
done < <(find "$build" -path '*/Unity/unity_*_cxx.cxx' | sort)
if [ "$status" -eq 0 ]; then echo "unity-check: every target compiles as one unit" >&2; fi
exit "$status"
