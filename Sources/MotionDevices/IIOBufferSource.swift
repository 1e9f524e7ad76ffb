import Foundation
import Motion
#if canImport(Glibc)
import Glibc
#endif

/// An IIO IMU read through its buffered character device (`/dev/iio:deviceN`): full rate,
/// kernel timestamps. Setup follows the ABI (INPUT_FACTS §12): enable the accel/anglvel/magn and
/// timestamp scan elements, ask for CLOCK_MONOTONIC timestamps, size and enable the buffer; then
/// read whole scans. Drivers with a triggered buffer need `trigger/current_trigger` set: when it is
/// empty, the driver's own data-ready trigger (`<name>-dev<N>`, beside the device) is chosen.
/// Attributes that cannot be written (no permission, read-only drivers) are left as they are and
/// the elements already enabled are used; a buffer that stays disabled is a clear error, not a
/// silent wait. `stop` disables the buffer again when this source enabled it.
///
/// Several directories (a sensor hub's accelerometer, gyroscope and magnetometer devices,
/// `IIODeviceGroup`) are read together: one sample per accelerometer scan, carrying the latest
/// readings of the others (`IIOSampleMerger`).
///
/// Kernel timestamps are converted onto the host's monotonic clock from whichever
/// `current_timestamp_clock` the device uses (realtime when it could not be set);
/// stamps that cannot be believed (none: hid-sensor-magn-3d; frozen: hid-sensor-press) give
/// arrival times (`IIOTimestampConverter`), never a bogus time. A device that goes away (reads fail with
/// ENODEV; its character device then never polls readable, so every device is read on each
/// 100 ms wake-up) delivers `.disconnected`; devices of the same names coming back (the same
/// `iio:deviceN` or new numbers) are set up again, and `.reconnected` follows.
///
///     let imu = try IIOBufferSource(directory: "/sys/bus/iio/devices/iio:device0")
public final class IIOBufferSource: RateSettableMotionSource, @unchecked Sendable {
    /// The accelerometer device's decoder.
    public var decoder: IIOBufferDecoder { decoders[0] }
    /// One per device, the accelerometer's first.
    public let decoders: [IIOBufferDecoder]
    public let info: MotionSourceInfo
    /// How often a vanished device is looked for, s.
    public var reconnectInterval = 0.5
    private let clock: any MotionClock
    private let calls: SystemCalls
    private let configures: Bool
    private let sign: IIOUnits.AccelerationSign
    /// Where the character devices are (`/dev`).
    private let deviceNodes: String
    private let lock = NSLock()
    private var thread: SourceThread?
    /// The sysfs directories in use (they change when the devices come back under new numbers).
    private var directories: [String]

    /// The character device of the accelerometer's directory in use, `/dev/iio:deviceN`.
    public var characterDevice: String {
        lock.lock(); defer { lock.unlock() }
        return Self.characterDevice(of: directories[0], in: deviceNodes)
    }

    private static func characterDevice(of directory: String, in deviceNodes: String) -> String {
        "\(deviceNodes)/\((directory as NSString).lastPathComponent)"
    }

    public convenience init(directory: String, deviceNodes: String = "/dev", configure: Bool = true,
                            accelerationSign: IIOUnits.AccelerationSign? = nil,
                            clock: any MotionClock = MonotonicClock(), calls: SystemCalls = .live) throws(DeviceError) {
        try self.init(directories: [directory], deviceNodes: deviceNodes, configure: configure,
                      accelerationSign: accelerationSign, clock: clock, calls: calls)
    }

