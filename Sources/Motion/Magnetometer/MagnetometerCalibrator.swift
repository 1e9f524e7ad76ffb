import Foundation

/// Learns a magnetometer's calibration in use, as Core Motion does behind `CMCalibratedMagneticField`:
/// raw readings spread over the directions the device has faced are kept (a few per direction, the
/// latest), a sphere is fitted to them (hard iron: its centre is the offset; least squares on
/// |m|² = 2 m·b + c), and an ellipsoid (soft iron) where the readings cover half of the
/// directions and it fits clearly better. The accuracy is earned: uncalibrated before a fit, then
/// by the fit's residual and coverage (`MagnetometerCalibration.earnedAccuracy`), and low while the
/// field's strength strays from the fitted one (a magnet, a steel desk) for more than a moment.
///
///     var calibrator = MagnetometerCalibrator()
///     for sample in samples {
///         guard let raw = sample.magneticField else { continue }
///         calibrator.add(raw, timestamp: sample.timestamp)
///         print(calibrator.accuracy, calibrator.calibrated(raw))
///     }
public struct MagnetometerCalibrator: Sendable {
    /// Readings kept per direction bin.
    public static let readingsPerBin = 16
    /// Direction bins: the 26 sign patterns of a unit vector's components (each −, 0 or + by ±0.38).
    public static let directionBins = 26
    /// Seconds between readings taken into the fit, and between refits.
    public static let takeInterval = 0.05, refitInterval = 0.5
    /// A reading is taken only once the field has turned this far (radians) from the last one taken,
    /// so a device at rest does not crowd out the directions it turned through.
    public static let takeTurn = 0.1
    /// Time constant of the strength check, s, and how far (relative) it may stray before the field is disturbed.
    public static let disturbanceTimeConstant = 0.5, disturbanceThreshold = 0.15
    /// The coverage a soft-iron (ellipsoid) fit needs: with fewer directions its three radii are
    /// not told apart from the hard iron.
    public static let softIronCoverage = 0.5
    /// How many more of the directions a high fit must cover to replace a high fit, or, over as many,
    /// the fraction of its residual it must come within.
    public static let betterCoverage = 0.15, closerFit = 0.5
    /// Readings further than this (relative) from a first fit's sphere are left out of the second.
    public static let outlierLimit = 0.05
    /// How far the field's dip may stray from the one learned (radians), and that dip's time constant, s.
    public static let dipThreshold = 10 * Double.pi / 180, dipTimeConstant = 5.0
    /// A disturbance longer than this, s, over at least `relearnTurns` directions, means the iron
    /// itself changed (a magnet attached to the device): start again. At rest it is the room's.
    public static let relearnAfter = 10.0, relearnTurns = 40
    /// Readings closer than this to the last one used, s, are left out: the checks' time constants
    /// are 0.5 s and more, readings are filed 0.05 s apart and fusion corrects its heading 25 times a
    /// second, so 50 a second lose nothing, while on a fast source every sample paid for the checks
    /// (BROAD at 285.7 Hz, its field held between the magnetometer's updates: about 30 of the 178 ns
    /// a pushed device motion took).
    public static let minimumInterval = 0.02

    public private(set) var calibration: MagnetometerCalibration?
    /// Counts the fits adopted so far: a consumer that keeps state derived from the field (fusion's
    /// heading) knows from a change that the field it saw before was calibrated differently.
    public private(set) var generation = 0
    /// The smoothed relative difference between the calibrated strength and the fitted one.
    public private(set) var strengthDeviation = 0.0
    /// The smoothed difference between the field's dip below the horizontal and the learned one, radians.
    public private(set) var dipDeviation = 0.0
    private var referenceDip: Double?
    private var turnsWhileDisturbed = 0
    private var bins = [[Vector3]](repeating: [], count: directionBins)
    private var lastTaken = -Double.infinity, lastFit = -Double.infinity, lastTimestamp: Double?
    private var lastTakenReading: Vector3?
    private var disturbedSince: Double?
    private var newReadings = 0
    /// A reading was filed in a direction that had none since the last fit.
    private var newDirection = false
    /// Restored from storage: kept until a fit earns at least its accuracy.
    private var restored = false

