import FlowSpecFuzzing

/// libFuzzer's entry point; what the target does with an input is `FuzzTarget.template` (Sources/FlowSpecFuzzing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.template.fuzz(data, size)
}
