/// A group of columns that together make one value of a sample (a vector, a quaternion, the
/// time), with the names and unit both the tiltkit format and the recordings in
/// `Assets/traces/` use.
enum TraceChannel: CaseIterable {
    case time
    case acceleration
    case rotationRate
    case magneticField
    /// Air pressure, one column.
    case pressure
    case referenceAttitude
    /// Core Motion's roll/pitch/yaw, read when a recording has them instead of a quaternion.
    case referenceEulerAngles
    case referenceGravity
    case referenceUserAcceleration

    var names: [String] {
        switch self {
        case .time: return ["t"]
        case .acceleration: return ["ax", "ay", "az"]
        case .rotationRate: return ["gx", "gy", "gz"]
        case .magneticField: return ["mx", "my", "mz"]
        case .pressure: return ["p"]
        case .referenceAttitude: return ["ref_qw", "ref_qx", "ref_qy", "ref_qz"]
        case .referenceEulerAngles: return ["ref_roll", "ref_pitch", "ref_yaw"]
        case .referenceGravity: return ["ref_gravx", "ref_gravy", "ref_gravz"]
        case .referenceUserAcceleration: return ["ref_uax", "ref_uay", "ref_uaz"]
        }
    }

    /// The unit written in the tiltkit header, e.g. `ax (g)`; empty for the unitless quaternion.
    var unit: String {
        switch self {
        case .time: return "s"
        case .acceleration, .referenceGravity, .referenceUserAcceleration: return "g"
        case .rotationRate: return "rad/s"
        case .referenceEulerAngles: return "rad"
        case .magneticField: return "uT"
        case .pressure: return "kPa"
        case .referenceAttitude: return ""
        }
    }

    /// The channels the tiltkit writer emits for `columns`, in file order.
    static func written(for columns: TraceColumns) -> [TraceChannel] {
        var channels: [TraceChannel] = [.time, .acceleration]
        if columns.contains(.rotationRate) { channels.append(.rotationRate) }
        if columns.contains(.magneticField) { channels.append(.magneticField) }
        if columns.contains(.pressure) { channels.append(.pressure) }
        if columns.contains(.referenceAttitude) { channels.append(.referenceAttitude) }
        if columns.contains(.referenceGravity) { channels.append(.referenceGravity) }
        if columns.contains(.referenceUserAcceleration) { channels.append(.referenceUserAcceleration) }
        return channels
    }

    /// The header cell for column `i`, with its unit: `gx (rad/s)`.
    func headerCell(_ i: Int) -> String { unit.isEmpty ? names[i] : "\(names[i]) (\(unit))" }
}