    public init() {}

    /// Starts from a stored calibration (see `MagnetometerCalibrationStore`).
    public init(restoring calibration: MagnetometerCalibration) {
        self.calibration = calibration
        restored = true
    }

    public var isDisturbed: Bool { disturbedSince != nil }

    /// Core Motion's accuracy now.
    public var accuracy: MagneticFieldCalibrationAccuracy {
        guard let calibration else { return .uncalibrated }
        return isDisturbed ? .low : calibration.earnedAccuracy
    }

    /// The calibrated field (raw before the first fit).
    public func calibrated(_ raw: Vector3) -> Vector3 { calibration?.apply(raw) ?? raw }

    /// Feeds one raw reading, µT, with the device's gravity where known (for the field's dip);
    /// non-finite readings, time going backwards and readings within `minimumInterval` of the last
    /// one used are ignored.
    public mutating func add(_ raw: Vector3, timestamp t: Double, gravity: Vector3? = nil) {
        guard raw.isFinite, t.isFinite, t >= (lastTimestamp ?? -.infinity) + Self.minimumInterval else { return }
        let dt = lastTimestamp.map { t - $0 } ?? 0
        lastTimestamp = t
        // Asked only once `takeInterval` has passed, and then on every reading until the field turns
        // (a device at rest): compared by cosines, without the atan2 of the angle itself.
        func turned() -> Bool {
            guard let last = lastTakenReading else { return true }
            let centre = calibration?.offset ?? .zero
            return Self.turned(from: last - centre, to: raw - centre)
        }
        // Only a fit that earned medium is trusted to call readings disturbed; a rough early fit
        // must keep learning from them.
        if let calibration, calibration.earnedAccuracy >= .medium {
            let field = calibration.apply(raw)
            let alpha = dt / (dt + Self.disturbanceTimeConstant)
            strengthDeviation += alpha * ((field.length - calibration.fieldStrength) / calibration.fieldStrength - strengthDeviation)
            if let g = gravity, g.isFinite, g.lengthSquared > 0.25 {
                // the field's angle below the horizontal: π/2 less its angle to gravity, as atan2(f·g, |f × g|);
                // FastMath's atan2 (within 1e-5 rad) against a 10° threshold, since this runs on every reading
                let dip = FastMath.atan2(field.dot(g), field.cross(g).length)
                if let reference = referenceDip {
                    dipDeviation += alpha * ((dip - reference) - dipDeviation)
                    if !isDisturbed { referenceDip = reference + dt / (dt + Self.dipTimeConstant) * (dip - reference) }
                } else {
                    referenceDip = dip
                }
            }
            if abs(strengthDeviation) > Self.disturbanceThreshold || abs(dipDeviation) > Self.dipThreshold {
                if disturbedSince == nil { disturbedSince = t; turnsWhileDisturbed = 0 }
                if t - lastTaken >= Self.takeInterval && turned() {
                    lastTaken = t
                    lastTakenReading = raw
                    turnsWhileDisturbed += 1
                }
                // Disturbed while turning through many directions for long: the iron itself changed.
                if t - disturbedSince! > Self.relearnAfter && turnsWhileDisturbed >= Self.relearnTurns {
                    self = MagnetometerCalibrator()
                }
                return  // disturbed readings would bend the fit
            }
            disturbedSince = nil
        }
        if t - lastTaken >= Self.takeInterval, turned() {
            lastTaken = t
            lastTakenReading = raw
            let bin = Self.bin(of: raw - (calibration?.offset ?? .zero))
            if bins[bin].isEmpty { newDirection = true }
            bins[bin].append(raw)
            if bins[bin].count > Self.readingsPerBin { bins[bin].removeFirst() }
            newReadings += 1
        }
        if newReadings > 0 && t - lastFit >= Self.refitInterval && (newDirection || !isStandingHighFit) {
            lastFit = t
            newReadings = 0
            newDirection = false
            refit()
        }
    }

    /// A high fit learned here stands until one over more directions replaces it (see `refit`), so
    /// while it stands a refit is tried only once a reading arrives from a direction with none: more
    /// readings from the directions already covered add no coverage to replace it with, and refitting them every
    /// `refitInterval` was most of what pushing device motion cost (`perf record` on `tiltkit bench fusion`).
    private var isStandingHighFit: Bool { !restored && calibration?.earnedAccuracy == .high }

