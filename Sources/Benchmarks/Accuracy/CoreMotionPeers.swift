/// Peer figures on the Core Motion recordings: angle between an estimator's gravity and Core
/// Motion's own, after the first 2 s, degrees (median, 95th percentile). From the table "How
/// close peers come to Core Motion here" in `../shared/data/traces/README.md`.
enum CoreMotionPeers {
    struct Figures: Codable, Hashable, Sendable {
        var vqf6DMedian: Double
        var vqf6DP95: Double
        var accelerometerOnlyMedian: Double
        var accelerometerOnlyP95: Double
    }

    /// Keyed by `folder/file` without extension.
    static let byFile: [String: Figures] = [
        "mpower/balance_data": Figures(vqf6DMedian: 0.50, vqf6DP95: 1.74, accelerometerOnlyMedian: 0.13, accelerometerOnlyP95: 2.22),
        "mpower/kinetic_tremor_data": Figures(vqf6DMedian: 5.83, vqf6DP95: 10.73, accelerometerOnlyMedian: 15.15, accelerometerOnlyP95: 30.27),
        "mpower/walk_data": Figures(vqf6DMedian: 3.94, vqf6DP95: 10.64, accelerometerOnlyMedian: 10.96, accelerometerOnlyP95: 23.01),
        "motionsense/jog_16_sub_1": Figures(vqf6DMedian: 5.82, vqf6DP95: 9.50, accelerometerOnlyMedian: 26.18, accelerometerOnlyP95: 76.23),
        "motionsense/ups_12_sub_1": Figures(vqf6DMedian: 1.64, vqf6DP95: 3.59, accelerometerOnlyMedian: 11.56, accelerometerOnlyP95: 25.02),
        "motionsense/wlk_15_sub_1": Figures(vqf6DMedian: 11.52, vqf6DP95: 13.58, accelerometerOnlyMedian: 18.72, accelerometerOnlyP95: 35.89),
        "motionsense/sit_13_sub_1": Figures(vqf6DMedian: 0.22, vqf6DP95: 0.71, accelerometerOnlyMedian: 0.19, accelerometerOnlyP95: 1.04),
    ]

    /// Finds a file's figures by the end of its short name, so `traces/mpower/walk_data` matches too.
    static func figures(for name: String) -> Figures? {
        byFile.first { name == $0.key || name.hasSuffix("/" + $0.key) }?.value
    }
}
