# ThirdParty.cmake - fetch the pinned tree-sitter packages and build them as static libraries
#
# third_party/package.json and package-lock.json pin the exact versions and integrity
# hashes. `npm ci --ignore-scripts` unpacks them into the build tree (never into the
# source tree); nothing of theirs is committed. It runs again only when the lock changes.

find_program(JF_NPM npm)
if(NOT JF_NPM)
  message(FATAL_ERROR "jobfix: npm not found: install the Debian packages 'nodejs' and 'npm'")
endif()

set(JF_TP_DIR ${CMAKE_BINARY_DIR}/third_party)
set(JF_TP_LOCK ${PROJECT_SOURCE_DIR}/third_party/package-lock.json)
file(SHA256 ${JF_TP_LOCK} jf_lock_hash)
set(jf_stamp ${JF_TP_DIR}/.fetched-${jf_lock_hash})

if(NOT EXISTS ${jf_stamp})
  file(REMOVE_RECURSE ${JF_TP_DIR})
  file(MAKE_DIRECTORY ${JF_TP_DIR})
  file(COPY ${PROJECT_SOURCE_DIR}/third_party/package.json ${JF_TP_LOCK} DESTINATION ${JF_TP_DIR})
  message(STATUS "jobfix: fetching pinned tree-sitter packages (npm ci)")
  execute_process(
    COMMAND ${JF_NPM} ci --ignore-scripts --no-audit --no-fund --loglevel=error
    WORKING_DIRECTORY ${JF_TP_DIR}
    RESULT_VARIABLE jf_npm_rc
    OUTPUT_VARIABLE jf_npm_out ERROR_VARIABLE jf_npm_out)
  if(NOT jf_npm_rc EQUAL 0)
    message(FATAL_ERROR "jobfix: 'npm ci' failed in ${JF_TP_DIR}:\n${jf_npm_out}")
  endif()
  file(TOUCH ${jf_stamp})
endif()

set(jf_nm ${JF_TP_DIR}/node_modules)
set(jf_ts ${jf_nm}/tree-sitter/vendor/tree-sitter/lib)

# tree-sitter's single-file amalgamation; built without jobfix's warnings.
add_library(tree-sitter STATIC ${jf_ts}/src/lib.c)
target_include_directories(tree-sitter SYSTEM PUBLIC ${jf_ts}/include PRIVATE ${jf_ts}/src)
target_compile_definitions(tree-sitter PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
target_compile_options(tree-sitter PRIVATE -w)

foreach(lang python bash)
  set(src ${jf_nm}/tree-sitter-${lang}/src)
  add_library(tree-sitter-${lang} STATIC ${src}/parser.c ${src}/scanner.c)
  target_include_directories(tree-sitter-${lang} SYSTEM PRIVATE ${src})
  target_compile_options(tree-sitter-${lang} PRIVATE -w)
endforeach()
