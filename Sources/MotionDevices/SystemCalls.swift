#if canImport(Glibc)
import Glibc
#endif
import CLinuxInput

/// The system calls the device sources make, behind a seam so tests can inject failures
/// (EACCES, ENOTTY, ENODEV) that cannot be provoked on this machine (swift-nio's approach).
/// Each returns the result and errno of the call, as the kernel does.
public struct SystemCalls: Sendable {
    public var open: @Sendable (_ path: String, _ flags: Int32) -> (fd: Int32, errno: Int32)
    public var ioctl: @Sendable (_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> (result: Int32, errno: Int32)
    /// read(2): bytes read (or −1) and errno; character devices are read with it.
    public var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> (count: Int, errno: Int32) = { fd, buffer in
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        return (n, n < 0 ? errno : 0)
    }
    /// pread(2): bytes read (or −1) and errno; sysfs attributes are polled with it.
    public var pread: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int) -> (count: Int, errno: Int32) = { fd, buffer, offset in
        let n = Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
        return (n, n < 0 ? errno : 0)
    }

    /// ioctl(2) with an integer argument passed by value (EVIOCGRAB, uinput's UI_SET_*BIT).
    public var ioctlValue: @Sendable (_ fd: Int32, _ request: UInt, _ value: Int) -> (result: Int32, errno: Int32) = { fd, request, value in
        let r = clinux_ioctl_value(fd, request, value)
        return (r, r < 0 ? errno : 0)
    }
    /// write(2): bytes written (or −1) and errno; uinput takes its events with it.
    public var write: @Sendable (_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> (count: Int, errno: Int32) = { fd, buffer in
        let n = Glibc.write(fd, buffer.baseAddress, buffer.count)
        return (n, n < 0 ? errno : 0)
    }

    public init(open: @escaping @Sendable (String, Int32) -> (fd: Int32, errno: Int32),
                ioctl: @escaping @Sendable (Int32, UInt, UnsafeMutableRawPointer) -> (result: Int32, errno: Int32)) {
        self.open = open
        self.ioctl = ioctl
    }

    /// The real kernel.
    public static let live = SystemCalls(
        open: { path, flags in
            let fd = Glibc.open(path, flags | O_CLOEXEC)
            return (fd, fd < 0 ? errno : 0)
        },
        ioctl: { fd, request, argument in
            let r = clinux_ioctl_ptr(fd, request, argument)
            return (r, r < 0 ? errno : 0)
        })

    /// `live`, except that open(2) fails with `code` (for permission and vanishing tests).
    public static func failingOpen(_ code: Int32) -> SystemCalls {
        var calls = live
        calls.open = { _, _ in (-1, code) }
        return calls
    }
}
