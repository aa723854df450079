struct SupabaseState: Sendable {}
