# Link-time hardening for the binaries (lintian: hardening-no-bindnow): the relocation tables
# read-only after start (-z relro) and every symbol bound at start (-z now). gpudoctor runs as
# root on every node of a cluster and parses output it does not control. Sanitizer builds keep
# their own instrumentation instead.
if(NOT GPUDOCTOR_SANITIZERS AND CMAKE_SYSTEM_NAME STREQUAL "Linux"
   AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  add_link_options(-Wl,-z,relro,-z,now)
endif()
