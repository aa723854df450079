/// PLACEHOLDER — being written.
public struct FlowCoverage: Sendable {
    public init(_ record: RunRecord) {}
}
public enum CoverageText { public static func render(_ c: FlowCoverage) -> String { "" } }
public enum CoverageJSON { public static func render(_ c: FlowCoverage) -> String { "" } }
