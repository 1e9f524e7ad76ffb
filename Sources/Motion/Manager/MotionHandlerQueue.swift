import Dispatch
import Foundation

/// Where push handlers run: a `DispatchQueue` or an `OperationQueue` (Core Motion takes the latter).
/// Work enqueued from one subscription never runs concurrently with itself: the manager keeps at
/// most one delivery block in flight per subscription, so handlers see samples in order even on a
/// concurrent queue.
public protocol MotionHandlerQueue: Sendable {
    func enqueue(_ work: @escaping @Sendable () -> Void)
}

extension DispatchQueue: MotionHandlerQueue {
    public func enqueue(_ work: @escaping @Sendable () -> Void) { async(execute: work) }
}

extension OperationQueue: MotionHandlerQueue {
    public func enqueue(_ work: @escaping @Sendable () -> Void) { addOperation(work) }
}
