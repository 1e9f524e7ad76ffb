import Foundation
import Motion

/// An IIO IMU read by polling its sysfs `*_raw` attributes at the device's sampling frequency.
/// Simple and always available; timestamps are host time (sysfs has none). For full rate and
/// device timestamps use `IIOBufferSource`. Several directories (a sensor hub's accelerometer,
/// gyroscope and magnetometer devices, `IIODeviceGroup`) are read as one IMU: each poll reads
/// every device. A device that goes away (reads fail: ENODEV when a USB sensor hub is unplugged)
/// delivers `.disconnected`; when devices of the same names are back (the same `iio:deviceN`, or
/// new numbers beside them) polling resumes after `.reconnected`.
///
///     let imu = try IIOPollingSource(directory: "/sys/bus/iio/devices/iio:device0")
public final class IIOPollingSource: RateSettableMotionSource, @unchecked Sendable {
    /// The device with the accelerometer.
    public var device: IIODevice { devices[0] }
    /// Every device read, the accelerometer's first.
    public let devices: [IIODevice]
    public let info: MotionSourceInfo
    /// How often a vanished device is looked for, s.
    public var reconnectInterval = 0.5
    /// Polling rate, Hz; guarded by `lock` (an update interval may change it while running).
    private var rate: Double
    private let sign: IIOUnits.AccelerationSign
    private let clock: any MotionClock
    private let calls: SystemCalls
    /// The open `*_raw` attributes per device; replaced by the polling thread on reconnect.
    private var attributes: [[(IIODevice.ChannelType, Int, SysfsAttribute)]]
    private let lock = NSLock()
    private var thread: SourceThread?

    public convenience init(directory: String, rate: Double? = nil, accelerationSign: IIOUnits.AccelerationSign? = nil,
                            clock: any MotionClock = MonotonicClock(), calls: SystemCalls = .live) throws(DeviceError) {
        try self.init(directories: [directory], rate: rate, accelerationSign: accelerationSign, clock: clock, calls: calls)
    }

    /// `rate` in Hz overrides `sampling_frequency` (default 100 Hz when the device has none);
    /// `requestedRate` is first written to the devices (`IIOSamplingFrequency`), and what they
    /// took is the polling rate; a device at rest (rate 0, a sensor hub's idle state) is asked for
    /// `requestedRate` or 100 Hz, which `notes` says. Polling is bounded to `pollingRange`.
    /// `accelerationSign` nil: the driver's (`IIODevice.defaultAccelerationSign`).
    public init(directories: [String], rate: Double? = nil, requestedRate: Double? = nil,
                accelerationSign: IIOUnits.AccelerationSign? = nil,
                clock: any MotionClock = MonotonicClock(), calls: SystemCalls = .live) throws(DeviceError) {
        var found: [IIODevice] = []
        var notes: [String] = []
        for directory in directories {
            let (device, note) = try IIOSamplingFrequency.prepare(directory: directory, requestedRate: requestedRate)
            found.append(device)
            if let note { notes.append(note) }
        }
        devices = IIODeviceGroup.accelerometerFirst(found)
        guard let primary = devices.first, primary.sensors.contains(.accelerometer) else {
            throw .unsupported(path: IIODeviceGroup.spec(directories),
                               reason: "IIO device '\(found.map(\.name).joined(separator: "+"))' has no accelerometer channels")
        }
        let deviceRate = primary.samplingFrequency.flatMap { $0 > 0 ? $0 : nil }
        self.rate = Self.pollingRate(rate ?? deviceRate ?? requestedRate ?? IIOSamplingFrequency.restingDeviceRate)
        self.notes = notes
        sign = accelerationSign ?? primary.defaultAccelerationSign
        self.clock = clock
        self.calls = calls
        var opened: [[(IIODevice.ChannelType, Int, SysfsAttribute)]] = []
        for d in devices { opened.append(try Self.openAttributes(of: d, in: d.directory, calls: calls)) }
        attributes = opened
        let names = devices.map(\.name).joined(separator: "+")
        let folders = devices.map { ($0.directory as NSString).lastPathComponent }.joined(separator: "+")
        info = MotionSourceInfo(name: "\(names) (\(folders), sysfs)", kind: "iio",
                                sensors: devices.reduce(into: SensorSet()) { $0.formUnion($1.sensors) }, nominalRate: self.rate)
    }

