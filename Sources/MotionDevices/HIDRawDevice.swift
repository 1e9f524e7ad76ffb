#if canImport(Glibc)
import Glibc
#endif
import CLinuxInput

/// A `/dev/hidrawN` node, or a FIFO / regular file carrying the same reports back to back.
///
/// hidraw returns exactly one report per read(2). A FIFO or file is a byte stream with no
/// ioctls (ENOTTY), so reports are framed by their length, known from the report ID
/// (`reportLength`), and `identity()` is nil: the caller names the pad or guesses it from the
/// reports. A regular file ends (`.endOfStream`); a FIFO whose writer closes, or a hidraw node
/// whose pad is unplugged (ENODEV), throws `.disconnected`.
public final class HIDRawDevice: ReportReader {
    public let path: String
    public let isCharacterDevice: Bool
    private let isRegularFile: Bool
    private var fd: Int32
    private let calls: SystemCalls
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)
    /// Report length by report ID, for framing streams; nil = unknown ID (skip a byte).
    public var reportLength: @Sendable (UInt8) -> Int? = HIDRawDevice.defaultReportLength
    /// Bytes skipped while looking for a known report ID in a stream.
    public private(set) var skippedBytes = 0

    public init(path: String, calls: SystemCalls = .live) throws(DeviceError) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw DeviceError.fromOpen(path: path, errno: errno, fix: DeviceError.hidrawFix) }
        let type = st.st_mode & S_IFMT
        isCharacterDevice = type == S_IFCHR
        isRegularFile = type == S_IFREG
        // hidraw needs write access for output reports (Nintendo subcommands); a FIFO must be
        // opened read-only or we would be a writer ourselves and never see the writer close.
        let flags = (isCharacterDevice ? O_RDWR : O_RDONLY) | O_NONBLOCK
        let (fd, code) = calls.open(path, flags)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.hidrawFix) }
        // A character device without hidraw's ioctls (/dev/null, a tty) would read as an empty
        // stream and record nothing: refuse it here, by name.
        var info = hidraw_devinfo()
        if isCharacterDevice, calls.ioctl(fd, clinux_hidiocgrawinfo(), &info).result < 0 {
            _ = Glibc.close(fd)
            throw .unsupported(path: path, reason: "a character device but not a hidraw node (give /dev/hidrawN, or a FIFO or file of reports)")
        }
        self.path = path
        self.fd = fd
        self.calls = calls
    }

    deinit { close() }

    public func close() {
        if fd >= 0 { _ = Glibc.close(fd); fd = -1 }
    }

    /// Report lengths of the supported pads (USB 64, Bluetooth 78, Nintendo 49 over Bluetooth).
    public static let defaultReportLength: @Sendable (UInt8) -> Int? = { id in
        switch id {
        case 0x01: return 64
        case 0x11, 0x31: return 78
        case 0x30...0x33, 0x21: return 49
        default: return nil
        }
    }

    public func identity() -> HIDRawIdentity? {
        guard isCharacterDevice else { return nil }
        var info = hidraw_devinfo()
        guard calls.ioctl(fd, clinux_hidiocgrawinfo(), &info).result >= 0 else { return nil }
        return HIDRawIdentity(bus: HIDBus(kernelBusType: info.bustype),
                              vendorID: UInt16(bitPattern: info.vendor), productID: UInt16(bitPattern: info.product),
                              name: string(request: clinux_hidiocgrawname(256), length: 256),
                              uniq: string(request: clinux_hidiocgrawuniq(64), length: 64))
    }

    private func string(request: UInt, length: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: length)
        let r = bytes.withUnsafeMutableBytes { calls.ioctl(fd, request, $0.baseAddress!).result }
        guard r > 0 else { return "" }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    public func featureReport(id: UInt8, length: Int) throws(DeviceError) -> [UInt8]? {
        guard isCharacterDevice else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        bytes[0] = id
        let (r, code) = bytes.withUnsafeMutableBytes { calls.ioctl(fd, clinux_hidiocgfeature(UInt32(length)), $0.baseAddress!) }
        if r < 0 {
            if code == ENODEV { throw .disconnected(path: path, reason: "unplugged while reading feature report") }
            return nil
        }
        return Array(bytes.prefix(Int(r)))
    }

    public func sendFeatureReport(_ report: [UInt8]) -> Bool {
        guard isCharacterDevice else { return false }
        var bytes = report
        let r = bytes.withUnsafeMutableBytes { calls.ioctl(fd, clinux_hidiocsfeature(UInt32(report.count)), $0.baseAddress!).result }
        return r >= 0
    }

    public func writeReport(_ report: [UInt8]) -> Bool {
        guard isCharacterDevice else { return false }
        return report.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == report.count
    }

    public func nextReport(timeout: Double) throws(DeviceError) -> ReportReadResult {
        if !isCharacterDevice, let report = frameReport() { return .report(report) }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(max(0, timeout * 1000)))
        if ready < 0 { return errno == EINTR ? .timeout : try fail(errno) }
        if ready == 0 { return .timeout }
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return errno == EAGAIN || errno == EINTR ? .timeout : try fail(errno) }
        if n == 0 {
            if isRegularFile {
                // Whatever is left is an incomplete report: hand it over so it is counted as truncated.
                if !pending.isEmpty { defer { pending.removeAll() }; return .report(pending) }
                return .endOfStream
            }
            throw .disconnected(path: path, reason: isCharacterDevice ? "end of file" : "the writer closed the stream")
        }
        if isCharacterDevice { return .report(Array(buffer[0..<n])) }
        pending.append(contentsOf: buffer[0..<n])
        return frameReport().map { .report($0) } ?? .timeout
    }

    /// Cuts one report off the front of the stream buffer, resynchronising on a known report ID.
    private func frameReport() -> [UInt8]? {
        while let id = pending.first {
            guard let length = reportLength(id) else {
                pending.removeFirst()
                skippedBytes += 1
                continue
            }
            guard pending.count >= length else { return nil }
            defer { pending.removeFirst(length) }
            return Array(pending[0..<length])
        }
        return nil
    }

    private func fail(_ code: Int32) throws(DeviceError) -> ReportReadResult {
        switch code {
        case ENODEV, EIO, ENXIO: throw .disconnected(path: path, reason: String(cString: strerror(code)))
        default: throw .system(path: path, call: "read", errno: code)
        }
    }
}
