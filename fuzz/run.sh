#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs each for a fixed
# time on a corpus seeded from tests/fixtures (copied at run time into build-fuzz/corpus/,
# never committed), then prints executions per second and runs per target.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 s, every target
#
# A crashing input is saved as build-fuzz/artifacts/<target>-crash-<sha1>; reproduce it with
# build-fuzz/fuzz/fuzz_<target> <file>. Exit status 1 when any target found something.
# Needs clang and libclang-rt-dev (Debian: clang-14, libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=build-fuzz
fixtures=tests/fixtures

if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DGPUDOCTOR_FUZZ=ON -DGPUDOCTOR_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target gpudoctor_fuzz

all_targets=$(sed -n '/^set(GPUDOCTOR_FUZZ_TARGETS/,/)/p' fuzz/CMakeLists.txt |
  sed 's/set(GPUDOCTOR_FUZZ_TARGETS//; s/)//' | tr -s ' \n' ' ')
targets=${*:-$all_targets}

# find(1) name patterns of the fixture files that seed each target.
seed_names() {
  case $1 in
    snapshot) echo '*.json' ;;
    json_pull) echo '*.json' ;;
    icd_file) echo '*.icd' ;;
    vulkan_manifest) echo '*_icd*.json' ;;
    python_metadata) echo 'METADATA PKG-INFO WHEEL' ;;
    python_frameworks) echo 'version.py build_info.py keras.json' ;;
    python_env_files) echo 'pyvenv.cfg environments.txt python3* *.json' ;;
    host_files) echo 'os-release cpuinfo meminfo cgroup mountinfo osrelease version sys_vendor product_name' ;;
    pci_sysfs) echo '*_link_speed *_link_width numa_node class vendor device boot_vga revision' ;;
    modules_alias) echo 'modalias modules.alias' ;;
    nvidia_kernel) echo 'version modules cmdline group *.conf SecureBoot-*' ;;
    nvidia_toolkit) echo 'version.json version.txt *.h libcuda.so* libcudart.so*' ;;
    versions) echo 'version' ;;
    ld_config) echo 'ld.so.conf *.conf' ;;
    system_profiler) echo '*system_profiler* *SPDisplays* *sysctl* *sw_vers* .plaidml' ;;
    accounts) echo 'status passwd group' ;;
    kfd_topology) echo 'properties version' ;;
    elf_sections|fatbin|offload_bundle) echo 'lib*.so*' ;;
    paste) echo '*.txt' ;;
  esac
}

# The registrations of this machine's drivers are real files too: they seed the two targets
# whose formats no fixture holds.
system_seeds() {
  case $1 in
    icd_file) ls /etc/OpenCL/vendors/*.icd 2>/dev/null || true ;;
    vulkan_manifest) ls /usr/share/vulkan/icd.d/*.json 2>/dev/null || true ;;
  esac
}

seed() {
  local target=$1 corpus=$2 n=0 f
  for name in $(seed_names "$target"); do
    while IFS= read -r -d '' f; do
      cp "$f" "$corpus/seed-$((n++))"
    done < <(find "$fixtures" -type f -name "$name" -size -256k -print0)
  done
  for f in $(system_seeds "$target"); do cp "$f" "$corpus/seed-$((n++))"; done
  # Names and versions are parsed from file names as well as from contents.
  if [ "$target" = python_env_files ] || [ "$target" = nvidia_toolkit ] || [ "$target" = versions ]; then
    find "$fixtures" -type f -printf '%f\n' | sort -u | while IFS= read -r f; do
      printf '%s\n' "$f" >"$corpus/name-$(printf '%s' "$f" | sha1sum | cut -c1-12)"
    done
  fi
}

mkdir -p "$build/artifacts"
summary=()
status=0
for target in $targets; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  seed "$target" "$corpus"
  dict=()
  [ -f "fuzz/dict/$target.dict" ] && dict=(-dict="fuzz/dict/$target.dict")
  log="$build/artifacts/$target.log"
  echo "fuzz: $target for ${seconds}s ($(ls "$corpus" | wc -l) inputs in $corpus)" >&2
  rm -f "$build/artifacts/$target-"{crash,leak,timeout,oom,slow-unit}-*
  rc=0
  "$build/fuzz/fuzz_$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$target-" >"$log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  found=$( (ls "$build/artifacts/$target-"{crash,leak,timeout,oom,slow-unit}-* 2>/dev/null || true) | wc -l)
  [ "$rc" -ne 0 ] && status=1
  summary+=("$(printf '%-18s %12s runs %8s exec/s  exit %d  saved inputs %s' "$target" "${runs:-?}" "${rate:-?}" "$rc" "$found")")
done
printf '%s\n' "${summary[@]}"
exit "$status"
