/// A magnetometer's learned calibration: the hard-iron offset (a field that turns with the device:
/// magnetised parts beside the sensor) and, where the data supports it, a diagonal soft-iron scale
/// (parts that bend the earth's field unequally along the axes). `apply` turns a raw reading into
/// the earth's field as the device sees it, what Core Motion's `CMCalibratedMagneticField` gives.
public struct MagnetometerCalibration: Hashable, Sendable, Codable {
    /// Hard-iron offset, µT, subtracted from the raw reading.
    public var offset: Vector3
    /// Soft-iron scale per axis, applied after the offset; (1, 1, 1) when not fitted.
    public var scale: Vector3
    /// The fitted field strength (the sphere's radius), µT.
    public var fieldStrength: Double
    /// Median of |(|m − offset| − r) / r| over the fitted readings: how far from a sphere they lie.
    public var residual: Double
    /// Fraction of the directions (`MagnetometerCalibrator.directionBins`) the readings covered.
    public var coverage: Double

    public init(offset: Vector3, scale: Vector3 = Vector3(1, 1, 1), fieldStrength: Double, residual: Double, coverage: Double) {
        self.offset = offset
        self.scale = scale
        self.fieldStrength = fieldStrength
        self.residual = residual
        self.coverage = coverage
    }

    /// The calibrated field, µT.
    public func apply(_ raw: Vector3) -> Vector3 {
        let v = raw - offset
        return Vector3(v.x * scale.x, v.y * scale.y, v.z * scale.z)
    }

    /// Whether soft iron was fitted (else only the hard-iron offset is applied).
    public var hasSoftIron: Bool { scale != Vector3(1, 1, 1) }

    /// Core Motion's accuracy the fit earns by its residual and coverage (before any disturbance):
    /// high within 3 % of a sphere over 30 % of the directions, medium within 6 % over 20 %, else low.
    /// (A device turned through every tilt and heading covers about a third: the earth's field keeps
    /// its dip, so its direction in the device sweeps a band, not the whole sphere.)
    public var earnedAccuracy: MagneticFieldCalibrationAccuracy {
        if residual <= Self.highResidual && coverage >= Self.highCoverage { return .high }
        if residual <= Self.mediumResidual && coverage >= Self.mediumCoverage { return .medium }
        return .low
    }

    public static let highResidual = 0.03, highCoverage = 0.3
    public static let mediumResidual = 0.06, mediumCoverage = 0.2

    enum CodingKeys: String, CodingKey { case offset, scale, fieldStrength, residual, coverage }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func vector(_ key: CodingKeys) throws -> Vector3 {
            let v = try c.decode([Double].self, forKey: key)
            guard v.count == 3, v.allSatisfy(\.isFinite) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expected three finite numbers")
            }
            return Vector3(v[0], v[1], v[2])
        }
        offset = try vector(.offset)
        scale = try vector(.scale)
        fieldStrength = try c.decode(Double.self, forKey: .fieldStrength)
        residual = try c.decode(Double.self, forKey: .residual)
        coverage = try c.decode(Double.self, forKey: .coverage)
        guard fieldStrength.isFinite, fieldStrength > 0, residual.isFinite, residual >= 0, (0...1).contains(coverage) else {
            throw DecodingError.dataCorruptedError(forKey: .fieldStrength, in: c, debugDescription: "out of range")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode([offset.x, offset.y, offset.z], forKey: .offset)
        try c.encode([scale.x, scale.y, scale.z], forKey: .scale)
        try c.encode(fieldStrength, forKey: .fieldStrength)
        try c.encode(residual, forKey: .residual)
        try c.encode(coverage, forKey: .coverage)
    }
}
