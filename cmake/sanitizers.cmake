# Sanitizer and fuzzing builds (tools/sanitize.sh, fuzz/run.sh).
#
# GPUDOCTOR_SANITIZE: OFF, ON (= address,undefined) or any -fsanitize= list. Only C++ is
# instrumented: the fake vendor drivers under tests/fakes are C and stay plain, as real drivers
# are, so that a fake that misbehaves on purpose meets gpudoctor's own defences, not ASan's.
# Undefined behaviour aborts (-fno-sanitize-recover) so that a test that hits it fails.
#
# GPUDOCTOR_FUZZ: builds the libFuzzer targets in fuzz/ (clang only), with src/ instrumented
# for coverage and, unless GPUDOCTOR_SANITIZE says otherwise, ASan and UBSan.
set(GPUDOCTOR_SANITIZE OFF CACHE STRING "OFF, ON (address,undefined) or a -fsanitize= list")
option(GPUDOCTOR_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)

set(GPUDOCTOR_SANITIZERS "")
if(GPUDOCTOR_SANITIZE MATCHES "^(ON|On|on|TRUE|True|true|YES|Yes|yes|1)$")
  set(GPUDOCTOR_SANITIZERS address,undefined)
elseif(GPUDOCTOR_SANITIZE)
  set(GPUDOCTOR_SANITIZERS ${GPUDOCTOR_SANITIZE})
endif()

if(GPUDOCTOR_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GPUDOCTOR_FUZZ needs clang (libFuzzer): "
                        "-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
  endif()
  if(NOT GPUDOCTOR_SANITIZERS)
    set(GPUDOCTOR_SANITIZERS address,undefined)
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
endif()

if(GPUDOCTOR_SANITIZERS)
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${GPUDOCTOR_SANITIZERS};-fno-sanitize-recover=all;-fno-omit-frame-pointer>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fsanitize=${GPUDOCTOR_SANITIZERS}>")
  if(GPUDOCTOR_SANITIZERS MATCHES "address")
    add_compile_definitions(GPUDOCTOR_ASAN)  # probes/core/isolate.cpp: ASan's default options
  endif()
endif()
