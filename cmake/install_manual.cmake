# Run by `cmake --install` (component man): writes gpudoctor(1) from its template with the paths
# of the prefix this install is run with (`--prefix`, or the configured CMAKE_INSTALL_PREFIX),
# and installs it (DESTDIR applies). Set by the caller: GPUDOCTOR_MANUAL_TEMPLATE,
# GPUDOCTOR_MANUAL_STAGE, and GNUInstallDirs' DATADIR, DOCDIR, MANDIR as configured (relative to
# the prefix unless absolute).
foreach(dir DATADIR DOCDIR MANDIR)
  if(IS_ABSOLUTE "${GPUDOCTOR_${dir}}")
    set(full_${dir} "${GPUDOCTOR_${dir}}")
  else()
    set(full_${dir} "${CMAKE_INSTALL_PREFIX}/${GPUDOCTOR_${dir}}")
  endif()
endforeach()
# In roff a backslash is written \e (src/manual/man_page.cpp, roff()).
string(REPLACE "\\" "\\e" schema_dir "${full_DATADIR}/gpudoctor")
string(REPLACE "\\" "\\e" doc_dir "${full_DOCDIR}")
file(READ "${GPUDOCTOR_MANUAL_TEMPLATE}" page)
string(REPLACE "@GPUDOCTOR_SCHEMA_DIR@" "${schema_dir}" page "${page}")
string(REPLACE "@GPUDOCTOR_DOC_DIR@" "${doc_dir}" page "${page}")
file(WRITE "${GPUDOCTOR_MANUAL_STAGE}/gpudoctor.1" "${page}")
file(INSTALL DESTINATION "${full_MANDIR}/man1" TYPE FILE FILES "${GPUDOCTOR_MANUAL_STAGE}/gpudoctor.1")
