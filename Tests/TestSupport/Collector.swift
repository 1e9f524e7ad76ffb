import Foundation
import Synchronization

/// Collects pushed values from a handler on any queue.
public final class Collector<Value: Sendable>: Sendable {
    public init() {}

    private let values = Mutex<[Value]>([])
    private let errors = Mutex<[String]>([])

    public func append(_ value: Value?, _ error: (any Error)?) {
        if let value { values.withLock { $0.append(value) } }
        if let error { errors.withLock { $0.append(String(describing: error)) } }
    }

    public var all: [Value] { values.withLock { $0 } }
    public var count: Int { values.withLock { $0.count } }
    public var errorMessages: [String] { errors.withLock { $0 } }

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
