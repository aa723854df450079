struct TravelingState: Sendable {}
