import CLinuxInput
import Foundation
import Motion
#if canImport(Glibc)
import Glibc
#endif

/// A kernel "Motion Sensors" evdev node (hid-playstation, hid-sony, hid-nintendo, hid-steam):
/// motion without raw HID access while the kernel driver is bound.
///
///     let imu = try EvdevMotionSource(path: "/dev/input/event17")
///
/// Opening reads the name, uniq, properties and each axis's resolution and current value
/// (EVIOCGABS) and switches event times to CLOCK_MONOTONIC. A FIFO or file of recorded events has no ioctls: name the
/// driver in `Options` and the kernel's resolutions are used. Unplugging delivers
/// `.disconnected`; the node coming back (same name and uniq, found via sysfs) `.reconnected`.
public final class EvdevMotionSource: DiagnosableMotionSource, @unchecked Sendable {
    public struct Options: Sendable {
        /// For nodes without ioctls (recordings); nil = from the node's name.
        public var driver: EvdevMotionDecoder.Driver?
        public var pollTimeout = 0.1
        public var reconnectInterval = 0.5
        public var sysfsRoot = "/sys"
        public var calls = SystemCalls.live
        /// EVIOCGRAB the node on this source's own file while open (again after a replug), so no
        /// other reader sees its motion: `tiltkit map`, where a game must see only the virtual pad.
        /// A grab from another file would starve this one, hence here.
        public var exclusive = false
        public init(driver: EvdevMotionDecoder.Driver? = nil, exclusive: Bool = false) {
            self.driver = driver
            self.exclusive = exclusive
        }
    }

    public let path: String
    public private(set) var info: MotionSourceInfo
    public let nodeName: String
    public let uniq: String
    private let options: Options
    private let lock = NSLock()
    private var fd: Int32
    private var isStream: Bool
    private var decoder: EvdevMotionDecoder
    private var thread: SourceThread?

