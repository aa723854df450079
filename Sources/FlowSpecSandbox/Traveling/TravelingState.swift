/// Traveling state: refresh-token families (the tokens themselves are JWTs wrapping the family's current token).
struct TravelingState: Sendable {
    var families = RefreshFamilies()
}
