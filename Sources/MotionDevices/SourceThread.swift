import Foundation

/// A source's own delivery thread: runs `body` until it returns or `stop()` is called.
/// `body` checks `isStopping` at least once per poll timeout so `stop()` returns promptly, and
/// `stop()` waits for the thread, so nothing is delivered after it returns.
public final class SourceThread: @unchecked Sendable {
    private let lock = NSCondition()
    private var stopping = false
    private var finished = false
    private var thread: Thread?

    public init(name: String, body: @escaping @Sendable (SourceThread) -> Void) {
        // The Thread keeps its block, and the block keeps self, for as long as the Thread lives:
        // dropping `thread` when the body ends breaks that cycle, so a stopped source is freed.
        let thread = Thread { [self] in
            body(self)
            lock.lock(); finished = true; self.thread = nil; lock.broadcast(); lock.unlock()
        }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    public var isStopping: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopping
    }

    /// Sleeps up to `seconds`, waking early on `stop()`. Returns false if stopping.
    public func pause(_ seconds: Double) -> Bool {
        lock.lock(); defer { lock.unlock() }
        // NSCondition.wait(until:) traps on a date it cannot convert (NaN, infinite, 1e300 s away):
        // no pause is longer than a day, the loops around it check the time again anyway
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 86_400)
        if !stopping { _ = lock.wait(until: Date(timeIntervalSinceNow: bounded)) }
        return !stopping
    }

    public func stop() {
        lock.lock()
        stopping = true
        lock.broadcast()
        // Called from the delivery callback itself: the loop ends after it returns.
        if Thread.current == thread { lock.unlock(); return }
        while !finished { lock.wait() }
        lock.unlock()
    }
}
