# What `cmake --install` puts where (GNUInstallDirs), in install components:
#   gpudoctor  the binary, bash/zsh/fish completions, the report schema, README, docs/, NOTICE
#   man        gpudoctor(1), as generated
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
add_custom_target(gpudoctor_manual ALL DEPENDS ${GPUDOCTOR_MANUAL_FILES})

install(TARGETS gpudoctor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gpudoctor)
install(FILES ${GPUDOCTOR_MANUAL_DIR}/gpudoctor.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT man)
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
