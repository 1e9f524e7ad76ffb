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

    public var sensors: SensorSet { Self.sensors(channels.map(\.type)) }

    /// The sensors a device directory's `*_raw` files promise, whatever its other attributes say.
    static func sensors(files: Set<String>) -> SensorSet {
        sensors(ChannelType.allCases.filter { type in type.axes.contains { files.contains("\(type.elementName(axis: $0))_raw") } })
    }

    private static func sensors(_ types: [ChannelType]) -> SensorSet {
        var set: SensorSet = []
        for type in types {
            switch type {
            case .accel: set.insert(.accelerometer)
            case .anglvel: set.insert(.gyroscope)
            case .magn: set.insert(.magnetometer)
            case .pressure: set.insert(.barometer)
            }
        }
        return set
    }

    /// Reads the device's attributes, each once; a device whose description cannot be trusted (a
    /// scale, offset, rate or mount matrix that does not parse or is out of range, an attribute
    /// that is a FIFO or a folder) is refused with the attribute's path and value.
    public init(directory: String) throws(DeviceError) {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { throw .notFound(path: directory) }
        try self.init(directory: directory, files: Set(files)) { file throws(DeviceError) in
            try SysfsAttribute.text(at: directory + "/" + file)
        }
    }

    /// The description from the attribute files `files` and their texts (`read`; nil: absent):
    /// the pure core, which the fuzz target feeds.
    init(directory: String, files: Set<String>, read: (String) throws(DeviceError) -> String?) throws(DeviceError) {
        var texts: [String: String?] = [:]
        func text(_ file: String) throws(DeviceError) -> String? {
            guard files.contains(file) else { return nil }
            if let known = texts[file] { return known }
            let value = try read(file)
            texts[file] = value
            return value
        }
        func number(_ file: String, expected: String, isValid: (Double) -> Bool) throws(DeviceError) -> Double? {
            guard let value = try text(file) else { return nil }
            return try SysfsAttribute.number(value, path: directory + "/" + file, expected: expected, isValid: isValid)
        }
        self.directory = directory
        name = try text("name") ?? (directory as NSString).lastPathComponent
        var channels: [Channel] = []
        var matrices: [ChannelType: RotationMatrix] = [:]
        let rate = IIOSamplingFrequency.attributeRange
        var frequency = try number("sampling_frequency", expected: rate.expected, isValid: rate.contains)
        for type in ChannelType.allCases {
            let t = "in_\(type.rawValue)"
            for axis in type.axes where files.contains("\(type.elementName(axis: axis))_raw") {
                let element = type.elementName(axis: axis)
                // Absent, the scale is 1 and the offset 0: the raw value is in the type's unit (ABI).
                func value(_ quantity: String, _ range: ValueRange) throws(DeviceError) -> Double? {
                    if let own = try number("\(element)_\(quantity)", expected: range.expected, isValid: range.contains) { return own }
                    return try number("\(t)_\(quantity)", expected: range.expected, isValid: range.contains)
                }
                let scale = try value("scale", Self.scaleRange) ?? 1
                let offset = try value("offset", Self.offsetRange) ?? 0
                channels.append(Channel(type: type, axis: axis, scale: scale, offset: offset))
            }
            for file in ["\(t)_mount_matrix", "mount_matrix", "in_mount_matrix"] {
                guard let value = try text(file) else { continue }
                guard let m = RotationMatrix(iioMountMatrix: value), m.isUsableMountMatrix else {
                    throw .badAttribute(path: directory + "/" + file, value: value,
                                        expected: "a mount matrix 'a, b, c; d, e, f; g, h, i' of finite numbers that is not singular")
                }
                matrices[type] = m
                break
            }
            if frequency == nil {
                frequency = try number("\(t)_sampling_frequency", expected: rate.expected, isValid: rate.contains)
            }
        }
        self.channels = channels
        mountMatrices = matrices
        samplingFrequency = frequency
    }

    /// Scales the kernel can print: it writes them to 9 decimals (`__iio_format_value`,
    /// IIO_VAL_INT_PLUS_NANO and the fractional formats), so a nonzero one is at least 1e-9, and
    /// its largest integer is a 64-bit one (IIO_VAL_INT_64). 0 would flatten every reading.
    static let scaleRange = ValueRange(expected: "a scale: a finite number, 1e-9 to 9.2e18 in size") { v in
        v.isFinite && v.magnitude >= 1e-9 && v.magnitude <= 9.2e18
    }
    static let offsetRange = ValueRange(expected: "an offset: a finite number within ±9.2e18") { v in
        v.isFinite && v.magnitude <= 9.2e18
    }

    /// Which numbers an attribute may hold, and the words for them in an error.
    struct ValueRange: Sendable {
        let expected: String
        let contains: @Sendable (Double) -> Bool
        init(expected: String, contains: @escaping @Sendable (Double) -> Bool) {
            self.expected = expected
            self.contains = contains
        }
    }

    public func channels(of type: ChannelType) -> [Channel] { channels.filter { $0.type == type } }
}

extension RotationMatrix {
    /// Finite and not singular: a matrix that rotates, not one that flattens readings to a plane.
    var isUsableMountMatrix: Bool {
        let d = m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
        return d.isFinite && d.magnitude > 1e-6
    }

    /// Parses an IIO mount matrix, rows as written: `"a, b, c; d, e, f; g, h, i"`; applied as M·v.
    public init?(iioMountMatrix text: String) {
        let rows = text.split(separator: ";").map {
            $0.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }),
              text.split(separator: ";").allSatisfy({ $0.split(separator: ",").count == 3 }) else { return nil }
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
