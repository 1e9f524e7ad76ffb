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
/// silent wait. `stop` disables the buffer again when this source enabled it. A device that goes
/// away (reads fail with ENODEV) delivers `.disconnected`; a device of the same name coming back
/// (the same `iio:deviceN` or a new number) is set up again, and `.reconnected` follows.
///
///     let imu = try IIOBufferSource(directory: "/sys/bus/iio/devices/iio:device0")
public final class IIOBufferSource: MotionSource, @unchecked Sendable {
    public let decoder: IIOBufferDecoder
    public let info: MotionSourceInfo
    /// How often a vanished device is looked for, s.
    public var reconnectInterval = 0.5
    private let clock: any MotionClock
    private let calls: SystemCalls
    private let configures: Bool
    private let deviceName: String
    /// Where the character devices are (`/dev`).
    private let deviceNodes: String
    private let lock = NSLock()
    private var thread: SourceThread?
    /// The sysfs directory in use (it changes when the device comes back under a new number).
    private var directory: String

    /// The character device of the directory in use, `/dev/iio:deviceN`.
    public var characterDevice: String {
        lock.lock(); defer { lock.unlock() }
        return Self.characterDevice(of: directory, in: deviceNodes)
    }

    private static func characterDevice(of directory: String, in deviceNodes: String) -> String {
        "\(deviceNodes)/\((directory as NSString).lastPathComponent)"
    }

