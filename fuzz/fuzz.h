/* fuzz.h - the libFuzzer entry point every fuzz target defines */
#ifndef JF_FUZZ_H
#define JF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
