/// PLACEHOLDER — being written; replaced wholesale by the real HTML writer.
public enum HTMLReport {
    public static func render(_ run: RunRecord) -> String { "" }
}