    /// The character device is `<deviceNodes>/<directory name>`.
    public init(directory: String, deviceNodes: String = "/dev", configure: Bool = true,
                accelerationSign: IIOUnits.AccelerationSign = .reaction,
                clock: any MotionClock = MonotonicClock(), calls: SystemCalls = .live) throws(DeviceError) {
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
            let enabled = (try? String(contentsOfFile: "\(directory)/buffer/enable", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard enabled == "1" else {
                throw .unsupported(path: directory, reason: Self.disabledBufferReason(trigger: trigger, directory: directory))
            }
        }
        var channels: [(name: String, index: Int, type: IIOScanType)] = []
        for file in files where file.hasSuffix("_en") {
            let name = String(file.dropLast(3))
            func read(_ suffix: String) -> String? {
                (try? String(contentsOfFile: "\(scanElements)/\(name)\(suffix)", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard read("_en") == "1", let index = read("_index").flatMap(Int.init),
                  let type = read("_type").flatMap(IIOScanType.init) else { continue }
            channels.append((name, index, type))
        }
        let layout = IIOScanLayout(channels: channels)
        guard layout.elements.contains(where: { $0.name.hasPrefix("in_accel_") }) else {
            throw .unsupported(path: directory, reason: "no accelerometer scan elements are enabled (write 1 to scan_elements/in_accel_*_en)")
        }
        decoder = IIOBufferDecoder(device: device, layout: layout, accelerationSign: accelerationSign)
        self.directory = directory
        self.deviceNodes = deviceNodes
        configures = configure
        deviceName = device.name
        self.clock = clock
        self.calls = calls
        info = MotionSourceInfo(name: "\(device.name) (\((directory as NSString).lastPathComponent), buffer)",
                                kind: "iio-buffer", sensors: device.sensors, nominalRate: device.samplingFrequency)
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
        func write(_ path: String, _ value: String) { try? value.write(toFile: path, atomically: false, encoding: .utf8) }
        write("\(directory)/buffer/enable", "0")
        for file in files where file.hasSuffix("_en") {
            let motion = ["in_accel_", "in_anglvel_", "in_magn_", "in_timestamp"].contains { file.hasPrefix($0) }
            if motion { write("\(scanElements)/\(file)", "1") }
        }
        write("\(directory)/current_timestamp_clock", "monotonic")
        let trigger = triggerSetup(directory: directory, deviceName: deviceName)
        if case .chosen(let name) = trigger { write("\(directory)/trigger/current_trigger", name) }
        write("\(directory)/buffer/length", "128")
        write("\(directory)/buffer/enable", "1")
        return trigger
    }

    /// The trigger situation of the device at `directory`: drivers name their data-ready trigger
    /// "<device name>-dev<N>" (iio_trigger_alloc's usual pattern) and it appears beside the device
    /// as `triggerM/name`.
    static func triggerSetup(directory: String, deviceName: String) -> TriggerSetup {
        let current = "\(directory)/trigger/current_trigger"
        guard FileManager.default.fileExists(atPath: current) else { return .notNeeded }
        let set = (try? String(contentsOfFile: current, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !set.isEmpty { return .alreadySet(set) }
        let deviceDirectory = (directory as NSString).lastPathComponent
        let number = deviceDirectory.hasPrefix("iio:device") ? String(deviceDirectory.dropFirst("iio:device".count)) : ""
        let expected = "\(deviceName)-dev\(number)"
        let parent = (directory as NSString).deletingLastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [])
            .filter { $0.hasPrefix("trigger") }.sorted()
            .compactMap { (try? String(contentsOfFile: "\(parent)/\($0)/name", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) }
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
        let path = Self.characterDevice(of: directory, in: deviceNodes)
        let (fd, code) = calls.open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix) }
        thread = SourceThread(name: "iio-buffer \(path)") { [self] thread in
            var fd = fd
            while true {
                let reason = run(fd: fd, thread: thread, deliver)
                close(fd)
                guard let reason else { return }  // stopped or ended
                deliver(.disconnected(reason: reason))
                guard let reopened = awaitReturn(thread) else { return }
                fd = reopened
                deliver(.reconnected)
            }
        }
    }

    /// Reads scans until stopped or ended (nil) or the device fails (the reason).
    private func run(fd: Int32, thread: SourceThread, _ deliver: @Sendable (MotionSourceEvent) -> Void) -> String? {
        let scanBytes = decoder.layout.scanBytes
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: scanBytes * 64)
        while !thread.isStopping {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let (n, code) = chunk.withUnsafeMutableBytes { calls.read(fd, $0) }
            if n < 0 {
                if code == EAGAIN || code == EINTR { continue }
                return DeviceError.disconnected(path: characterDevice, reason: String(cString: strerror(code))).description
            }
            if n == 0 { deliver(.ended); return nil }
            pending.append(contentsOf: chunk[0..<n])
            let now = clock.now()
            var start = 0
            while pending.count - start >= scanBytes {
                let scan = Array(pending[start..<start + scanBytes])
                if let sample = decoder.decode(scan: scan, hostTime: now) { deliver(.sample(sample)) }
                start += scanBytes
            }
            pending.removeFirst(start)
        }
        return nil
    }

    /// Waits until a device of the same name is back (its own directory, or a new number beside
    /// it), sets its buffer up again and opens it; nil if stopped first.
    private func awaitReturn(_ thread: SourceThread) -> Int32? {
        let previous = lock.withLock { directory }
        let parent = (previous as NSString).deletingLastPathComponent
        while thread.pause(reconnectInterval) {
            let others = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [])
                .filter { $0.hasPrefix("iio:device") }.sorted().map { "\(parent)/\($0)" }
            for candidate in [previous] + others.filter({ $0 != previous }) {
                guard let device = try? IIODevice(directory: candidate), device.name == deviceName else { continue }
                if configures {
                    let scanElements = ["\(candidate)/scan_elements", "\(candidate)/buffer0"]
                        .first { FileManager.default.fileExists(atPath: $0) } ?? "\(candidate)/scan_elements"
                    let files = (try? FileManager.default.contentsOfDirectory(atPath: scanElements)) ?? []
                    _ = Self.configure(directory: candidate, deviceName: deviceName, scanElements: scanElements, files: files)
                }
                let (fd, _) = calls.open(Self.characterDevice(of: candidate, in: deviceNodes), O_RDONLY | O_NONBLOCK)
                guard fd >= 0 else { continue }
                lock.withLock { directory = candidate }
                return fd
            }
        }
        return nil
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
        // hand the buffer back (iio-sensor-proxy and others read it too)
        if thread != nil, configures {
            try? "0".write(toFile: "\(lock.withLock { directory })/buffer/enable", atomically: false, encoding: .utf8)
        }
    }
}
