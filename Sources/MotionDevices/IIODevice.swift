import Foundation
import Motion

/// An IIO device's sysfs directory (`/sys/bus/iio/devices/iio:deviceN`) as the ABI documents
/// it (Documentation/ABI/testing/sysfs-bus-iio; INPUT_FACTS §12): which motion channels it has,
/// how to scale them, how it is mounted and how fast it samples.
///
/// value = (raw + offset) × scale, with scale and offset per axis (`in_magn_x_scale`) or shared
/// (`in_accel_scale`), offset 0 when absent. The mount matrix rotates chip axes into the
/// device's; its attribute name varies by driver, so all known names are tried.
public struct IIODevice: Sendable {
    /// The motion channel types this library reads.
    public enum ChannelType: String, CaseIterable, Sendable {
        /// m/s²
        case accel
        /// rad/s
        case anglvel
        /// Gauss
        case magn
        /// kPa; one channel, no axis (`in_pressure_raw`)
        case pressure

        /// The axes a channel of this type has; "" for the single axis-less channel.
        public var axes: [String] { self == .pressure ? [""] : ["x", "y", "z"] }

        /// The sysfs and scan-element name of one axis: `in_accel_x`, `in_pressure`.
        public func elementName(axis: String) -> String { axis.isEmpty ? "in_\(rawValue)" : "in_\(rawValue)_\(axis)" }
    }

    public struct Channel: Sendable {
        public var type: ChannelType
        public var axis: String
        public var scale: Double
        public var offset: Double
        /// e.g. "in_accel_x", "in_pressure"
        public var prefix: String { type.elementName(axis: axis) }
        /// Index in a vector of counts: x, y, z → 0, 1, 2; the axis-less channel → 0.
        public var axisIndex: Int { axis == "y" ? 1 : (axis == "z" ? 2 : 0) }
    }

    public let directory: String
    /// The `name` attribute (driver or part name), or the directory name.
    public let name: String
    public let channels: [Channel]
    public let mountMatrices: [ChannelType: RotationMatrix]
    /// Hz, from `sampling_frequency` or `in_<type>_sampling_frequency`.
    public let samplingFrequency: Double?

    public var sensors: SensorSet {
        var set: SensorSet = []
        for c in channels {
            switch c.type {
            case .accel: set.insert(.accelerometer)
            case .anglvel: set.insert(.gyroscope)
            case .magn: set.insert(.magnetometer)
            case .pressure: set.insert(.barometer)
            }
        }
        return set
    }

    public init(directory: String) throws(DeviceError) {
        let fm = FileManager.default
        guard let files = try? fm.contentsOfDirectory(atPath: directory) else { throw .notFound(path: directory) }
        let names = Set(files)
        func text(_ file: String) -> String? {
            names.contains(file) ? (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }
        func number(_ file: String) -> Double? { text(file).flatMap(Double.init) }
        self.directory = directory
        name = text("name") ?? (directory as NSString).lastPathComponent
        var channels: [Channel] = []
        var matrices: [ChannelType: RotationMatrix] = [:]
        var frequency: Double? = number("sampling_frequency")
        for type in ChannelType.allCases {
            let t = "in_\(type.rawValue)"
            for axis in type.axes where names.contains("\(type.elementName(axis: axis))_raw") {
                let element = type.elementName(axis: axis)
                channels.append(Channel(type: type, axis: axis,
                                        scale: number("\(element)_scale") ?? number("\(t)_scale") ?? 1,
                                        offset: number("\(element)_offset") ?? number("\(t)_offset") ?? 0))
            }
            for file in ["\(t)_mount_matrix", "mount_matrix", "in_mount_matrix"] {
                if let m = text(file).flatMap(RotationMatrix.init(iioMountMatrix:)) { matrices[type] = m; break }
            }
            if frequency == nil { frequency = number("\(t)_sampling_frequency") }
        }
        self.channels = channels
        mountMatrices = matrices
        samplingFrequency = frequency
    }

    public func channels(of type: ChannelType) -> [Channel] { channels.filter { $0.type == type } }
}

extension RotationMatrix {
    /// Parses an IIO mount matrix, rows as written: `"a, b, c; d, e, f; g, h, i"`; applied as M·v.
    public init?(iioMountMatrix text: String) {
        let rows = text.split(separator: ";").map {
            $0.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 }) else { return nil }
        self.init(m11: rows[0][0], m12: rows[0][1], m13: rows[0][2],
                  m21: rows[1][0], m22: rows[1][1], m23: rows[1][2],
                  m31: rows[2][0], m32: rows[2][1], m33: rows[2][2])
    }
}