    public init(path: String, options: Options = Options()) throws(DeviceError) {
        self.path = path
        self.options = options
        var st = stat()
        guard stat(path, &st) == 0 else { throw DeviceError.fromOpen(path: path, errno: errno, fix: DeviceError.inputFix) }
        isStream = (st.st_mode & S_IFMT) != S_IFCHR
        let (fd, code) = options.calls.open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix) }
        self.fd = fd
        nodeName = Self.string(fd, clinux_eviocgname(256), options.calls)
        uniq = Self.string(fd, clinux_eviocguniq(64), options.calls)
        guard let driver = options.driver ?? EvdevMotionDecoder.Driver(nodeName: nodeName) else {
            close(fd)
            throw .unsupported(path: path, reason: nodeName.isEmpty
                ? "cannot read the node's name (not an evdev node?); name the driver, e.g. evdev:\(path),driver=playStation"
                : "'\(nodeName)' is not a motion-sensor node of a supported driver")
        }
        decoder = EvdevMotionDecoder(driver: driver, settlingWindow: SensorTimestamper.settlingWindow)
        if let resolution = Self.resolutions(fd, options.calls) { decoder.resolution = resolution }
        // evdev sends an axis only when it changes: start from the node's current values, or a
        // pad held still would read zeros until it moves.
        if let infos = Self.absinfo(fd, options.calls) { decoder.resync(values: infos.map(\.value)) }
        var clockID = CLOCK_MONOTONIC
        _ = options.calls.ioctl(fd, clinux_eviocsclockid(), &clockID)
        if options.exclusive { _ = options.calls.ioctlValue(fd, clinux_eviocgrab(), 1) }
        info = MotionSourceInfo(name: "\(nodeName.isEmpty ? driver.rawValue : nodeName) (\(path))", kind: "evdev",
                                sensors: [.accelerometer, .gyroscope],
                                nominalRate: driver == .nintendo ? 200 : 250)
    }

    deinit { if fd >= 0 { close(fd) } }

    private static func string(_ fd: Int32, _ request: UInt, _ calls: SystemCalls) -> String {
        var bytes = [UInt8](repeating: 0, count: 256)
        let r = bytes.withUnsafeMutableBytes { calls.ioctl(fd, request, $0.baseAddress!).result }
        return r > 0 ? String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) : ""
    }

    private static func absinfo(_ fd: Int32, _ calls: SystemCalls) -> [input_absinfo]? {
        var result: [input_absinfo] = []
        for axis in 0..<6 {
            var info = input_absinfo()
            guard calls.ioctl(fd, clinux_eviocgabs(UInt32(axis)), &info).result >= 0 else { return nil }
            result.append(info)
        }
        return result
    }

    private static func resolutions(_ fd: Int32, _ calls: SystemCalls) -> [Int32]? {
        guard let infos = absinfo(fd, calls), infos.allSatisfy({ $0.resolution > 0 }) else { return nil }
        return infos.map(\.resolution)
    }

    public var droppedFrames: Int {
        lock.lock(); defer { lock.unlock() }
        return decoder.droppedFrames
    }

    /// Frames lost to the kernel's buffer overflowing (SYN_DROPPED) and what the device clock did.
    public var diagnostics: String {
        lock.lock(); defer { lock.unlock() }
        let parts = ["\(decoder.droppedFrames) frames dropped by the kernel"] + decoder.clockStatistics.notes
        return parts.joined(separator: ", ")
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil else { return }
        thread = SourceThread(name: "evdev \(path)") { [self] thread in run(thread, deliver) }
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
    }

    private func run(_ thread: SourceThread, _ deliver: @Sendable (MotionSourceEvent) -> Void) {
        var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
        var pending: [UInt8] = []
        var awaitingReconnect = false
        // Frames held while the timestamps settle after an open, handed over when the node goes
        // quiet, goes away or is stopped.
        func flush() {
            let samples = lock.withLock { decoder.flush() }
            if !samples.isEmpty { deliver(.samples(samples)) }
        }
        defer { flush() }
        while !thread.isStopping {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(options.pollTimeout * 1000))
            if ready == 0 { flush(); continue }
            if ready < 0 && errno == EINTR { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if n <= 0 {
                flush()
                let regularFile = isStream && (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
                if n == 0 && regularFile { deliver(.ended); return }
                let reason = n == 0 ? "end of stream" : String(cString: strerror(errno))
                deliver(.disconnected(reason: DeviceError.disconnected(path: path, reason: reason).description))
                guard waitForReturn(thread) else { return }
                pending.removeAll()
                awaitingReconnect = true
                continue
            }
            if awaitingReconnect { awaitingReconnect = false; deliver(.reconnected) }
            pending.append(contentsOf: buffer[0..<n])
            var offset = 0
            lock.lock()
            var samples: [MotionSample] = []
            while pending.count - offset >= InputEvent.size {
                samples += decoder.feed(InputEvent(bytes: pending, at: offset))
                offset += InputEvent.size
                if decoder.needsResync, !isStream, let infos = Self.absinfo(fd, options.calls) {
                    decoder.resync(values: infos.map(\.value))
                }
            }
            lock.unlock()
            pending.removeFirst(offset)
            if !samples.isEmpty { deliver(.samples(samples)) }  // one read's frames together
        }
    }

    /// Waits for the node to return: same name and uniq under /sys/class/input, or the same path
    /// for FIFOs. False if stopped meanwhile.
    private func waitForReturn(_ thread: SourceThread) -> Bool {
        close(fd)
        fd = -1
        while thread.pause(options.reconnectInterval) {
            let candidate = isStream ? path : findNode()
            guard let candidate else { continue }
            let (newFD, _) = options.calls.open(candidate, O_RDONLY | O_NONBLOCK)
            guard newFD >= 0 else { continue }
            var clockID = CLOCK_MONOTONIC
            _ = options.calls.ioctl(newFD, clinux_eviocsclockid(), &clockID)
            if options.exclusive { _ = options.calls.ioctlValue(newFD, clinux_eviocgrab(), 1) }
            lock.lock()
            fd = newFD
            decoder = EvdevMotionDecoder(driver: decoder.driver, resolution: decoder.resolution,
                                         settlingWindow: SensorTimestamper.settlingWindow)
            if let infos = Self.absinfo(newFD, options.calls) { decoder.resync(values: infos.map(\.value)) }
            lock.unlock()
            return true
        }
        return false
    }

    private func findNode() -> String? {
        let dir = options.sysfsRoot + "/class/input"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix("event") }
        func attribute(_ node: String, _ name: String) -> String {
            ((try? String(contentsOfFile: "\(dir)/\(node)/device/\(name)", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return names.sorted().first { attribute($0, "name") == nodeName && attribute($0, "uniq") == uniq }
            .map { "/dev/input/\($0)" }
    }
}
