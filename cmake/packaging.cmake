# CPack: a .deb and an .rpm of what `cmake --install` installs (cmake/install.cmake).
#   cpack -G DEB    (packaging/check-packages.sh builds it, runs lintian, installs it and runs it)
#   cpack -G RPM    (needs rpmbuild: Debian's package rpm)
# Run-time dependencies are not written by hand: dpkg-shlibdeps (DEB) and rpmbuild's
# find-requires (RPM) read them from the binary (libpci, libstdc++, libc). What gpudoctor opens
# with dlopen at run time no tool can see; those are weak dependencies: the OpenCL ICD loader,
# the Vulkan loader, OpenBLAS for the CPU baseline of `bench`. Without them gpudoctor reports
# the API as missing, which is a finding, not a failure to run.
set(GPUDOCTOR_PACKAGE_CONTACT "gpudoctor maintainers <maintainers@users.noreply.a-seed-18a02c6e.example>"
    CACHE STRING "Maintainer of the packages: name <address>")

set(CPACK_PACKAGE_NAME gpudoctor)
set(CPACK_PACKAGE_VENDOR "the gpudoctor authors")
set(CPACK_PACKAGE_CONTACT "${GPUDOCTOR_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "diagnose the GPU compute stack and say what to fix")
set(CPACK_PACKAGE_DESCRIPTION_FILE ${CMAKE_CURRENT_SOURCE_DIR}/packaging/description.txt)
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_FILE_NAME
    "${CPACK_PACKAGE_NAME}_${PROJECT_VERSION}_${CMAKE_SYSTEM_PROCESSOR}")

# DEB
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ocl-icd-libopencl1, libvulkan1, libopenblas0")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# RPM: the weak dependencies name the library each package provides ("libOpenCL.so.1()(64bit)"),
# so that they hold on every RPM distribution whatever it calls the package. They go in as
# spec lines: CMake 3.25's CPACK_RPM_PACKAGE_SUGGESTS is dropped with rpm 4.18, whose
# `rpm --suggests` (CPack's probe for weak dependencies) fails outside a query.
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE "Apache-2.0")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
if(CMAKE_SIZEOF_VOID_P EQUAL 8)
  set(CPACK_RPM_SPEC_MORE_DEFINE
      "Recommends: libOpenCL.so.1()(64bit)\nRecommends: libvulkan.so.1()(64bit)\nRecommends: libopenblas.so.0()(64bit)")
endif()
# Directories the distribution's own packages (filesystem, bash-completion, zsh, fish) own.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION)
foreach(dir ${CMAKE_INSTALL_MANDIR} ${CMAKE_INSTALL_MANDIR}/man1 ${CMAKE_INSTALL_DATADIR}/bash-completion
            ${CMAKE_INSTALL_DATADIR}/bash-completion/completions ${CMAKE_INSTALL_DATADIR}/zsh
            ${CMAKE_INSTALL_DATADIR}/zsh/site-functions ${CMAKE_INSTALL_DATADIR}/fish
            ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d ${CMAKE_INSTALL_DATADIR}/doc)
  list(APPEND CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION ${CPACK_PACKAGING_INSTALL_PREFIX}/${dir})
endforeach()

# The Debian package takes the `deb` component in place of `man` and `license`: Debian wants
# man pages gzipped (policy 12.1), the license in /usr/share/doc/gpudoctor/copyright and not
# again beside it (lintian: extra-license-file), and a changelog.
# The packages install under /usr, not CMAKE_INSTALL_PREFIX: their man page names the files
# where the package puts them, so it is written a second time for that prefix.
set(GPUDOCTOR_PACKAGE_MANUAL_DIR ${CMAKE_CURRENT_BINARY_DIR}/manual-package)
add_custom_command(
  OUTPUT ${GPUDOCTOR_PACKAGE_MANUAL_DIR}/gpudoctor.1
  COMMAND ${CMAKE_COMMAND} -E make_directory ${GPUDOCTOR_PACKAGE_MANUAL_DIR}
  COMMAND gpudoctor-gendocs ${GPUDOCTOR_PACKAGE_MANUAL_DIR}
          ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/gpudoctor
          ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/doc/gpudoctor
  DEPENDS gpudoctor-gendocs
  COMMENT "Writing the man page for the packages (prefix ${CPACK_PACKAGING_INSTALL_PREFIX})"
  VERBATIM)
add_custom_target(gpudoctor_package_manual ALL DEPENDS ${GPUDOCTOR_PACKAGE_MANUAL_DIR}/gpudoctor.1)
install(FILES ${GPUDOCTOR_PACKAGE_MANUAL_DIR}/gpudoctor.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT package-man EXCLUDE_FROM_ALL)

set(GPUDOCTOR_DEB_DIR ${CMAKE_CURRENT_BINARY_DIR}/deb)
find_program(GPUDOCTOR_GZIP gzip)
if(GPUDOCTOR_GZIP)
  execute_process(COMMAND git -C ${CMAKE_CURRENT_SOURCE_DIR} log -1 --format=%cD HEAD
                  OUTPUT_VARIABLE GPUDOCTOR_CHANGELOG_DATE OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(NOT GPUDOCTOR_CHANGELOG_DATE)
    string(TIMESTAMP GPUDOCTOR_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
  endif()
  configure_file(packaging/debian/changelog.in ${GPUDOCTOR_DEB_DIR}/changelog @ONLY)
  add_custom_command(
    OUTPUT ${GPUDOCTOR_DEB_DIR}/gpudoctor.1.gz ${GPUDOCTOR_DEB_DIR}/changelog.gz
    COMMAND ${GPUDOCTOR_GZIP} -9nc ${GPUDOCTOR_PACKAGE_MANUAL_DIR}/gpudoctor.1 > gpudoctor.1.gz
    COMMAND ${GPUDOCTOR_GZIP} -9nc changelog > changelog.gz
    DEPENDS ${GPUDOCTOR_PACKAGE_MANUAL_DIR}/gpudoctor.1 ${GPUDOCTOR_DEB_DIR}/changelog
    WORKING_DIRECTORY ${GPUDOCTOR_DEB_DIR}
    COMMENT "Compressing the man page and changelog for the Debian package")
  add_custom_target(gpudoctor_deb_files ALL
                    DEPENDS ${GPUDOCTOR_DEB_DIR}/gpudoctor.1.gz ${GPUDOCTOR_DEB_DIR}/changelog.gz)
  install(FILES ${GPUDOCTOR_DEB_DIR}/gpudoctor.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          COMPONENT deb EXCLUDE_FROM_ALL)
  install(FILES ${GPUDOCTOR_DEB_DIR}/changelog.gz packaging/debian/copyright
          DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT deb EXCLUDE_FROM_ALL)
  # The one lintian tag gpudoctor overrides, with its reason (packaging/debian/lintian-overrides).
  install(FILES packaging/debian/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
          RENAME gpudoctor COMPONENT deb EXCLUDE_FROM_ALL)
  # What dh_strip also drops: the compilers' .comment section (lintian:
  # binary-has-unneeded-section). CPack strips the symbols afterwards.
  if(CMAKE_OBJCOPY)
    install(CODE "execute_process(COMMAND \"${CMAKE_OBJCOPY}\" --remove-section=.comment
                    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/gpudoctor\")"
            COMPONENT deb EXCLUDE_FROM_ALL)
  endif()
endif()

configure_file(packaging/cpack_project.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/cpack_project.cmake @ONLY)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_BINARY_DIR}/cpack_project.cmake)
set(CPACK_GENERATOR DEB)
include(CPack)
