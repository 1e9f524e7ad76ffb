import Motion

/// Iron fixed to the device, applied to a recording's magnetometer in the sensor frame:
/// m' = S·m + b. A magnet that rides along adds a constant offset b (hard iron); nearby soft
/// iron bends and scales the field by a symmetric matrix S (soft iron). Neither turns with the
/// room, so an online calibration can learn both while the device turns.
///
///     let shifted = MagnetometerDistortion.hardIron(2).applied(to: trial)   // offset 2 × the trial's |m|
public struct MagnetometerDistortion: Sendable, Hashable, Codable {
    /// Hard-iron offset as a multiple of the trial's own mean |m| (0: none).
    public var hardIronStrength: Double
    /// Which of `hardIronDirections` the offset points along.
    public var direction: Int
    /// Soft-iron matrix, rows; nil: the identity.
    public var softIron: [[Double]]?

    public init(hardIronStrength: Double = 0, direction: Int = 0, softIron: [[Double]]? = nil) {
        precondition(Self.hardIronDirections.indices.contains(direction))
        self.hardIronStrength = hardIronStrength
        self.direction = direction
        self.softIron = softIron
    }

    public static func hardIron(_ strength: Double, direction: Int = 0) -> MagnetometerDistortion {
        .init(hardIronStrength: strength, direction: direction)
    }

    /// The offset's direction in the sensor frame: fixed, so every run and every trial gets the same
    /// ((1, −2, 2) / 3: a unit vector off every axis and every axis plane, so no axis escapes it).
    public static let hardIronDirection = Vector3(1.0 / 3, -2.0 / 3, 2.0 / 3)

    /// The directions the magnet curve puts an offset along: `hardIronDirection` and two more at right
    /// angles to it and each other, each both ways. An offset along one direction turns the heading
    /// one way at the start-up's pose, which by chance can cancel a trial's own small misalignment
    /// between field and reference (BROAD's trial 06 at 0.1 |m|: VQF 2.9° against 4.0° clean) or add to
    /// it; six directions opposite in pairs sum to zero, so that chance does not pick the winner.
    public static let hardIronDirections: [Vector3] = {
        let axes = [hardIronDirection, Vector3(2.0 / 3, 2.0 / 3, 1.0 / 3), Vector3(-2.0 / 3, 1.0 / 3, 2.0 / 3)]
        return axes.flatMap { [$0, $0 * -1] }
    }()

    /// The soft-iron case: axis gains 0.8, 1.0, 1.2 with off-diagonal couplings of 0.05–0.1, symmetric
    /// and positive definite (eigenvalues 0.74–1.27), within what a handset's chassis does to a field.
    public static let softIronMatrix: [[Double]] = [[0.8, 0.05, -0.1], [0.05, 1.0, 0.08], [-0.1, 0.08, 1.2]]

    public static let softIronCase = MagnetometerDistortion(softIron: softIronMatrix)

    /// "hard iron 0.3×|m|", "soft iron", "soft iron + hard iron 1×|m|", "none".
    public var label: String {
        var parts: [String] = []
        if softIron != nil { parts.append("soft iron") }
        if hardIronStrength != 0 { parts.append("hard iron \(Self.format(hardIronStrength))×|m|") }
        return parts.isEmpty ? "none" : parts.joined(separator: " + ")
    }

    /// The label in a form fit for a file name, with the direction but the first:
    /// "hard-iron-0.3", "hard-iron-0.3-direction-2", "soft-iron+hard-iron-1", "none".
    public var key: String {
        var parts: [String] = []
        if softIron != nil { parts.append("soft-iron") }
        if hardIronStrength != 0 {
            parts.append("hard-iron-\(Self.format(hardIronStrength))" + (direction == 0 ? "" : "-direction-\(direction + 1)"))
        }
        return parts.isEmpty ? "none" : parts.joined(separator: "+")
    }

    private static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }

    /// The offset for a trial whose mean field strength is `meanStrength`, µT.
    public func offset(meanStrength: Double) -> Vector3 { Self.hardIronDirections[direction] * (hardIronStrength * meanStrength) }

    /// The distorted field of one reading.
    public func apply(_ m: Vector3, offset: Vector3) -> Vector3 {
        guard let s = softIron else { return m + offset }
        return Vector3(s[0][0] * m.x + s[0][1] * m.y + s[0][2] * m.z,
                       s[1][0] * m.x + s[1][1] * m.y + s[1][2] * m.z,
                       s[2][0] * m.x + s[2][1] * m.y + s[2][2] * m.z) + offset
    }

    /// The trial with every magnetometer reading distorted; renamed "<name>@<key>" so its outputs
    /// are told apart from the original's in one run.
    public func applied(to trial: BroadTrial) -> BroadTrial {
        let offset = offset(meanStrength: Self.meanStrength(trial.samples))
        var out = trial
        out.name = "\(trial.name)@\(key)"
        for i in out.samples.indices {
            if let m = out.samples[i].magneticField { out.samples[i].magneticField = apply(m, offset: offset) }
        }
        return out
    }

    /// The mean |m| over the readings with a finite, non-zero field, µT.
    public static func meanStrength(_ samples: [MotionSample]) -> Double {
        var sum = 0.0, n = 0
        for s in samples {
            guard let m = s.magneticField, m.isFinite, m.lengthSquared > 0 else { continue }
            sum += m.length
            n += 1
        }
        return n > 0 ? sum / Double(n) : 0
    }
}
