import CLinuxInput
import Foundation
import MotionDevices
#if canImport(Glibc)
import Glibc
#endif

/// Reads a pad's touchpad evdev node on its own thread and delivers each change of its contacts
/// or click (`TouchpadDecoder`). Read only, never grabbed.
///
///     let touchpad = try TouchpadReader(path: "/dev/input/event22")
///     touchpad.start { state in print(state.contacts) }
///     touchpad.stop()
public final class TouchpadReader: @unchecked Sendable {
    public let path: String
    private let calls: SystemCalls
    private let lock = NSLock()
    private var fd: Int32
    private var decoder = TouchpadDecoder()
    private var thread: SourceThread?

    public init(path: String, calls: SystemCalls = .live) throws(DeviceError) {
        self.path = path
        self.calls = calls
        let (fd, code) = calls.open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw DeviceError.fromOpen(path: path, errno: code, fix: DeviceError.inputFix) }
        self.fd = fd
    }

    deinit { if fd >= 0 { _ = Glibc.close(fd) } }

    /// Delivers each change from the reader's thread until `stop` or the node goes away (then the
    /// state with no contacts, once).
    public func start(_ deliver: @escaping @Sendable (TouchpadDecoder.State) -> Void) {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil, fd >= 0 else { return }
        thread = SourceThread(name: "touchpad \(path)") { [self] thread in run(thread, deliver) }
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
        lock.lock(); defer { lock.unlock() }
        if fd >= 0 { _ = Glibc.close(fd); fd = -1 }
    }

    private func run(_ thread: SourceThread, _ deliver: @Sendable (TouchpadDecoder.State) -> Void) {
        var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
        var pending: [UInt8] = []
        var resync = true
        while !thread.isStopping {
            // At open and after the kernel dropped events: the touches down now, from the node itself.
            if resync {
                resync = false
                if let snapshot = snapshot(), let state = decoder.load(snapshot) { deliver(state) }
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let (n, code) = buffer.withUnsafeMutableBytes { calls.read(fd, $0) }
            if n < 0 && (code == EAGAIN || code == EINTR) { continue }
            if n <= 0 {
                if decoder.state != TouchpadDecoder.State() { deliver(TouchpadDecoder.State()) }
                return
            }
            pending.append(contentsOf: buffer[0..<n])
            var offset = 0
            while pending.count - offset >= InputEvent.size {
                let event = InputEvent(bytes: pending, at: offset)
                offset += InputEvent.size
                if let state = decoder.feed(event) { deliver(state) }
                if event.type == UInt16(EV_SYN) && event.code == UInt16(SYN_DROPPED) { resync = true }
            }
            pending.removeFirst(offset)
        }
    }

    /// The node's touches and click now (EVIOCGABS, EVIOCGMTSLOTS, EVIOCGKEY); nil when it answers
    /// none of them (a recorded file).
    private func snapshot() -> TouchpadDecoder.Snapshot? {
        var slotInfo = input_absinfo()
        guard calls.ioctl(fd, clinux_eviocgabs(UInt32(ABS_MT_SLOT)), &slotInfo).result >= 0 else { return nil }
        func values(_ code: Int32) -> [Int32]? {
            var request = [Int32](repeating: 0, count: 1 + TouchpadDecoder.slots)
            request[0] = code
            let size = request.count * MemoryLayout<Int32>.size
            let result = request.withUnsafeMutableBytes { calls.ioctl(fd, clinux_eviocgmtslots(UInt32(size)), $0.baseAddress!).result }
            return result >= 0 ? Array(request.dropFirst()) : nil
        }
        guard let tracking = values(ABS_MT_TRACKING_ID), let x = values(ABS_MT_POSITION_X), let y = values(ABS_MT_POSITION_Y) else {
            return nil
        }
        var keys = [UInt8](repeating: 0, count: (Int(KEY_MAX) + 7) / 8 + 1)
        let count = keys.count
        let clicked = keys.withUnsafeMutableBytes { calls.ioctl(fd, clinux_eviocgkey(UInt32(count)), $0.baseAddress!).result } >= 0
            && keys[Int(BTN_LEFT) / 8] & (1 << UInt8(BTN_LEFT % 8)) != 0
        return .init(slot: Int(slotInfo.value), tracking: tracking, x: x, y: y, clicked: clicked)
    }
}
