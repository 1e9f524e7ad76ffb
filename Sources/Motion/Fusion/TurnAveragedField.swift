/// The field in the 6D earth frame averaged over one whole turn of the device about the vertical: a
/// heading reference where the field itself is disturbed by iron that rides along.
///
/// Iron fixed to the sensor (a magnet beside it: an offset h; a chassis bending the field: a
/// symmetric matrix S) adds R·h + R·(S − I)·Rᵀ·e to the earth's field e in the earth frame, R the
/// attitude. As the device turns about the vertical through an angle ψ at a fixed tilt, the offset's
/// horizontal part turns with it and the matrix's rotated horizontal block keeps only its mean gain:
/// averaged uniformly over ψ, both leave the horizontal field pointing where e does. So while such a
/// field fails the disturbance check and the heading coasts, each whole turn still says where north
/// is. Weighing each reading by the angle turned since the last (signed), a device turned back and
/// forth adds and takes away the same angles: the sum is the average over the angles covered net.
///
/// A room's disturbance (a magnet on the desk) is fixed in the earth frame: turning does not move it,
/// and averaging does not take it out. Such a field stays the same all round the turn, where iron that
/// rides along swings it as the device turns. A turn counts only where the field was disturbed for most
/// of it (a field that passes has the heading's own correction) and the field swung as iron riding
/// along swings it, neither too little nor too much.
struct TurnAveragedField: Hashable, Sendable {
    /// Least spread of the field over the turn (RMS about its mean, relative to its strength) for the
    /// turn to count as iron riding along. BROAD's trials without added iron spread 5–16 % over a turn
    /// (the sensor's own iron and the room's; over 10 % only in fast turns, where the field passes the
    /// check), the accuracy bench's soft iron 20–23 %.
    static let ridingSpread = 0.1
    /// Largest spread: a magnet 1 cm from the sensor (BROAD's trial 32) swung the field by 60–175 % in
    /// its disturbed turns, and what a turn not quite about the vertical leaves of such an offset is not small.
    static let maximumSpread = 0.5
    /// How far the average over the angles turned net may differ in strength from the mean over every
    /// reading: alike where the turn went one way round, or back and forth over the same fields; the
    /// magnet at 1 cm left them 140 % apart over its longest turn (60 s).
    static let normTolerance = 0.1
    /// A turn slower than this starts over (the 6D heading drifts meanwhile), s.
    static let maximumDuration = 60.0

    /// One whole turn's figures.
    struct Turn: Hashable, Sendable {
        /// The field averaged over the angles turned net, µT (6D earth frame).
        var field: Vector3
        /// RMS of the field about its mean over every reading, relative to the mean's strength.
        var spread: Double
        /// How far the net average's strength lies from the mean's, relative to the mean's.
        var strengthMismatch: Double
        /// How long the turn took, s.
        var duration: Double
        /// The part of the turn the field failed the disturbance check.
        var disturbedShare: Double

        /// Whether the turn says where north is: the field was disturbed for most of it, swung as iron
        /// riding along swings it, neither too little nor too much, and its net average and mean agree.
        var isRidingIron: Bool {
            disturbedShare > 0.5 && spread >= TurnAveragedField.ridingSpread && spread <= TurnAveragedField.maximumSpread
                && strengthMismatch < TurnAveragedField.normTolerance
        }
    }

    // Σ field × angle and Σ angle, signed: the average over the angles covered net.
    private var signedSum = Vector3.zero, signedTurn = 0.0
    // Σ field × |angle|, Σ |field|² × |angle| and Σ |angle|: the field's mean and spread over every reading.
    private var sum = Vector3.zero, squares = 0.0, turn = 0.0
    // s: the turn's, and the part of it the field was disturbed.
    private var duration = 0.0, disturbedTime = 0.0

    /// Adds the field `earthField` (µT, 6D earth frame) after the device turned `turned` rad about the
    /// vertical in the `dt` s since the last; the turn's figures once the angles sum to a whole turn.
    mutating func add(_ earthField: Vector3, turned: Double, dt: Double, disturbed: Bool) -> Turn? {
        guard earthField.isFinite, turned.isFinite else { return nil }
        let weight = abs(turned)
        signedSum += earthField * turned
        signedTurn += turned
        sum += earthField * weight
        squares += earthField.lengthSquared * weight
        turn += weight
        duration += dt
        if disturbed { disturbedTime += dt }
        if duration > Self.maximumDuration { self = Self(); return nil }
        guard abs(signedTurn) >= 2 * .pi else { return nil }
        defer { self = Self() }
        let average = signedSum / signedTurn
        let mean = sum / turn
        let strength = max(mean.length, .leastNormalMagnitude)
        let spread = max(squares / turn - mean.lengthSquared, 0).squareRoot()
        return Turn(field: average, spread: spread / strength, strengthMismatch: abs(average.length - strength) / strength,
                    duration: duration, disturbedShare: disturbedTime / duration)
    }
}
