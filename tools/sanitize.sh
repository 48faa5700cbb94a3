#!/usr/bin/env bash
# Builds gpudoctor and its test suite with AddressSanitizer and UndefinedBehaviorSanitizer
# (GPUDOCTOR_SANITIZE, see cmake/sanitizers.cmake) and runs the whole suite under them.
#
#   tools/sanitize.sh [BUILD_DIR] [ctest arguments...]      default build dir: build-asan
#
# A memory error, a leak or undefined behaviour in gpudoctor fails the test that hit it. The
# isolated children that crash on purpose (tests/fakes) still die of their signal: the
# isolator sets ASan's default options so (probes/core/isolate.cpp), and the fakes are plain C,
# built without sanitizers, like the drivers they stand for. Uses clang when installed (Debian:
# clang), else the default compiler, which builds the same but about three times slower.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
shift || true
jobs=${JOBS:-$(nproc)}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# clang instruments at about a third of the cost of g++ -O2 (UBSan makes g++ slow on the JSON
# model code); -O1 -g1 is what the sanitizers' own docs suggest: fast enough, exact lines.
compiler=()
if [ -z "${CXX:-}" ] && command -v clang++ >/dev/null; then
  compiler=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
fi

start=$(date +%s)
cmake -S . -B "$build" -G Ninja -DGPUDOCTOR_SANITIZE=address,undefined \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" "${compiler[@]}" "${launcher[@]}" \
  >/dev/null
cmake --build "$build" -j "$jobs"
built=$(date +%s)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" "$@" || status=$?
echo "sanitize: build $((built - start)) s, tests $(($(date +%s) - built)) s, ctest exit $status" >&2
exit "$status"
