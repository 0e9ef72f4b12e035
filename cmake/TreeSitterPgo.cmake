# TreeSitterPgo.cmake - tree-sitter and the Python grammar built with GCC's profile feedback
#
#   cmake -DCC=... -DFLAGS=... -DAR=... -DTS=... -DPYTHON=... -DTRAINER=tools/pgo_train.c
#         -DQUERIES=queries/python -DCORPUS=<a Python standard library> -DOUT=...
#         -P cmake/TreeSitterPgo.cmake
#
# Most of jobfix's time on a file is tree-sitter's parse, and on a small job
# the compilation of its rule queries. Built once with -fprofile-generate,
# tree-sitter parses Python files and compiles and runs jobfix's Python rule
# queries over them (tools/pgo_train.c), and is built again with
# -fprofile-use: the hot paths laid out for that work. Writes
# OUT/libtree-sitter.a and OUT/libtree-sitter-python.a (ThirdParty.cmake).
#
# The training files are the standard library's .py files, sorted, but the
# first 400, which tools/bench.sh measures: its figures are on files the
# profile never saw.

set(objects ts-lib:${TS}/src/lib.c py-parser:${PYTHON}/parser.c py-scanner:${PYTHON}/scanner.c)
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
list(APPEND flags -w -I${TS}/include -I${TS}/src -I${PYTHON} -D_POSIX_C_SOURCE=200112L
     -D_DEFAULT_SOURCE)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "jobfix: ${what} failed (${rc}):\n${out}")
  endif()
endfunction()

# compile(FLAGS...): every object of `objects` into OUT, each at the same path
# both times, where its profile (<name>.gcda) is written and then read.
function(compile)
  foreach(o ${objects})
    string(REPLACE ":" ";" o ${o})
    list(GET o 0 name)
    list(GET o 1 src)
    run("compiling ${src}" ${CC} ${flags} ${ARGN} -c ${src} -o ${OUT}/${name}.o)
  endforeach()
endfunction()

file(MAKE_DIRECTORY ${OUT})
file(GLOB old ${OUT}/*.gcda)
if(old)
  file(REMOVE ${old})
endif()

file(GLOB_RECURSE corpus ${CORPUS}/*.py)
list(FILTER corpus EXCLUDE REGEX "/(site-packages|dist-packages|test|tests)/")
list(SORT corpus)
list(LENGTH corpus n)
if(n LESS 500)
  message(FATAL_ERROR "jobfix: only ${n} Python files in ${CORPUS} to train tree-sitter on")
endif()
list(SUBLIST corpus 400 1000 corpus)
file(GLOB queries ${QUERIES}/*.scm)
list(SORT queries)

compile(-fprofile-generate -fprofile-update=single)
run("linking the trainer" ${CC} ${flags} -fprofile-generate ${TRAINER} ${OUT}/ts-lib.o
    ${OUT}/py-parser.o ${OUT}/py-scanner.o -o ${OUT}/train)
run("training tree-sitter's profile" ${OUT}/train ${queries} -- ${corpus})
compile(-fprofile-use -fprofile-partial-training -Wno-missing-profile)

file(REMOVE ${OUT}/libtree-sitter.a ${OUT}/libtree-sitter-python.a)
run("archiving" ${AR} rcs ${OUT}/libtree-sitter.a ${OUT}/ts-lib.o)
run("archiving" ${AR} rcs ${OUT}/libtree-sitter-python.a ${OUT}/py-parser.o ${OUT}/py-scanner.o)
