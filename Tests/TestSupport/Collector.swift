import Foundation

/// Collects pushed values from a handler on any queue. Behind an `NSLock` (a pthread mutex) so
/// the thread sanitizer sees the ordering; it cannot see `Synchronization.Mutex` on Linux.
public final class Collector<Value: Sendable>: @unchecked Sendable {
    public init() {}

    private let lock = NSLock()
    private var values: [Value] = []
    private var errors: [String] = []

    public func append(_ value: Value?, _ error: (any Error)?) {
        lock.lock(); defer { lock.unlock() }
        if let value { values.append(value) }
        if let error { errors.append(String(describing: error)) }
    }

    public var all: [Value] { lock.lock(); defer { lock.unlock() }; return values }
    public var count: Int { lock.lock(); defer { lock.unlock() }; return values.count }
    public var errorMessages: [String] { lock.lock(); defer { lock.unlock() }; return errors }

    /// Waits until `count >= n`; false on timeout.
    public func wait(for n: Int, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while count < n {
            if Date() > deadline { return false }
            usleep(1000)
        }
        return true
    }
}
