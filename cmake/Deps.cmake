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

# mimalloc (Debian: libmimalloc-dev) replaces the C library's malloc in the jobfix binary
# and the parse-only benchmark: tree-sitter allocates and frees a node at a time, and a
# lint runs 10-20% faster on it. Optional: without it (or with -DJF_MIMALLOC=OFF, and
# always under sanitizers, which bring their own) the binary uses the C library's.
option(JF_MIMALLOC "link mimalloc as the allocator when it is installed" ON)
set(JF_ALLOCATOR "")
if(JF_MIMALLOC AND NOT JF_SANITIZE AND NOT JF_FUZZ)
  find_package(mimalloc CONFIG QUIET)
  if(mimalloc_FOUND)
    set(JF_ALLOCATOR mimalloc)
  else()
    message(STATUS "jobfix: mimalloc not found (Debian package 'libmimalloc-dev'): "
                   "the binary uses the C library's malloc")
  endif()
endif()
