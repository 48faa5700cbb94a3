# The probe files that differ by OS (DESIGN "Platforms differ by file"). macOS has no libpci
# and no sysfs: the PCI probe gets its stub and the macos probe runs system_profiler, sysctl
# and sw_vers. Elsewhere the macos probe only reads outputs recorded in a --sysroot tree.
if(APPLE)
  set(GPUDOCTOR_PLATFORM_SOURCES probes/pci/pci_none.cpp probes/macos/macos_platform_apple.cpp
      probes/core/child_guard_none.cpp probes/core/root_open_none.cpp
      probes/core/signal_fence_none.cpp
      probes/core/host_platform_apple.cpp)
  set(GPUDOCTOR_PLATFORM_LIBS)
else()
  pkg_check_modules(LIBPCI REQUIRED IMPORTED_TARGET libpci)
  set(GPUDOCTOR_PLATFORM_SOURCES probes/pci/pci_libpci.cpp probes/macos/macos_platform_none.cpp
      probes/core/child_guard_linux.cpp probes/core/root_open_linux.cpp
      probes/core/signal_fence_linux.cpp
      probes/core/host_platform_other.cpp)
  set(GPUDOCTOR_PLATFORM_LIBS PkgConfig::LIBPCI)
endif()
