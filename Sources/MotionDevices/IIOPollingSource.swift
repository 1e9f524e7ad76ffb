import Foundation
import Motion

/// An IIO IMU read by polling its sysfs `*_raw` attributes at the device's sampling frequency.
/// Simple and always available; timestamps are host time (sysfs has none). For full rate and
/// device timestamps use `IIOBufferSource`.
///
///     let imu = try IIOPollingSource(directory: "/sys/bus/iio/devices/iio:device0")
public final class IIOPollingSource: MotionSource, @unchecked Sendable {
    public let device: IIODevice
    public let info: MotionSourceInfo
    private let rate: Double
    private let sign: IIOUnits.AccelerationSign
    private let clock: any MotionClock
    private let attributes: [(IIODevice.ChannelType, Int, SysfsAttribute)]
    private let lock = NSLock()
    private var thread: SourceThread?

    /// `rate` in Hz overrides `sampling_frequency` (default 100 Hz when the device has none).
    public init(directory: String, rate: Double? = nil, accelerationSign: IIOUnits.AccelerationSign = .reaction,
                clock: any MotionClock = MonotonicClock(), calls: SystemCalls = .live) throws(DeviceError) {
        device = try IIODevice(directory: directory)
        guard device.sensors.contains(.accelerometer) else {
            throw .unsupported(path: directory, reason: "IIO device '\(device.name)' has no accelerometer channels")
        }
        self.rate = rate ?? device.samplingFrequency ?? 100
        sign = accelerationSign
        self.clock = clock
        var attributes: [(IIODevice.ChannelType, Int, SysfsAttribute)] = []
        for c in device.channels {
            let axis = c.axis == "x" ? 0 : (c.axis == "y" ? 1 : 2)
            attributes.append((c.type, axis, try SysfsAttribute(path: "\(directory)/\(c.prefix)_raw", calls: calls)))
        }
        self.attributes = attributes
        info = MotionSourceInfo(name: "\(device.name) (\((directory as NSString).lastPathComponent), sysfs)",
                                kind: "iio", sensors: device.sensors, nominalRate: self.rate)
    }

    /// One reading of every channel, now.
    public func read() throws(DeviceError) -> MotionSample? {
        var raw: [IIODevice.ChannelType: SIMD3<Double>] = [:]
        for (type, axis, attribute) in attributes { raw[type, default: .zero][axis] = try attribute.read() }
        return device.sample(timestamp: clock.now(), raw: raw, sign: sign)
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil else { return }
        let period = 1 / rate
        thread = SourceThread(name: "iio \(device.directory)") { [self] thread in
            var next = clock.now()
            while !thread.isStopping {
                do {
                    if let sample = try read() { deliver(.sample(sample)) }
                } catch {
                    deliver(.disconnected(reason: "\(error)"))
                    return
                }
                next += period
                let wait = next - clock.now()
                if wait < -period { next = clock.now() }  // fell behind: do not burst to catch up
                guard thread.pause(max(0, wait)) else { return }
            }
        }
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
    }
}
