import Motion

/// Decodes the scans an IIO buffer delivers (one `scanBytes`-sized record per sample) into Core
/// Motion samples, using the device's scale, offset and mount matrix. The `in_timestamp`
/// channel, where enabled, gives the sample time in ns on `current_timestamp_clock`.
public struct IIOBufferDecoder: Sendable {
    public let device: IIODevice
    public let layout: IIOScanLayout
    public var accelerationSign: IIOUnits.AccelerationSign
    private let motionElements: [(IIODevice.ChannelType, Int, IIOScanLayout.Element)]
    private let timestampElement: IIOScanLayout.Element?

    public init(device: IIODevice, layout: IIOScanLayout, accelerationSign: IIOUnits.AccelerationSign? = nil) {
        self.device = device
        self.layout = layout
        self.accelerationSign = accelerationSign ?? device.defaultAccelerationSign
        var motion: [(IIODevice.ChannelType, Int, IIOScanLayout.Element)] = []
        for element in layout.elements {
            for type in IIODevice.ChannelType.allCases {
                for (i, axis) in type.axes.enumerated() where element.name == type.elementName(axis: axis) {
                    motion.append((type, i, element))
                }
            }
        }
        motionElements = motion
        timestampElement = layout.element("in_timestamp")
    }

    public var hasTimestamps: Bool { timestampElement != nil }

    /// One scan → its physical vectors (IIO units, device frame) and its `in_timestamp` in
    /// seconds (nil without one); a scan may carry no acceleration (a sensor hub's gyroscope).
    public func reading(scan: [UInt8]) -> (physical: [IIODevice.ChannelType: Vector3], deviceTime: Double?)? {
        guard scan.count >= layout.scanBytes else { return nil }
        var raw: [IIODevice.ChannelType: SIMD3<Double>] = [:]
        for (type, axis, element) in motionElements {
            raw[type, default: .zero][axis] = Double(element.type.value(in: scan, at: element.offset))
        }
        var physical: [IIODevice.ChannelType: Vector3] = [:]
        for (type, counts) in raw { physical[type] = device.physical(type, counts: counts) }
        return (physical, timestampElement.map { Double($0.type.value(in: scan, at: $0.offset)) * 1e-9 })
    }

    /// One scan → a sample; `hostTime` is used when the scan has no timestamp.
    public func decode(scan: [UInt8], hostTime: Double) -> MotionSample? {
        guard scan.count >= layout.scanBytes else { return nil }
        var raw: [IIODevice.ChannelType: SIMD3<Double>] = [:]
        for (type, axis, element) in motionElements {
            raw[type, default: .zero][axis] = Double(element.type.value(in: scan, at: element.offset))
        }
        let time = timestampElement.map { Double($0.type.value(in: scan, at: $0.offset)) * 1e-9 } ?? hostTime
        return device.sample(timestamp: time, raw: raw, sign: accelerationSign)
    }
}
