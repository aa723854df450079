extension String {
    /// The start of a text pasted into a message: a name pasted by mistake can be megabytes long.
    package func abbreviated(to limit: Int) -> String {
        count > limit ? String(prefix(limit)) + "… (\(count) characters)" : self
    }
}
