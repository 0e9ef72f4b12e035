# Install.cmake - the man page

include(GNUInstallDirs)

# The man page jobfix(1), from docs/jobfix.1.md (go-md2man), gzipped as Debian wants.
option(JF_MAN "build the man page from docs/jobfix.1.md (needs go-md2man)" ON)
if(JF_MAN)
  find_program(JF_GO_MD2MAN go-md2man)
  if(NOT JF_GO_MD2MAN)
    message(FATAL_ERROR "jobfix: go-md2man not found: install the Debian package 'go-md2man' "
                        "(or configure with -DJF_MAN=OFF)")
  endif()
  set(JF_MAN_DIR ${CMAKE_BINARY_DIR}/man)
  configure_file(${PROJECT_SOURCE_DIR}/docs/jobfix.1.md ${JF_MAN_DIR}/jobfix.1.md @ONLY)
  add_custom_command(
    OUTPUT ${JF_MAN_DIR}/jobfix.1 ${JF_MAN_DIR}/jobfix.1.gz
    COMMAND ${JF_GO_MD2MAN} -in ${JF_MAN_DIR}/jobfix.1.md -out ${JF_MAN_DIR}/jobfix.1
    COMMAND gzip -9 -n -k -f ${JF_MAN_DIR}/jobfix.1
    DEPENDS ${JF_MAN_DIR}/jobfix.1.md
    COMMENT "Building the man page jobfix(1)"
    VERBATIM)
  add_custom_target(man ALL DEPENDS ${JF_MAN_DIR}/jobfix.1 ${JF_MAN_DIR}/jobfix.1.gz)
  install(FILES ${JF_MAN_DIR}/jobfix.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