/// IIO units into Core Motion's, in one place.
public enum IIOUnits {
    /// Which way an accelerometer's readings point. The ABI does not say (INPUT_FACTS §12, §15.6):
    /// chips and most drivers (inv_mpu6050, bmi160) report the reaction to gravity (+1 g up when
    /// lying still, like Android and SDL); some hwdb mount matrices are written so the result is
    /// already the gravity direction (iio-sensor-proxy expects y ≈ −1 g upright).
    public enum AccelerationSign: String, Sendable {
        /// +g up at rest: negated into Core Motion's gravity-direction sign. The default.
        case reaction
        /// Already Core Motion's sign.
        case gravity
    }

    /// m/s² (device frame) → Core Motion acceleration in g.
    public static func acceleration(metersPerSecondSquared v: Vector3, sign: AccelerationSign) -> Vector3 {
        let g = v / CoreMotionFrame.standardGravity
        return sign == .reaction ? -g : g
    }

    /// Gauss → µT (1 G = 100 µT).
    public static func magneticField(gauss v: Vector3) -> Vector3 { v * 100 }

    // Pressure needs no conversion: the ABI's unit for in_pressure is already kPa, Core Motion's.
}

extension IIODevice {
    /// The accelerometer sign this device's driver uses. HID sensor hubs (hid-sensor-accel-3d,
    /// IIO name `accel_3d`; and its `gravity` device) pass the hub's values through unchanged, and
    /// hubs are built to Windows' convention ("Integrating Motion and Orientation Sensors",
    /// Microsoft 2018: "at rest at the device's natural orientation, the vertical accelerometer
    /// will register −9.8 m/s²"): the gravity direction, Core Motion's own sign. Every other
    /// driver: the chip's reaction.
    public var defaultAccelerationSign: IIOUnits.AccelerationSign {
        ["accel_3d", "gravity"].contains(name) ? .gravity : .reaction
    }

    /// Raw counts of one channel type (chip axes x/y/z; missing axes 0) → physical IIO units in the
    /// device frame: (raw + offset) × scale, then the mount matrix. nil if the device lacks the type.
    public func physical(_ type: ChannelType, counts: SIMD3<Double>) -> Vector3? {
        let typed = channels(of: type)
        guard !typed.isEmpty else { return nil }
        var v = SIMD3<Double>.zero
        for c in typed { v[c.axisIndex] = (counts[c.axisIndex] + c.offset) * c.scale }
        let vector = Vector3(v.x, v.y, v.z)
        return mountMatrices[type].map { $0 * vector } ?? vector
    }

    /// Raw counts per channel type → a Core Motion sample: (raw + offset) × scale, mount matrix, units.
    public func sample(timestamp: Double, raw: [ChannelType: SIMD3<Double>], sign: IIOUnits.AccelerationSign)
        -> MotionSample? {
        var vectors: [ChannelType: Vector3] = [:]
        for (type, counts) in raw { vectors[type] = physical(type, counts: counts) }
        return IIOUnits.sample(timestamp: timestamp, physical: vectors, sign: sign)
    }
}

extension IIOUnits {
    /// Physical IIO vectors (m/s², rad/s, gauss, kPa in x; device frame) → a Core Motion sample; nil
    /// without acceleration.
    public static func sample(timestamp: Double, physical: [IIODevice.ChannelType: Vector3], sign: AccelerationSign)
        -> MotionSample? {
        guard let accel = physical[.accel] else { return nil }
        return MotionSample(timestamp: timestamp,
                            acceleration: acceleration(metersPerSecondSquared: accel, sign: sign),
                            rotationRate: physical[.anglvel],
                            magneticField: physical[.magn].map(magneticField(gauss:)),
                            pressure: physical[.pressure]?.x)
    }
}
