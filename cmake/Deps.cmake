# Deps.cmake - system libraries through pkg-config; a missing one names its Debian package

find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "jobfix: pkg-config not found: install the Debian package 'pkg-config'")
endif()

function(jf_require_pkg target module debian_pkg)
  pkg_check_modules(${target} QUIET IMPORTED_TARGET ${module})
  if(NOT ${target}_FOUND)
    message(FATAL_ERROR "jobfix: ${module} not found: install the Debian package '${debian_pkg}'")
  endif()
endfunction()

jf_require_pkg(YAML yaml-0.1 libyaml-dev)
jf_require_pkg(PCRE2 libpcre2-8 libpcre2-dev)
jf_require_pkg(ZLIB zlib zlib1g-dev)
if(JF_TESTS)
  jf_require_pkg(CMOCKA cmocka libcmocka-dev)
endif()
