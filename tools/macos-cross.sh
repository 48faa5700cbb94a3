#!/usr/bin/env bash
# Cross-compiles and links the whole gpudoctor binary for macOS, arm64 and x86_64, with Zig's
# clang (PyPI: ziglang), and checks that each output is a Mach-O executable of its architecture.
# No Mac and no Apple SDK: Zig ships libSystem's headers and link stubs; everything else Apple
# (libobjc, Metal, MetalPerformanceShaders, OpenCL.framework) is opened at run time with dlopen,
# as every vendor library is, so nothing links against a framework.
#
#   tools/macos-cross.sh [BUILD_PREFIX]       default: build-macos (build-macos-arm64, -x86_64)
#   ARCHS=arm64 or ARCHS=x86_64 builds one; JOBS=N (default 2) parallel compiles.
#
# The header-only libraries (nlohmann-json, CLI11) and the OpenCL and Vulkan API headers come
# from this machine's Debian packages (packaging/install-deps.sh), through a directory that
# holds only them, so that no glibc header is ever seen by the macOS compile. It checks that the
# code compiles and links for the Mac, so it builds at -O0 (a third of the time of -O2) and as a
# unity build (CMAKE_UNITY_BUILD: one translation unit per library, so nlohmann-json and the
# model headers are parsed and instantiated 4 times instead of 200): about ten times faster.
# The price: two files' internal names (anonymous namespace, static) must differ.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-build-macos}
jobs=${JOBS:-2}
start=$(date +%s)

python=${PYTHON:-python3}
if ! "$python" -c 'import ziglang' 2>/dev/null; then
  "$python" -m pip install --quiet ziglang
fi
zig_dir=$("$python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')
zig="$zig_dir/zig"
echo "macos-cross: zig $("$zig" version)" >&2

# One directory with the third-party headers and nothing else from /usr/include.
stage="$PWD/$prefix-headers"
rm -rf "$stage"
mkdir -p "$stage/include" "$stage/cmake"
for d in nlohmann CLI CL vulkan vk_video; do
  if [ ! -d "/usr/include/$d" ]; then
    echo "macos-cross: /usr/include/$d is missing (packaging/install-deps.sh installs it)" >&2
    exit 1
  fi
  ln -s "/usr/include/$d" "$stage/include/$d"
done
# find_package() would hand the compile /usr/include; these configs point at the stage instead.
for pkg in nlohmann_json:nlohmann_json CLI11:CLI11; do
  name=${pkg%%:*}
  mkdir -p "$stage/cmake/$name"
  cat >"$stage/cmake/$name/${name}Config.cmake" <<EOF
if(NOT TARGET ${name}::${pkg##*:})
  add_library(${name}::${pkg##*:} INTERFACE IMPORTED)
  set_target_properties(${name}::${pkg##*:} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "$stage/include")
endif()
EOF
  echo 'set(PACKAGE_VERSION 99)
set(PACKAGE_VERSION_COMPATIBLE TRUE)' >"$stage/cmake/$name/${name}ConfigVersion.cmake"
done

build_one() {
  local arch=$1 target=$2 build="$prefix-$1"
  local wrappers="$PWD/$build-zig"
  mkdir -p "$wrappers"
  # CMake wants one executable per tool; each wrapper calls zig with the target.
  printf '#!/bin/sh\nexec "%s" cc -target %s "$@"\n' "$zig" "$target" >"$wrappers/cc"
  printf '#!/bin/sh\nexec "%s" c++ -target %s "$@"\n' "$zig" "$target" >"$wrappers/c++"
  printf '#!/bin/sh\nexec "%s" ar "$@"\n' "$zig" >"$wrappers/ar"
  printf '#!/bin/sh\nexec "%s" ranlib "$@"\n' "$zig" >"$wrappers/ranlib"
  chmod +x "$wrappers"/*
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
                                            -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$build" -G Ninja \
    -DCMAKE_SYSTEM_NAME=Darwin -DCMAKE_SYSTEM_PROCESSOR="$arch" \
    -DCMAKE_C_COMPILER="$wrappers/cc" -DCMAKE_CXX_COMPILER="$wrappers/c++" \
    -DCMAKE_AR="$wrappers/ar" -DCMAKE_RANLIB="$wrappers/ranlib" \
    -DCMAKE_OSX_SYSROOT=/ -DCMAKE_OSX_DEPLOYMENT_TARGET= \
    -Dnlohmann_json_DIR="$stage/cmake/nlohmann_json" -DCLI11_DIR="$stage/cmake/CLI11" \
    -DOPENCL_INCLUDE_DIR="$stage/include" -DVULKAN_INCLUDE_DIR="$stage/include" \
    -DCMAKE_BUILD_TYPE=CrossCheck -DCMAKE_CXX_FLAGS_CROSSCHECK=-O0 -DCMAKE_C_FLAGS_CROSSCHECK=-O0 \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=${UNITY_BATCH:-0} \
    -DGPUDOCTOR_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
  cmake --build "$build" -j "$jobs" --target gpudoctor -- -k 0
  "$python" tools/macho_arch.py "$build/gpudoctor" "$arch"
}

archs=${ARCHS:-arm64 x86_64}
for arch in $archs; do
  case $arch in
    arm64) build_one arm64 aarch64-macos ;;
    x86_64) build_one x86_64 x86_64-macos ;;
    *) echo "macos-cross: unknown architecture $arch (arm64, x86_64)" >&2; exit 2 ;;
  esac
done
echo "macos-cross: $archs built and checked in $(($(date +%s) - start)) s" >&2