    /// Each character device is `<deviceNodes>/<directory name>`. `requestedRate` (Hz) is written
    /// to the devices before their buffers are enabled (`IIOSamplingFrequency`). `accelerationSign`
    /// nil: the driver's (`IIODevice.defaultAccelerationSign`).
    public init(directories: [String], deviceNodes: String = "/dev", configure: Bool = true,
                requestedRate: Double? = nil, accelerationSign: IIOUnits.AccelerationSign? = nil,
                clock: any MotionClock = MonotonicClock(), calls: SystemCalls = .live) throws(DeviceError) {
        var found: [IIOBufferDecoder] = []
        var notes: [String] = []
        for directory in directories {
            if configure {
                let (_, note) = try IIOSamplingFrequency.prepare(directory: directory, requestedRate: requestedRate) {
                    Self.disable(directory)
                }
                if let note { notes.append(note) }
            }
            found.append(try Self.setUp(directory: directory, configure: configure))
        }
        self.notes = notes
        let hasAccel = { (d: IIOBufferDecoder) in d.layout.elements.contains { $0.name.hasPrefix("in_accel_") } }
        let ordered = found.filter(hasAccel) + found.filter { !hasAccel($0) }
        guard let primary = ordered.first, hasAccel(primary) else {
            if configure { for d in found { Self.disable(d.device.directory) } }
            throw .unsupported(path: IIODeviceGroup.spec(directories),
                               reason: "no accelerometer scan elements are enabled (write 1 to scan_elements/in_accel_*_en)")
        }
        decoders = ordered
        self.directories = ordered.map(\.device.directory)
        self.deviceNodes = deviceNodes
        configures = configure
        sign = accelerationSign ?? primary.device.defaultAccelerationSign
        self.clock = clock
        self.calls = calls
        let names = ordered.map(\.device.name).joined(separator: "+")
        let folders = ordered.map { ($0.device.directory as NSString).lastPathComponent }.joined(separator: "+")
        info = MotionSourceInfo(name: "\(names) (\(folders), buffer)", kind: "iio-buffer",
                                sensors: ordered.reduce(into: SensorSet()) { $0.formUnion($1.device.sensors) },
                                nominalRate: primary.device.samplingFrequency.flatMap { $0 > 0 ? $0 : nil })
    }

    /// What was said about the devices while setting them up (a device at rest asked for a rate), for the user.
    public let notes: [String]

    /// Reads the device at `directory`, sets its buffer up (`configure`) and decodes its scan layout.
    private static func setUp(directory: String, configure: Bool) throws(DeviceError) -> IIOBufferDecoder {
        let device = try IIODevice(directory: directory)
        let fm = FileManager.default
        let scanElements = ["\(directory)/scan_elements", "\(directory)/buffer0"]
            .first { fm.fileExists(atPath: $0) } ?? "\(directory)/scan_elements"
        let files = (try? fm.contentsOfDirectory(atPath: scanElements)) ?? []
        guard !files.isEmpty else {
            throw .unsupported(path: directory, reason: "'\(device.name)' has no scan_elements: it has no buffer; use iio:\(directory)")
        }
        if configure {
            let trigger = Self.configure(directory: directory, deviceName: device.name, scanElements: scanElements, files: files)
            // whatever keeps it from reading "1" (a refused write, no trigger) is said by the reason below
            let enabled = (try? SysfsAttribute.text(at: "\(directory)/buffer/enable")) ?? nil
            guard enabled == "1" else {
                throw .unsupported(path: directory, reason: Self.disabledBufferReason(trigger: trigger, directory: directory))
            }
        }
        let layout = try IIOScanElements.layout(folder: scanElements, files: files) { path throws(DeviceError) in
            try SysfsAttribute.text(at: path)
        }
        return IIOBufferDecoder(device: device, layout: layout)
    }

    private static func disable(_ directory: String) {
        try? SysfsAttribute.write("0", to: "\(directory)/buffer/enable")
    }

    /// What `configure` found about the trigger.
    enum TriggerSetup: Equatable {
        /// No `trigger/` directory: the buffer needs no trigger.
        case notNeeded
        /// `current_trigger` was already set (kept as it is).
        case alreadySet(String)
        /// `current_trigger` was empty; this trigger was written into it.
        case chosen(String)
        /// `current_trigger` was empty and no trigger of the device's own exists.
        case missing(expected: String)
    }

    /// Best-effort ABI setup: disable, enable motion + timestamp elements, monotonic clock, the
    /// device's own trigger where none is set, size and enable.
    static func configure(directory: String, deviceName: String, scanElements: String, files: [String]) -> TriggerSetup {
        func write(_ path: String, _ value: String) { try? SysfsAttribute.write(value, to: path) }
        write("\(directory)/buffer/enable", "0")
        for file in files where file.hasSuffix("_en") {
            let motion = ["in_accel_", "in_anglvel_", "in_magn_", "in_pressure_", "in_timestamp"].contains { file.hasPrefix($0) }
            if motion { write("\(scanElements)/\(file)", "1") }
        }
        write("\(directory)/current_timestamp_clock", "monotonic")
        let trigger = triggerSetup(directory: directory, deviceName: deviceName)
        if case .chosen(let name) = trigger { write("\(directory)/trigger/current_trigger", name) }
        // room for seconds of scans: a reader held up (a loaded machine) loses none
        write("\(directory)/buffer/length", "1024")
        write("\(directory)/buffer/enable", "1")
        return trigger
    }

