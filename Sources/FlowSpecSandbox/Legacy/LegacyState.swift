struct LegacyState: Sendable {}
