#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

/// Runs libFuzzer on the target's LLVMFuzzerTestOneInput (defined in Swift with @_cdecl) and returns its exit code.
int FuzzDriverMain(int argc, char **argv);

#endif
