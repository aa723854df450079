/// Legacy Repair Minder backend state: 2FA codes by user id and refresh families (sessions).
struct LegacyState: Sendable {
    var codes = OneTimeCodes<String>()
    var families = RefreshFamilies()
}