    /// What was said about the devices while opening them (a device at rest asked for a rate), for the user.
    public let notes: [String]

    /// sysfs polling reads every attribute with a system call: above 1 kHz it only burns a core,
    /// and a rate below one poll a day is none.
    public static let pollingRange = (1.0 / 86_400)...1000.0

    static func pollingRate(_ hertz: Double) -> Double {
        hertz.isNaN ? IIOSamplingFrequency.restingDeviceRate : min(max(hertz, pollingRange.lowerBound), pollingRange.upperBound)
    }

    private static func openAttributes(of device: IIODevice, in directory: String, calls: SystemCalls)
        throws(DeviceError) -> [(IIODevice.ChannelType, Int, SysfsAttribute)]
    {
        var attributes: [(IIODevice.ChannelType, Int, SysfsAttribute)] = []
        for c in device.channels {
            attributes.append((c.type, c.axisIndex, try SysfsAttribute(path: "\(directory)/\(c.prefix)_raw", calls: calls)))
        }
        return attributes
    }

    /// One reading of every channel of every device, now (each type from the first device with it).
    public func read() throws(DeviceError) -> MotionSample? {
        var physical: [IIODevice.ChannelType: Vector3] = [:]
        for (device, attributes) in zip(devices, attributes) {
            var raw: [IIODevice.ChannelType: SIMD3<Double>] = [:]
            for (type, axis, attribute) in attributes where physical[type] == nil {
                raw[type, default: .zero][axis] = try attribute.read()
            }
            for (type, counts) in raw { physical[type] = device.physical(type, counts: counts) }
        }
        return IIOUnits.sample(timestamp: clock.now(), physical: physical, sign: sign)
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil else { return }
        thread = SourceThread(name: "iio \(device.directory)") { [self] thread in
            var next = clock.now()
            while !thread.isStopping {
                let period = 1 / pollingRate
                do {
                    if let sample = try read() { deliver(.samples([sample])) }
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

    private var pollingRate: Double {
        lock.lock(); defer { lock.unlock() }
        return rate
    }

    /// Writes the rate to every device (`IIOSamplingFrequency`: the nearest listed at or above)
    /// and polls at what the accelerometer's device took; nil when it has no rate attribute.
    public func requestSampleRate(_ hertz: Double) -> Double? {
        var applied: Double?
        for d in devices {
            // an attribute that cannot be trusted takes no rate: the manager thins the samples instead
            let took = try? IIOSamplingFrequency.request(hertz, device: d)
            if d.directory == device.directory { applied = took ?? nil }
        }
        guard let applied, applied > 0 else { return nil }
        lock.lock(); rate = Self.pollingRate(applied); lock.unlock()
        return applied
    }

    /// Waits until devices of the same names and channels are back and reopens them; false if
    /// stopped first.
    private func awaitReturn(_ thread: SourceThread) -> Bool {
        while thread.pause(reconnectInterval) {
            var reopened: [[(IIODevice.ChannelType, Int, SysfsAttribute)]] = []
            for device in devices {
                guard let found = Self.returned(device, calls: calls) else { break }
                reopened.append(found)
            }
            if reopened.count == devices.count {
                attributes = reopened
                return true
            }
        }
        return false
    }

    private static func returned(_ device: IIODevice, calls: SystemCalls) -> [(IIODevice.ChannelType, Int, SysfsAttribute)]? {
        for directory in candidateDirectories(device.directory) {
            guard let found = try? IIODevice(directory: directory), found.name == device.name,
                  found.channels.map(\.prefix) == device.channels.map(\.prefix),
                  let reopened = try? openAttributes(of: found, in: directory, calls: calls) else { continue }
            return reopened
        }
        return nil
    }

    /// The device's own directory first, then every other `iio:device*` beside it (replugging
    /// a USB sensor hub gives it a new number).
    static func candidateDirectories(_ directory: String) -> [String] {
        let parent = (directory as NSString).deletingLastPathComponent
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [])
            .filter { $0.hasPrefix("iio:device") }.sorted().map { "\(parent)/\($0)" }
        return [directory] + others.filter { $0 != directory }
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
    }
}