    private mutating func refit() {
        var readings = bins.flatMap { $0 }
        guard readings.count >= 12, var fit = Self.fitSphere(readings) else { return }
        // Once more without the readings far off the sphere (a passing magnet, a steel desk).
        let limit = max(Self.outlierLimit, 3 * fit.residual)
        let kept = readings.filter { abs(($0 - fit.offset).length - fit.fieldStrength) <= limit * fit.fieldStrength }
        if kept.count >= 12, kept.count < readings.count, let trimmed = Self.fitSphere(kept) {
            readings = kept
            fit = trimmed
        }
        fit.coverage = Self.coverage(readings.map { $0 - fit.offset })
        guard fit.coverage >= 4 / Double(Self.directionBins) else { return }
        // Soft iron bends the sphere into an ellipsoid, and a sphere around it is off-centre: the
        // directions are counted again from the ellipsoid's centre, through its matrix.
        if fit.coverage >= MagnetometerCalibration.highCoverage, var ellipsoid = Self.fitEllipsoid(readings),
           ellipsoid.residual < 0.8 * fit.residual {
            ellipsoid.coverage = Self.coverage(readings.map(ellipsoid.apply))
            if ellipsoid.coverage >= Self.softIronCoverage { fit = ellipsoid }
            // The readings lie on an ellipsoid, too few directions yet to trust it: a sphere would bend the heading.
            else if ellipsoid.residual <= Self.closerFit * fit.residual { return }
        }
        if restored, let current = calibration, fit.earnedAccuracy < current.earnedAccuracy { return }
        // A fit that earned high stands (Core Motion's calibration does not wander either) until a
        // high fit over clearly more directions replaces it, or one that fits clearly closer over as
        // many (soft iron that a sphere fit could only approximate); a long disturbance, a changed
        // iron, starts it all again.
        if let current = calibration, current.earnedAccuracy == .high, !restored,
           !(fit.earnedAccuracy == .high && (fit.coverage >= current.coverage + Self.betterCoverage
                || (fit.coverage >= current.coverage && fit.residual <= Self.closerFit * current.residual))) { return }
        restored = false
        if fit.earnedAccuracy != calibration?.earnedAccuracy { generation += 1 }
        calibration = fit
        // Re-file the kept readings by their direction from the new centre.
        var rebinned = [[Vector3]](repeating: [], count: Self.directionBins)
        for r in readings {
            let b = Self.bin(of: r - fit.offset)
            if rebinned[b].count < Self.readingsPerBin { rebinned[b].append(r) }
        }
        bins = rebinned
    }

    /// Whether `b` points at least `takeTurn` away from `a`: a·b ≤ cos θ |a||b|, squared where both
    /// sides are positive (θ < 90°). A zero vector has no direction and has not turned (as its atan2 angle, 0).
    static func turned(from a: Vector3, to b: Vector3) -> Bool {
        let lengths = a.lengthSquared * b.lengthSquared
        guard lengths > 0 else { return false }
        let d = a.dot(b)
        return d <= 0 || d * d <= cosTakeTurnSquared * lengths
    }

    private static let cosTakeTurnSquared = cos(takeTurn) * cos(takeTurn)

    static func bin(of v: Vector3) -> Int {
        let n = v.length
        guard n > 0 else { return 0 }
        func sign(_ c: Double) -> Int { c / n > 0.38 ? 2 : c / n < -0.38 ? 0 : 1 }
        let code = sign(v.x) * 9 + sign(v.y) * 3 + sign(v.z)  // 0...26, 13 is (0,0,0) and cannot occur
        return code > 13 ? code - 1 : code
    }

    /// Fraction of the direction bins the (calibrated) field's directions fall in.
    static func coverage(_ directions: [Vector3]) -> Double {
        Double(Set(directions.map(bin(of:))).count) / Double(directionBins)
    }

