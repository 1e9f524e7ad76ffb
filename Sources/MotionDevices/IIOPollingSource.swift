import Foundation
import Motion

/// An IIO IMU read by polling its sysfs `*_raw` attributes at the device's sampling frequency.
/// Simple and always available; timestamps are host time (sysfs has none). For full rate and
/// device timestamps use `IIOBufferSource`. A device that goes away (reads fail: ENODEV when a
/// USB sensor hub is unplugged) delivers `.disconnected`; when a device of the same name is back
/// (the same `iio:deviceN`, or a new number beside it) polling resumes after `.reconnected`.
///
///     let imu = try IIOPollingSource(directory: "/sys/bus/iio/devices/iio:device0")
public final class IIOPollingSource: MotionSource, @unchecked Sendable {
    public let device: IIODevice
    public let info: MotionSourceInfo
    /// How often a vanished device is looked for, s.
    public var reconnectInterval = 0.5
    private let rate: Double
    private let sign: IIOUnits.AccelerationSign
    private let clock: any MotionClock
    private let calls: SystemCalls
    /// The open `*_raw` attributes; replaced by the polling thread on reconnect.
    private var attributes: [(IIODevice.ChannelType, Int, SysfsAttribute)]
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
        self.calls = calls
        attributes = try Self.openAttributes(of: device, in: directory, calls: calls)
        info = MotionSourceInfo(name: "\(device.name) (\((directory as NSString).lastPathComponent), sysfs)",
                                kind: "iio", sensors: device.sensors, nominalRate: self.rate)
    }

    private static func openAttributes(of device: IIODevice, in directory: String, calls: SystemCalls)
        throws(DeviceError) -> [(IIODevice.ChannelType, Int, SysfsAttribute)]
    {
        var attributes: [(IIODevice.ChannelType, Int, SysfsAttribute)] = []
        for c in device.channels {
            let axis = c.axis == "x" ? 0 : (c.axis == "y" ? 1 : 2)
            attributes.append((c.type, axis, try SysfsAttribute(path: "\(directory)/\(c.prefix)_raw", calls: calls)))
        }
        return attributes
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
                    guard awaitReturn(thread) else { return }
                    deliver(.reconnected)
                    next = clock.now()
                    continue
                }
                next += period
                let wait = next - clock.now()
                if wait < -period { next = clock.now() }  // fell behind: do not burst to catch up
                guard thread.pause(max(0, wait)) else { return }
            }
        }
    }

    /// Waits until a device of the same name and channels is back and reopens it; false if stopped first.
    private func awaitReturn(_ thread: SourceThread) -> Bool {
        while thread.pause(reconnectInterval) {
            for directory in candidateDirectories() {
                guard let found = try? IIODevice(directory: directory), found.name == device.name,
                      found.channels.map(\.prefix) == device.channels.map(\.prefix),
                      let reopened = try? Self.openAttributes(of: found, in: directory, calls: calls) else { continue }
                attributes = reopened
                return true
            }
        }
        return false
    }

    /// The device's own directory first, then every other `iio:device*` beside it (replugging
    /// a USB sensor hub gives it a new number).
    private func candidateDirectories() -> [String] {
        let parent = (device.directory as NSString).deletingLastPathComponent
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [])
            .filter { $0.hasPrefix("iio:device") }.sorted().map { "\(parent)/\($0)" }
        return [device.directory] + others.filter { $0 != device.directory }
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
    }
}