    /// The trigger situation of the device at `directory`: drivers name their data-ready trigger
    /// "<device name>-dev<N>" (iio_trigger_alloc's usual pattern) and it appears beside the device
    /// as `triggerM/name`.
    static func triggerSetup(directory: String, deviceName: String) -> TriggerSetup {
        let current = "\(directory)/trigger/current_trigger"
        guard FileManager.default.fileExists(atPath: current) else { return .notNeeded }
        let set = ((try? SysfsAttribute.text(at: current)) ?? nil) ?? ""
        if !set.isEmpty { return .alreadySet(set) }
        let deviceDirectory = (directory as NSString).lastPathComponent
        let number = deviceDirectory.hasPrefix("iio:device") ? String(deviceDirectory.dropFirst("iio:device".count)) : ""
        let expected = "\(deviceName)-dev\(number)"
        let parent = (directory as NSString).deletingLastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [])
            .filter { $0.hasPrefix("trigger") }.sorted()
            .compactMap { (try? SysfsAttribute.text(at: "\(parent)/\($0)/name")) ?? nil }
        if names.contains(expected) { return .chosen(expected) }
        // some drivers add a suffix of their own ("-dev0-any-motion"): take the device's data-ready one
        if let own = names.first(where: { $0.hasPrefix(deviceName + "-dev") && !$0.contains("motion") }) { return .chosen(own) }
        return .missing(expected: expected)
    }

    static func disabledBufferReason(trigger: TriggerSetup, directory: String) -> String {
        let poll = "; use iio:\(directory) to poll the sysfs values instead"
        switch trigger {
        case .missing(let expected):
            return "its buffer needs a trigger: trigger/current_trigger is empty and no '\(expected)' trigger exists "
                + "(an hrtimer or sysfs trigger can be made with configfs)\(poll)"
        case .chosen(let name), .alreadySet(let name):
            return "its buffer stays disabled with trigger '\(name)' (writing buffer/enable needs root or a udev rule)\(poll)"
        case .notNeeded:
            return "its buffer stays disabled (writing buffer/enable needs root or a udev rule)\(poll)"
        }
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil else { return }
        var fds: [Int32] = []
        for directory in directories {
            let path = Self.characterDevice(of: directory, in: deviceNodes)
            let (fd, code) = calls.open(path, O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else {
                fds.forEach { _ = close($0) }
                throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix)
            }
            fds.append(fd)
        }
        let opened = fds
        thread = SourceThread(name: "iio-buffer \(directories[0])") { [self] thread in
            var fds = opened
            let types = Set(decoders.dropFirst().flatMap { $0.device.channels.map(\.type) })
            var merger = IIOSampleMerger(accelerationSign: sign, awaiting: types)
            while true {
                let reason = run(fds: fds, merger: &merger, thread: thread, deliver)
                fds.forEach { _ = close($0) }
                guard let reason else { return }  // stopped or ended
                deliver(.disconnected(reason: reason))
                guard let reopened = awaitReturn(thread) else { return }
                fds = reopened
                merger.reset()
                deliver(.reconnected)
            }
        }
    }

    /// Reads scans until stopped or ended (nil) or a device fails (the reason).
    private func run(fds: [Int32], merger: inout IIOSampleMerger, thread: SourceThread,
                     _ deliver: @Sendable (MotionSourceEvent) -> Void) -> String? {
        let paths = lock.withLock { directories }
        let started = clock.now()
        var pending = [[UInt8]](repeating: [], count: fds.count)
        // each device's stamps on the clock it says it uses (read after configure asked for monotonic)
        let clocks = paths.map { (try? SysfsAttribute.text(at: "\($0)/current_timestamp_clock")) ?? nil }
        var converters = clocks.map { IIOTimestampConverter(clockName: $0) }
        var chunk = [UInt8](repeating: 0, count: decoders.map(\.layout.scanBytes).max()! * 64)
        var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while !thread.isStopping {
            _ = poll(&pfds, nfds_t(pfds.count), 100)
            // Every device is read, readable or not: a removed IIO device's buffer never polls
            // readable (iio_buffer_poll returns 0 once its info is gone); only read() says ENODEV.
            var readings: [(time: Double, physical: [IIODevice.ChannelType: Vector3])] = []
            for (i, fd) in fds.enumerated() {
                let (n, code) = chunk.withUnsafeMutableBytes { calls.read(fd, $0) }
                if n < 0 {
                    if code == EAGAIN || code == EINTR { continue }
                    let path = Self.characterDevice(of: paths[i], in: deviceNodes)
                    return DeviceError.disconnected(path: path, reason: String(cString: strerror(code))).description
                }
                if n == 0 { deliver(.ended); return nil }
                pending[i].append(contentsOf: chunk[0..<n])
                let decoder = decoders[i]
                let scanBytes = decoder.layout.scanBytes
                var scans: [(physical: [IIODevice.ChannelType: Vector3], deviceTime: Double?)] = []
                var start = 0
                while pending[i].count - start >= scanBytes {
                    if let r = decoder.reading(scan: Array(pending[i][start..<start + scanBytes])) { scans.append(r) }
                    start += scanBytes
                }
                pending[i].removeFirst(start)
                let now = clock.now()
                let offset = IIOTimestampConverter.offset(ofClockNamed: clocks[i])
                for (arrival, r) in zip(SensorTimestamper.arrivalTimes(scans.map(\.deviceTime), readAt: now), scans) {
                    // scans left in the kernel's FIFO by an earlier reader (disabling the buffer
                    // does not empty it) were measured before this run began: not this recording's
                    if let d = r.deviceTime, let offset, d - offset < started, started - (d - offset) < IIOTimestampConverter.maximumAge {
                        continue
                    }
                    readings.append((converters[i].time(deviceSeconds: r.deviceTime, hostTime: arrival, offset: offset), r.physical))
                }
            }
            // in time order across devices, so a backlog of accelerometer scans is joined with the
            // gyro readings of its own time, not with the newest; the samples of one read go together
            var samples: [MotionSample] = []
            for r in readings.sorted(by: { $0.time < $1.time }) {
                if let sample = merger.add(r.physical, timestamp: r.time) { samples.append(sample) }
            }
            if !samples.isEmpty { deliver(.samples(samples)) }
        }
        return nil
    }

    /// Waits until devices of the same names are back (their own directories, or new numbers
    /// beside them; all on one sensor hub when they were), sets their buffers up again and opens
    /// them; nil if stopped first.
    private func awaitReturn(_ thread: SourceThread) -> [Int32]? {
        let previous = lock.withLock { directories }
        let names = decoders.map(\.device.name)
        let oneHub = previous.count > 1 && Set(previous.map { IIODeviceGroup.hub(of: $0) ?? "" }).count == 1
        while thread.pause(reconnectInterval) {
            var found: [String] = []
            for (old, name) in zip(previous, names) {
                let match = IIOPollingSource.candidateDirectories(old).first { candidate in
                    (try? IIODevice(directory: candidate))?.name == name && !found.contains(candidate)
                        && (!oneHub || found.isEmpty || IIODeviceGroup.hub(of: candidate) == IIODeviceGroup.hub(of: found[0]))
                }
                guard let match else { break }
                found.append(match)
            }
            guard found.count == previous.count else { continue }
            var fds: [Int32] = []
            for candidate in found {
                if configures {
                    let scanElements = ["\(candidate)/scan_elements", "\(candidate)/buffer0"]
                        .first { FileManager.default.fileExists(atPath: $0) } ?? "\(candidate)/scan_elements"
                    let files = (try? FileManager.default.contentsOfDirectory(atPath: scanElements)) ?? []
                    _ = Self.configure(directory: candidate, deviceName: (try? IIODevice(directory: candidate))?.name ?? "",
                                       scanElements: scanElements, files: files)
                }
                let (fd, _) = calls.open(Self.characterDevice(of: candidate, in: deviceNodes), O_RDONLY | O_NONBLOCK)
                guard fd >= 0 else { break }
                fds.append(fd)
            }
            guard fds.count == found.count else { fds.forEach { _ = close($0) }; continue }
            lock.withLock { directories = found }
            return fds
        }
        return nil
    }

    /// Writes the rate to every device (`IIOSamplingFrequency`); the accelerometer's device's rate
    /// now, nil when it has no rate attribute or refused the write (some drivers do while their
    /// buffer runs: the manager then thins the samples instead).
    public func requestSampleRate(_ hertz: Double) -> Double? {
        guard configures else { return nil }
        var applied: Double?
        for (index, directory) in lock.withLock({ directories }).enumerated() {
            guard let device = try? IIODevice(directory: directory) else { continue }
            // an attribute that cannot be trusted takes no rate: the manager thins the samples instead
            let took = try? IIOSamplingFrequency.request(hertz, device: device)
            if index == 0 { applied = took ?? nil }
        }
        return applied
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
        // hand the buffers back (iio-sensor-proxy and others read them too)
        if thread != nil, configures {
            for directory in lock.withLock({ directories }) { Self.disable(directory) }
        }
    }
}
