import Foundation
import Motion
#if canImport(Glibc)
import Glibc
#endif

/// An IIO IMU read through its buffered character device (`/dev/iio:deviceN`): full rate,
/// kernel timestamps. Setup follows the ABI (INPUT_FACTS §12): enable the accel/anglvel/magn and
/// timestamp scan elements, ask for CLOCK_MONOTONIC timestamps, size and enable the buffer; then
/// read whole scans. Attributes that cannot be written (no permission, read-only drivers) are left
/// as they are and the elements already enabled are used. Some drivers also need a trigger in
/// `trigger/current_trigger`; set it with the driver's tools first.
///
///     let imu = try IIOBufferSource(directory: "/sys/bus/iio/devices/iio:device0")
public final class IIOBufferSource: MotionSource, @unchecked Sendable {
    public let decoder: IIOBufferDecoder
    public let info: MotionSourceInfo
    public let characterDevice: String
    private let clock: any MotionClock
    private let calls: SystemCalls
    private let lock = NSLock()
    private var thread: SourceThread?

    /// `characterDevice` defaults to `/dev/<directory name>`.
    public init(directory: String, characterDevice: String? = nil, configure: Bool = true,
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
        if configure { Self.configure(directory: directory, scanElements: scanElements, files: files) }
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
        self.characterDevice = characterDevice ?? "/dev/" + (directory as NSString).lastPathComponent
        self.clock = clock
        self.calls = calls
        info = MotionSourceInfo(name: "\(device.name) (\((directory as NSString).lastPathComponent), buffer)",
                                kind: "iio-buffer", sensors: device.sensors, nominalRate: device.samplingFrequency)
    }

    /// Best-effort ABI setup: disable, enable motion + timestamp elements, monotonic clock, enable.
    private static func configure(directory: String, scanElements: String, files: [String]) {
        func write(_ path: String, _ value: String) { try? value.write(toFile: path, atomically: false, encoding: .utf8) }
        write("\(directory)/buffer/enable", "0")
        for file in files where file.hasSuffix("_en") {
            let motion = ["in_accel_", "in_anglvel_", "in_magn_", "in_timestamp"].contains { file.hasPrefix($0) }
            if motion { write("\(scanElements)/\(file)", "1") }
        }
        write("\(directory)/current_timestamp_clock", "monotonic")
        write("\(directory)/buffer/length", "128")
        write("\(directory)/buffer/enable", "1")
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil else { return }
        let (fd, code) = calls.open(characterDevice, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: characterDevice, errno: code, fix: DeviceError.inputFix) }
        thread = SourceThread(name: "iio-buffer \(characterDevice)") { [self] thread in
            defer { close(fd) }
            run(fd: fd, thread: thread, deliver)
        }
    }

    private func run(fd: Int32, thread: SourceThread, _ deliver: @Sendable (MotionSourceEvent) -> Void) {
        let scanBytes = decoder.layout.scanBytes
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: scanBytes * 64)
        while !thread.isStopping {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                deliver(.disconnected(reason: DeviceError.disconnected(path: characterDevice, reason: String(cString: strerror(errno))).description))
                return
            }
            if n == 0 { deliver(.ended); return }
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
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
    }
}
