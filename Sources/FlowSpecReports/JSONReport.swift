/// PLACEHOLDER — being written; replaced wholesale by the real JSON writer.
public enum JSONReport {
    public static func render(_ run: RunRecord) -> String { "" }
}
