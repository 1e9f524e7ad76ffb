import CLinuxInput
import Foundation
import Mapper
import MotionDevices
#if canImport(Glibc)
import Glibc
#endif

/// Reads a physical pad's gamepad evdev node (buttons, sticks, triggers) on its own thread and
/// delivers each change as `PadControls`. With `grab`, the node is taken with EVIOCGRAB while open,
/// so a game sees only the virtual pad; the kernel releases it when the file closes.
///
///     let reader = try PadControlsReader(path: "/dev/input/event21", options: .init(grab: true))
///     reader.start { event in if case .controls(let c, _) = event { session.feed(controls: c) } }
///
/// A file or FIFO of recorded `input_event`s has no ioctls: give its axis ranges in `Options`
/// (tests feed recorded bytes so).
public final class PadControlsReader: @unchecked Sendable {
    public enum Event: Hashable, Sendable {
        /// The controls after a change; `time` is the event's, seconds (CLOCK_MONOTONIC for a node).
        case controls(PadControls, time: Double)
        /// The node went away (unplugged); the reader has stopped.
        case disconnected(reason: String)
        /// A recording reached its end.
        case ended
    }

    public struct Options: Sendable {
        /// For recordings without ioctls; nil: the node's own (EVIOCGABS).
        public var ranges: [Int32: PadControlsDecoder.AxisRange]?
        public var grab: Bool
        public var pollTimeout = 0.1
        public var calls = SystemCalls.live
        public init(ranges: [Int32: PadControlsDecoder.AxisRange]? = nil, grab: Bool = false) {
            self.ranges = ranges
            self.grab = grab
        }
    }

    public let path: String
    /// EVIOCGNAME's answer ("" for a recording).
    public let nodeName: String
    /// Whether EVIOCGRAB took the node.
    public let isGrabbed: Bool
    private let options: Options
    private let lock = NSLock()
    private var fd: Int32
    private var decoder: PadControlsDecoder
    private var thread: SourceThread?

    public init(path: String, options: Options = Options()) throws(DeviceError) {
        self.path = path
        self.options = options
        let calls = options.calls
        let (fd, code) = calls.open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix) }
        self.fd = fd
        var name = [UInt8](repeating: 0, count: 256)
        let named = name.withUnsafeMutableBytes { calls.ioctl(fd, clinux_eviocgname(256), $0.baseAddress!).result } > 0
        nodeName = named ? String(decoding: name.prefix { $0 != 0 }, as: UTF8.self) : ""
        guard let ranges = options.ranges ?? Self.ranges(fd, calls) else {
            _ = Glibc.close(fd)
            throw .unsupported(path: path, reason: "not a gamepad evdev node (no stick axes)")
        }
        decoder = PadControlsDecoder(ranges: ranges)
        var clockID = CLOCK_MONOTONIC
        _ = calls.ioctl(fd, clinux_eviocsclockid(), &clockID)
        isGrabbed = options.grab && calls.ioctlValue(fd, clinux_eviocgrab(), 1).result == 0
        if options.ranges == nil { resync() }
    }

    deinit { if fd >= 0 { _ = Glibc.close(fd) } }

    /// The controls as last read.
    public var controls: PadControls {
        lock.lock(); defer { lock.unlock() }
        return decoder.controls
    }

    /// Delivers the controls held at opening (when any are), then each change from the reader's thread.
    public func start(_ deliver: @escaping @Sendable (Event) -> Void) {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil, fd >= 0 else { return }
        // A button held or a stick pushed while the mapping starts is not an event the node will send.
        if decoder.controls != .idle { deliver(.controls(decoder.controls, time: 0)) }
        thread = SourceThread(name: "pad controls \(path)") { [self] thread in run(thread, deliver) }
    }

    /// Ends delivery and closes the node (which releases the grab).
    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
        lock.lock(); defer { lock.unlock() }
        if fd >= 0 {
            if isGrabbed { _ = options.calls.ioctlValue(fd, clinux_eviocgrab(), 0) }
            _ = Glibc.close(fd)
            fd = -1
        }
    }

    private func run(_ thread: SourceThread, _ deliver: @Sendable (Event) -> Void) {
        var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
        var pending: [UInt8] = []
        while !thread.isStopping {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(options.pollTimeout * 1000))
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let (n, code) = buffer.withUnsafeMutableBytes { options.calls.read(fd, $0) }
            if n < 0 && (code == EAGAIN || code == EINTR) { continue }
            if n == 0 && options.ranges != nil { deliver(.ended); return }
            if n <= 0 {
                let reason = n == 0 ? "end of stream" : String(cString: strerror(code))
                deliver(.disconnected(reason: DeviceError.disconnected(path: path, reason: reason).description))
                return
            }
            pending.append(contentsOf: buffer[0..<n])
            var offset = 0
            var changes: [Event] = []
            lock.lock()
            while pending.count - offset >= InputEvent.size {
                let event = InputEvent(bytes: pending, at: offset)
                offset += InputEvent.size
                if let controls = decoder.feed(event) { changes.append(.controls(controls, time: event.time)) }
                if decoder.needsResync, options.ranges == nil, let controls = resyncLocked() {
                    changes.append(.controls(controls, time: event.time))
                }
            }
            lock.unlock()
            pending.removeFirst(offset)
            for change in changes { deliver(change) }
        }
    }

    private func resync() {
        lock.lock(); defer { lock.unlock() }
        _ = resyncLocked()
    }

    /// The node's whole state (EVIOCGKEY, EVIOCGABS) into the decoder.
    private func resyncLocked() -> PadControls? {
        let calls = options.calls
        var keys = [UInt8](repeating: 0, count: (Int(KEY_MAX) + 7) / 8 + 1)
        let count = keys.count
        guard keys.withUnsafeMutableBytes({ calls.ioctl(fd, clinux_eviocgkey(UInt32(count)), $0.baseAddress!).result }) >= 0 else {
            return nil
        }
        let held = Set(PadControlsDecoder.buttonCodes.keys.filter { keys[Int($0) / 8] & (1 << (UInt8($0 % 8))) != 0 })
        var values: [Int32: Int32] = [:]
        for code in PadControlsDecoder.axisCodes where decoder.ranges[code] != nil {
            var info = input_absinfo()
            if calls.ioctl(fd, clinux_eviocgabs(UInt32(code)), &info).result >= 0 { values[code] = info.value }
        }
        return decoder.resync(keysHeld: held, axisValues: values)
    }

    /// Each axis's range from the node; nil when it has no stick (ABS_X and ABS_Y, or a right
    /// Joy-Con's ABS_RX and ABS_RY alone).
    private static func ranges(_ fd: Int32, _ calls: SystemCalls) -> [Int32: PadControlsDecoder.AxisRange]? {
        var ranges: [Int32: PadControlsDecoder.AxisRange] = [:]
        for code in PadControlsDecoder.axisCodes {
            var info = input_absinfo()
            if calls.ioctl(fd, clinux_eviocgabs(UInt32(code)), &info).result >= 0, info.maximum > info.minimum {
                ranges[code] = .init(info.minimum, info.maximum)
            }
        }
        let hasStick = (ranges[ABS_X] != nil && ranges[ABS_Y] != nil) || (ranges[ABS_RX] != nil && ranges[ABS_RY] != nil)
        return hasStick ? ranges : nil
    }
}
