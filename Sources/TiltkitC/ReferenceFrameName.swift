import Motion

extension AttitudeReferenceFrame {
    /// A frame named as Core Motion names it (`XArbitraryZVertical`, `xTrueNorthZVertical`,
    /// `CMAttitudeReferenceFrameXMagneticNorthZVertical`) or as the CLI does
    /// (`x-arbitrary-z-vertical`); case and dashes are ignored. nil for any other text.
    init?(coreMotionName name: String) {
        func folded(_ s: String) -> String { s.lowercased().filter { $0 != "-" && $0 != "_" } }
        var key = folded(name)
        let prefix = "cmattitudereferenceframe"
        if key.hasPrefix(prefix) { key.removeFirst(prefix.count) }
        guard let frame = Self.allCases.first(where: { folded($0.rawValue) == key }) else { return nil }
        self = frame
    }

    /// Core Motion's names, for error text.
    static let coreMotionNames = ["XArbitraryZVertical", "XArbitraryCorrectedZVertical",
                                  "XMagneticNorthZVertical", "XTrueNorthZVertical"]
}