    /// Least squares on |m|² = 2 m·b + c: b is the centre, r² = c + |b|².
    static func fitSphere(_ readings: [Vector3]) -> MagnetometerCalibration? {
        let solution = LeastSquares.solve(readings, unknowns: 4) { m, row in
            row[0] = 2 * m.x; row[1] = 2 * m.y; row[2] = 2 * m.z; row[3] = 1
            return m.lengthSquared
        }
        guard let s = solution else { return nil }
        let offset = Vector3(s[0], s[1], s[2])
        let squared = s[3] + offset.lengthSquared
        guard squared > 0 else { return nil }
        let radius = squared.squareRoot()
        return MagnetometerCalibration(offset: offset, fieldStrength: radius,
                                       residual: residual(readings.map { ($0 - offset).length }, radius), coverage: 0)
    }

    /// The general ellipsoid (soft iron with the axes' couplings, and the hard iron): least squares on
    /// mᵀAm + v·m = 1 with A symmetric (nine unknowns), in coordinates centred on the readings' mean and
    /// scaled by their spread so the normal equations stay well conditioned. Its centre is the offset;
    /// the symmetric square root of A (over 1 + cᵀAc) maps the ellipsoid onto a sphere without turning
    /// it, scaled to the mean radius. Refused unless A is positive definite and the longest radius is
    /// within twice the shortest.
    static func fitEllipsoid(_ readings: [Vector3]) -> MagnetometerCalibration? {
        guard readings.count >= 9 else { return nil }
        let mean = readings.reduce(Vector3.zero, +) * (1 / Double(readings.count))
        let spread = (readings.reduce(0) { $0 + ($1 - mean).lengthSquared } / Double(readings.count)).squareRoot()
        guard spread > 0, spread.isFinite else { return nil }
        let solution = LeastSquares.solve(readings, unknowns: 9) { reading, row in
            let m = (reading - mean) * (1 / spread)
            row[0] = m.x * m.x; row[1] = m.y * m.y; row[2] = m.z * m.z
            row[3] = 2 * m.x * m.y; row[4] = 2 * m.x * m.z; row[5] = 2 * m.y * m.z
            row[6] = m.x; row[7] = m.y; row[8] = m.z
            return 1
        }
        guard let s = solution else { return nil }
        let a = SymmetricMatrix3(xx: s[0], yy: s[1], zz: s[2], xy: s[3], xz: s[4], yz: s[5])
        // The centre solves 2Ac = −v: through A's eigenvectors, which also tell a definite A.
        let (values, vectors) = a.eigen()
        guard values.x > 0 else { return nil }
        let v = Vector3(s[6], s[7], s[8])
        let inverse = SymmetricMatrix3.compose([1 / values.x, 1 / values.y, 1 / values.z], vectors)
        let centre = inverse * v * -0.5
        let k = 1 + centre.dot(a * centre)
        guard k > 0 else { return nil }
        // Radii in the scaled coordinates: (k / λ)^½.
        let radii = [values.x, values.y, values.z].map { (k / $0).squareRoot() }
        guard radii.allSatisfy({ $0.isFinite && $0 > 0 }), radii.max()! / radii.min()! < 2 else { return nil }
        let radius = radii.reduce(0, +) / 3
        let root = SymmetricMatrix3.compose([values.x, values.y, values.z].map { ($0 / k).squareRoot() * radius }, vectors)
        var fit = MagnetometerCalibration(offset: mean + centre * spread, softIron: root, fieldStrength: radius * spread,
                                          residual: 0, coverage: 0)
        fit.residual = residual(readings.map { fit.apply($0).length }, fit.fieldStrength)
        return fit
    }

    /// Median relative distance from the radius: the element a sort would put at `count / 2`,
    /// found by selection (Hoare's quickselect) in linear time; sorting it was a refit's largest cost.
    static func residual(_ lengths: [Double], _ radius: Double) -> Double {
        var d = lengths.map { abs($0 - radius) / radius }
        guard !d.isEmpty else { return .nan }
        let k = d.count / 2
        var low = 0, high = d.count - 1
        while low < high {
            let pivot = d[(low + high) / 2]
            var i = low, j = high
            while i <= j {
                while d[i] < pivot { i += 1 }
                while d[j] > pivot { j -= 1 }
                if i <= j { d.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        return d[k]
    }
}
