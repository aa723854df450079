// Why a C main: SwiftPM links a Linux executable with `--defsym main=<module>_main`, so libFuzzer's own `main`
// can never be the entry point of a SwiftPM executable. The target's main.swift calls this instead, and this
// hands control to libFuzzer through its documented driver entry point.
#include <stddef.h>
#include <stdint.h>
#include "FuzzDriver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int FuzzDriverMain(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
