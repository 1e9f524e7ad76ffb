import Foundation

/// A value behind a pthread mutex (`NSLock`): the manager's state shared between the source's
/// thread and its callers. Not `Synchronization.Mutex`, which on Linux is a bare futex the thread
/// sanitizer has no interceptor for: it would miss the ordering the lock gives and report every
/// access the lock guards as a race. A pthread mutex it models, so `scripts/sanitize.sh thread`
/// checks this state too.
///
///     let count = Locked(0)
///     count.withLock { $0 += 1 }
final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Unchecked: the lock already makes every access exclusive, and the dynamic check a class's
    /// stored `var` gets otherwise (swift_beginAccess/endAccess) cost ~115 instructions per pushed
    /// sample, more than the lock itself (valgrind --tool=callgrind on `tiltkit bench fusion --quick`).
    @exclusivity(unchecked) private var value: Value

    init(_ value: consuming Value) { self.value = value }

    func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
