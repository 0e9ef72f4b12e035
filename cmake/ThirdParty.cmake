# ThirdParty.cmake - fetch the pinned tree-sitter packages and build them as static libraries
#
# third_party/package.json and package-lock.json pin the exact versions and integrity
# hashes. `npm ci --ignore-scripts` unpacks them into the build tree (never into the
# source tree); nothing of theirs is committed. It runs again only when the lock changes.
# The tests fetch their own tools the same way (tests/node/, with jf_npm_ci).

find_program(JF_NPM npm)
if(NOT JF_NPM)
  message(FATAL_ERROR "jobfix: npm not found: install the Debian packages 'nodejs' and 'npm'")
endif()

# jf_npm_ci(SRC DEST WHAT): unpacks the packages pinned by SRC/package.json and
# SRC/package-lock.json into DEST/node_modules with `npm ci`, again only when
# the lock changes. WHAT names them in messages.
function(jf_npm_ci src dest what)
  file(SHA256 ${src}/package-lock.json lock_hash)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src}/package-lock.json)
  set(stamp ${dest}/.fetched-${lock_hash})
  if(EXISTS ${stamp})
    return()
  endif()
  file(REMOVE_RECURSE ${dest})
  file(MAKE_DIRECTORY ${dest})
  file(COPY ${src}/package.json ${src}/package-lock.json DESTINATION ${dest})
  message(STATUS "jobfix: fetching ${what} (npm ci)")
  execute_process(
    COMMAND ${JF_NPM} ci --ignore-scripts --no-audit --no-fund --loglevel=error
    WORKING_DIRECTORY ${dest}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "jobfix: 'npm ci' failed in ${dest}:\n${out}")
  endif()
  file(TOUCH ${stamp})
endfunction()

set(JF_TP_DIR ${CMAKE_BINARY_DIR}/third_party)
jf_npm_ci(${PROJECT_SOURCE_DIR}/third_party ${JF_TP_DIR} "pinned tree-sitter packages")

set(jf_nm ${JF_TP_DIR}/node_modules)
set(jf_ts ${jf_nm}/tree-sitter/vendor/tree-sitter/lib)

# Profile feedback for tree-sitter and the Python grammar (TreeSitterPgo.cmake): with GCC,
# in an optimised build without sanitizers, where a Python standard library is there to
# train on. Elsewhere (and with -DJF_PGO=OFF) they are built as plain static libraries.
option(JF_PGO "build tree-sitter and the Python grammar with GCC's profile feedback" ON)
set(jf_pgo_corpus "")
if(JF_PGO AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT JF_SANITIZE AND NOT JF_FUZZ
   AND NOT CMAKE_CROSSCOMPILING AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
  find_program(JF_PYTHON3 python3)
  if(JF_PYTHON3)
    execute_process(COMMAND ${JF_PYTHON3} -c "import sysconfig; print(sysconfig.get_paths()['stdlib'])"
      OUTPUT_VARIABLE jf_pgo_corpus OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  set(jf_pgo_files "")
  if(IS_DIRECTORY "${jf_pgo_corpus}")
    file(GLOB_RECURSE jf_pgo_files ${jf_pgo_corpus}/*.py)
    list(FILTER jf_pgo_files EXCLUDE REGEX "/(site-packages|dist-packages|test|tests)/")
  endif()
  list(LENGTH jf_pgo_files jf_pgo_count)
  # TreeSitterPgo.cmake trains on the files after the first 400 (a minimal
  # Python, such as Debian's python3-minimal alone, has too few).
  if(jf_pgo_count LESS 500)
    set(jf_pgo_corpus "")
    message(STATUS "jobfix: no Python standard library (python3) to train tree-sitter's "
                   "profile on: tree-sitter is built without profile feedback")
  endif()
endif()

# The grammars: Python, bash, and TOML (pyproject.toml) from tree-sitter-grammars.
foreach(pkg tree-sitter-python tree-sitter-bash @tree-sitter-grammars/tree-sitter-toml)
  get_filename_component(lib ${pkg} NAME)
  set(src ${jf_nm}/${pkg}/src)
  if(jf_pgo_corpus AND lib STREQUAL "tree-sitter-python")
    continue()
  endif()
  add_library(${lib} STATIC ${src}/parser.c ${src}/scanner.c)
  target_include_directories(${lib} SYSTEM PRIVATE ${src})
  target_compile_options(${lib} PRIVATE -w)
endforeach()

if(jf_pgo_corpus)
  set(pgo ${CMAKE_BINARY_DIR}/tree-sitter-pgo)
  set(py ${jf_nm}/tree-sitter-python/src)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" type)
  file(GLOB queries CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/queries/python/*.scm)
  add_custom_command(
    OUTPUT ${pgo}/libtree-sitter.a ${pgo}/libtree-sitter-python.a
    COMMAND ${CMAKE_COMMAND} -DCC=${CMAKE_C_COMPILER} "-DFLAGS=${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${type}} -std=c11"
            -DAR=${CMAKE_AR} -DTS=${jf_ts} -DPYTHON=${py} -DTRAINER=${PROJECT_SOURCE_DIR}/tools/pgo_train.c
            -DQUERIES=${PROJECT_SOURCE_DIR}/queries/python -DCORPUS=${jf_pgo_corpus} -DOUT=${pgo}
            -P ${PROJECT_SOURCE_DIR}/cmake/TreeSitterPgo.cmake
    DEPENDS ${PROJECT_SOURCE_DIR}/cmake/TreeSitterPgo.cmake ${PROJECT_SOURCE_DIR}/tools/pgo_train.c
            ${PROJECT_SOURCE_DIR}/tools/read_file.h
            ${jf_ts}/src/lib.c ${py}/parser.c ${py}/scanner.c ${queries}
    COMMENT "Building tree-sitter and the Python grammar with profile feedback"
    VERBATIM)
  add_custom_target(tree-sitter-pgo DEPENDS ${pgo}/libtree-sitter.a ${pgo}/libtree-sitter-python.a)
  add_library(tree-sitter INTERFACE)
  target_include_directories(tree-sitter SYSTEM INTERFACE ${jf_ts}/include)
  target_link_libraries(tree-sitter INTERFACE ${pgo}/libtree-sitter.a)
  add_library(tree-sitter-python INTERFACE)
  target_link_libraries(tree-sitter-python INTERFACE ${pgo}/libtree-sitter-python.a)
  add_dependencies(tree-sitter tree-sitter-pgo)
  add_dependencies(tree-sitter-python tree-sitter-pgo)
else()
  # tree-sitter's single-file amalgamation; built without jobfix's warnings.
  add_library(tree-sitter STATIC ${jf_ts}/src/lib.c)
  target_include_directories(tree-sitter SYSTEM PUBLIC ${jf_ts}/include PRIVATE ${jf_ts}/src)
  target_compile_definitions(tree-sitter PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
  target_compile_options(tree-sitter PRIVATE -w)
endif()
