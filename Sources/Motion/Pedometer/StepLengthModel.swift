/// Step length, m, for a distance from steps: given by the user, or from cadence by the walk ratio.
///
///     StepLengthModel.walkRatio()            // height-free: length grows with cadence
///     StepLengthModel.fixed(metres: 0.72)    // measured: walk 20 steps, divide the distance by 20
///
/// The walk ratio, step length over cadence in steps/min, stays nearly constant for one person
/// across walking speeds (Sekiya, Nagasaki, Ito, Furuna, "Optimal walking in terms of variability in
/// step length", JOSPT 1997; Fang et al., Med. Biol. Eng. Comput. 2019), at about 0.006 m per
/// step/min for adults; its constancy breaks below about 98 steps/min (J. Phys. Ther. Sci., 2017,
/// PMC5430280). So length = ratio × cadence needs no height. It is a walking model: a run takes
/// longer steps than it predicts, hence the clamp.
public enum StepLengthModel: Hashable, Sendable {
    /// Every step this long, m.
    case fixed(metres: Double)
    /// Length, m = `ratio` (m per step/min) × cadence (steps/min), within 0.3…1.2 m.
    case walkRatio(Double = 0.0061)

    /// The default: an adult walk ratio of about 0.006.
    public static let `default` = StepLengthModel.walkRatio()

    /// Cadence assumed, steps/s, for a step with no neighbour to measure it by (typical adult
    /// walking, ≈110 steps/min).
    public static let typicalCadence = 1.8

    /// Length, m, of a step taken at `cadence` steps/s (`typicalCadence` when nil or not finite).
    public func length(atCadence cadence: Double?) -> Double {
        switch self {
        case .fixed(let metres):
            return metres.isFinite && metres > 0 ? metres : 0
        case .walkRatio(let ratio):
            let c = cadence.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? Self.typicalCadence
            return min(1.2, max(0.3, ratio * c * 60))
        }
    }
}
