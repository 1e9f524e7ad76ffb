/// A magnetometer's learned calibration: the hard-iron offset (a field that turns with the device:
/// magnetised parts beside the sensor) and, where the data supports it, a soft-iron matrix (parts
/// that bend the earth's field unequally along the axes and toward each other). `apply` turns a raw reading into
/// the earth's field as the device sees it, what Core Motion's `CMCalibratedMagneticField` gives.
public struct MagnetometerCalibration: Hashable, Sendable, Codable {
    /// Hard-iron offset, µT, subtracted from the raw reading.
    public var offset: Vector3
    /// Soft-iron correction, applied after the offset: symmetric, the identity when not fitted.
    public var softIron: SymmetricMatrix3
    /// The fitted field strength (the sphere's radius), µT.
    public var fieldStrength: Double
    /// Median of |(|m − offset| − r) / r| over the fitted readings: how far from a sphere they lie.
    public var residual: Double
    /// Fraction of the directions (`MagnetometerCalibrator.directionBins`) the readings covered.
    public var coverage: Double

    public init(offset: Vector3, softIron: SymmetricMatrix3 = .identity, fieldStrength: Double, residual: Double, coverage: Double) {
        self.offset = offset
        self.softIron = softIron
        self.fieldStrength = fieldStrength
        self.residual = residual
        self.coverage = coverage
    }

    /// The calibrated field, µT.
    public func apply(_ raw: Vector3) -> Vector3 { softIron * (raw - offset) }

    /// Whether soft iron was fitted (else only the hard-iron offset is applied).
    public var hasSoftIron: Bool { softIron != .identity }

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

    /// `softIron` as its six distinct entries (xx, yy, zz, xy, xz, yz); a stored calibration from
    /// before it was a matrix has `scale`, the diagonal.
    enum CodingKeys: String, CodingKey { case offset, softIron, scale, fieldStrength, residual, coverage }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func numbers(_ key: CodingKeys, _ count: Int) throws -> [Double] {
            let v = try c.decode([Double].self, forKey: key)
            guard v.count == count, v.allSatisfy(\.isFinite) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expected \(count) finite numbers")
            }
            return v
        }
        let o = try numbers(.offset, 3)
        offset = Vector3(o[0], o[1], o[2])
        if c.contains(.softIron) {
            let m = try numbers(.softIron, 6)
            softIron = SymmetricMatrix3(xx: m[0], yy: m[1], zz: m[2], xy: m[3], xz: m[4], yz: m[5])
        } else {
            let d = try numbers(.scale, 3)
            softIron = .diagonal(Vector3(d[0], d[1], d[2]))
        }
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
        try c.encode([softIron.xx, softIron.yy, softIron.zz, softIron.xy, softIron.xz, softIron.yz], forKey: .softIron)
        try c.encode(fieldStrength, forKey: .fieldStrength)
        try c.encode(residual, forKey: .residual)
        try c.encode(coverage, forKey: .coverage)
    }
}
