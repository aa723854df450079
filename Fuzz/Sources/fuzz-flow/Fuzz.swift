import FlowSpecFuzzing

/// libFuzzer's entry point; what the target does with an input is `FuzzTarget.flow` (Sources/FlowSpecFuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.flow.fuzz(data, size)
}
