import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A plain joinable POSIX thread for producers: the bench needs a thread it can start, stop and
/// join deterministically, without a run loop or a dispatch queue in the measured path.
///
///     let t = try BenchThread { produce() }
///     t.join()
public final class BenchThread: Sendable {
    private let handle: Mutex<pthread_t?>

    public init(_ body: @escaping @Sendable () -> Void) throws(BenchError) {
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box.toOpaque())
        guard status == 0 else {
            box.release()
            throw BenchError.system("pthread_create failed (\(status))")
        }
        handle = Mutex(thread)
    }

    /// Waits for the thread to end; later calls return at once.
    public func join() {
        let thread: pthread_t? = handle.withLock { h in
            defer { h = nil }
            return h
        }
        if let thread { pthread_join(thread, nil) }
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// A flag one thread raises and another polls, without a lock.
public final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    public init() {}
    public func raise() { raised.store(true, ordering: .releasing) }
    @inline(__always) public var isRaised: Bool { raised.load(ordering: .acquiring) }
}

/// Why a bench could not run, for the user.
public enum BenchError: Error, CustomStringConvertible, Equatable {
    case system(String)
    case missingData(String)
    case unavailable(String)

    public var description: String {
        switch self {
        case .system(let s): return s
        case .missingData(let s): return s
        case .unavailable(let s): return s
        }
    }
}
