/// PLACEHOLDER — being written; replaced wholesale by the real TAP writer.
public enum TAPReport {
    public static func render(_ run: RunRecord) -> String { "" }
}
