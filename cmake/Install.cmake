# Install.cmake - the man page, `cmake --install` and the Debian package (CPack)
#
#   cmake --install build --prefix /usr/local     bin/jobfix, share/man/man1/jobfix.1.gz,
#                                                 share/doc/jobfix/
#   (cd build && cpack)                           build/jobfix_<version>_<arch>.deb

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

# The licenses of what is linked into the binary: jobfix and the tree-sitter
# packages fetched into build/third_party (ThirdParty.cmake), and a Debian
# copyright file that gathers them.
set(jf_copyright "jobfix ${PROJECT_VERSION}\n\n")
file(READ ${PROJECT_SOURCE_DIR}/LICENSE jf_license)
string(APPEND jf_copyright "${jf_license}\n")
foreach(pkg tree-sitter tree-sitter-python tree-sitter-bash @tree-sitter-grammars/tree-sitter-toml)
  set(dir ${JF_TP_DIR}/node_modules/${pkg})
  get_filename_component(name ${pkg} NAME)
  if(NOT EXISTS ${dir}/LICENSE)
    message(FATAL_ERROR "jobfix: ${dir}/LICENSE not found: the npm package changed its layout")
  endif()
  file(READ ${dir}/package.json json)
  string(JSON version GET "${json}" version)
  file(READ ${dir}/LICENSE text)
  string(STRIP "${text}" text)
  string(APPEND jf_copyright
    "\n--------------------------------------------------------------------------------\n"
    "${pkg} ${version}, from the npm package of that name, is built into jobfix\n"
    "(LICENSE.${name}):\n\n${text}\n")
  configure_file(${dir}/LICENSE ${CMAKE_BINARY_DIR}/licenses/LICENSE.${name} COPYONLY)
  list(APPEND jf_licenses ${CMAKE_BINARY_DIR}/licenses/LICENSE.${name})
endforeach()
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/licenses/copyright CONTENT "${jf_copyright}" @ONLY)

install(TARGETS jobfix-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
              ${CMAKE_BINARY_DIR}/licenses/copyright ${jf_licenses}
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package. dpkg-shlibdeps (package dpkg-dev) computes Depends from
# the binary's shared libraries; without it, Debian 12's runtime libraries are
# named explicitly.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME jobfix)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The jobfix authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "linter for deep-learning training jobs")
set(CPACK_PACKAGE_DESCRIPTION
  "jobfix reads a training job's spec, launch shell scripts and Python code and
checks them against each other and against the container the job will run
in: developer-machine paths, missing scripts, pip install without root,
TensorFlow graph misuse, flags the code does not accept, more processes than
GPUs, syntax errors. It never runs the code it reads.")
set(JF_DEB_MAINTAINER "The jobfix authors <jobfix@invalid>" CACHE STRING
  "the Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${JF_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# CPack's shlibdeps support runs both dpkg-shlibdeps and file(1).
find_program(JF_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(JF_FILE file)
if(JF_DPKG_SHLIBDEPS AND JF_FILE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libyaml-0-2, libpcre2-8-0 (>= 10.32), zlib1g")
  if(JF_ALLOCATOR)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libmimalloc2.0")
  endif()
endif()
include(CPack)
