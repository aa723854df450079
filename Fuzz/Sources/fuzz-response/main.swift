import Foundation
import FuzzDriver

// libFuzzer takes over: it reads the flags and corpus folders and calls LLVMFuzzerTestOneInput (Fuzz.swift).
exit(FuzzDriverMain(CommandLine.argc, CommandLine.unsafeArgv))
