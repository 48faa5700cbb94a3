# What `cmake --install` puts where (GNUInstallDirs), in install components:
#   gpudoctor  the binary, bash/zsh/fish completions, the report schema, README, docs/, NOTICE
#   man        gpudoctor(1), its paths written for the prefix the install is run with
#   license    LICENSE in the doc directory
#   deb, package-man  (not in a plain install) the man page as the packages install it (under
#              /usr), and what the Debian package has instead of man and license: the man page
#              gzipped, the copyright file, the changelog; see packaging.cmake
#
# The man page and completions are written at build time by gpudoctor-gendocs, which reads the
# program's own CLI, backend registry and check list (src/manual/), so they cannot drift.
add_executable(gpudoctor-gendocs app/gendocs_main.cpp)
target_link_libraries(gpudoctor-gendocs PRIVATE gpudoctor_app)
add_dependencies(gpudoctor-gendocs gpudoctor_build_info)

set(GPUDOCTOR_MANUAL_DIR ${CMAKE_CURRENT_BINARY_DIR}/manual)
set(GPUDOCTOR_SCHEMA_DIR ${CMAKE_INSTALL_DATADIR}/gpudoctor)
set(GPUDOCTOR_MANUAL_FILES ${GPUDOCTOR_MANUAL_DIR}/gpudoctor.1 ${GPUDOCTOR_MANUAL_DIR}/gpudoctor.bash
                           ${GPUDOCTOR_MANUAL_DIR}/_gpudoctor ${GPUDOCTOR_MANUAL_DIR}/gpudoctor.fish)
add_custom_command(
  OUTPUT ${GPUDOCTOR_MANUAL_FILES}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${GPUDOCTOR_MANUAL_DIR}
  COMMAND gpudoctor-gendocs ${GPUDOCTOR_MANUAL_DIR} ${CMAKE_INSTALL_FULL_DATADIR}/gpudoctor
          ${CMAKE_INSTALL_FULL_DOCDIR}
  DEPENDS gpudoctor-gendocs
  COMMENT "Writing the man page and shell completions from the program"
  VERBATIM)
# The man page names the files installed with it (the report schema, the docs), and `cmake
# --install --prefix DIR` (or DESTDIR, or a packager's prefix) may put them elsewhere than the
# prefix the tree was configured with. So the page installed is written at install time from a
# template whose two paths are placeholders, with the prefix the install is run with.
set(GPUDOCTOR_MANUAL_TEMPLATE ${CMAKE_CURRENT_BINARY_DIR}/manual-template/gpudoctor.1)
add_custom_command(
  OUTPUT ${GPUDOCTOR_MANUAL_TEMPLATE}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/manual-template
  COMMAND gpudoctor-gendocs ${CMAKE_CURRENT_BINARY_DIR}/manual-template @GPUDOCTOR_SCHEMA_DIR@
          @GPUDOCTOR_DOC_DIR@
  DEPENDS gpudoctor-gendocs
  COMMENT "Writing the man page's template for the install prefix"
  VERBATIM)
add_custom_target(gpudoctor_manual ALL DEPENDS ${GPUDOCTOR_MANUAL_FILES} ${GPUDOCTOR_MANUAL_TEMPLATE})

install(TARGETS gpudoctor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gpudoctor)
install(CODE "set(GPUDOCTOR_MANUAL_TEMPLATE \"${GPUDOCTOR_MANUAL_TEMPLATE}\")
  set(GPUDOCTOR_MANUAL_STAGE \"${CMAKE_CURRENT_BINARY_DIR}/manual-install\")
  set(GPUDOCTOR_DATADIR \"${CMAKE_INSTALL_DATADIR}\")
  set(GPUDOCTOR_DOCDIR \"${CMAKE_INSTALL_DOCDIR}\")
  set(GPUDOCTOR_MANDIR \"${CMAKE_INSTALL_MANDIR}\")
  include(\"${CMAKE_CURRENT_SOURCE_DIR}/cmake/install_manual.cmake\")" COMPONENT man)
# Where each shell looks for completions it was not told about: bash-completion's
# completionsdir, zsh's site-functions, fish's vendor_completions.d.
install(FILES ${GPUDOCTOR_MANUAL_DIR}/gpudoctor.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gpudoctor
        COMPONENT gpudoctor)
install(FILES ${GPUDOCTOR_MANUAL_DIR}/_gpudoctor DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions
        COMPONENT gpudoctor)
install(FILES ${GPUDOCTOR_MANUAL_DIR}/gpudoctor.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT gpudoctor)
install(FILES schema/report.schema.json DESTINATION ${GPUDOCTOR_SCHEMA_DIR} COMPONENT gpudoctor)
install(FILES README.md NOTICE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT gpudoctor)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT gpudoctor
        FILES_MATCHING PATTERN "*.md")
install(FILES LICENSE packaging/third-party-licenses.txt DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT license)
