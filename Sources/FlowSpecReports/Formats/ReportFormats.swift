/// Every report format, listed once. `--report NAME` looks a format up here for `run`, `coverage` and `probe`;
/// `flowspec merge` tries each mergeable one; the help texts name them from here.
package enum ReportFormats {
    package static let all: [any ReportFormat] = [
        JUnitFormat(), JSONFormat(), TAPFormat(), HTMLFormat(), CoverageFormat(),
    ]

    package static func named(_ name: String) -> (any ReportFormat)? {
        all.first { $0.name == name.lowercased() }
    }

    /// The formats a probe run can write.
    package static var probe: [any ReportFormat] { all.filter { $0.render(probe: []) != nil } }
}
