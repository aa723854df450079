import FlowSpecFuzzing

/// libFuzzer's entry point; what the target does with an input is `FuzzTarget.scenario` (Sources/FlowSpecFuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.scenario.fuzz(data, size)
}
