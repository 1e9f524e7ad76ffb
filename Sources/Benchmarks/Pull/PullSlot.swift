import Motion
import Synchronization

/// One way to hand the latest payload from a producer thread to a consumer: the thing `bench pull`
/// measures. Generic use (not an existential) keeps every variant specialised and inlined alike.
public protocol PullSlot: AnyObject, Sendable {
    /// Name in tables and plots.
    static var variantName: String { get }
    /// False for the plain-copy floor, which is only read, never written concurrently.
    static var allowsConcurrentProducer: Bool { get }
    func publish(_ payload: SequencedMotion)
    /// Copies the latest payload into the consumer's `payload`, as a game refreshes its own copy
    /// each frame; every variant writes straight into it, so none pays for an extra copy.
    func pull(into payload: inout SequencedMotion)
}

/// The floor: copying the payload out of memory with no synchronisation at all. Nobody writes it
/// while it is read (that would be a data race), so it measures the bare copy.
public final class PlainCopySlot: PullSlot, @unchecked Sendable {
    public static let variantName = "plain copy (floor)"
    public static let allowsConcurrentProducer = false
    // A heap cell the optimizer cannot fold into a constant, so each pull really loads it.
    private let cell: UnsafeMutablePointer<SequencedMotion>

    public init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: .empty)
    }
    deinit { cell.deallocate() }

    /// Only before the consumer starts; see the type's comment.
    public func publish(_ payload: SequencedMotion) { cell.pointee = payload }
    @inline(__always) public func pull(into payload: inout SequencedMotion) { payload = cell.pointee }
}

/// What most code does: a mutex around the value (Swift's `Synchronization.Mutex`, a futex on Linux).
/// The producer can stall behind a consumer that holds the lock and vice versa.
public final class MutexSlot: PullSlot {
    public static let variantName = "Mutex"
    public static let allowsConcurrentProducer = true
    private let value = Mutex<SequencedMotion>(.empty)

    public init() {}

    public func publish(_ payload: SequencedMotion) { value.withLock { $0 = payload } }
    @inline(__always) public func pull(into payload: inout SequencedMotion) { value.withLock { payload = $0 } }
}

/// The motion manager's own pull slot (`LatestValue`, a seqlock), holding the bench's payload.
public final class LatestValueSlot: PullSlot {
    public static let variantName = "LatestValue (seqlock)"
    public static let allowsConcurrentProducer = true
    private let slot = LatestValue<SequencedMotion>()

    public init() {}

    public func publish(_ payload: SequencedMotion) { slot.publish(payload) }
    /// `load(into:)`: the seqlock's words go straight into `payload`. (`load() ?? .empty` would
    /// add an Optional and two more copies of the payload that the other slots do not pay.) The
    /// bench pulls only after the producer has published, so it never leaves `payload` as it was.
    @inline(__always) public func pull(into payload: inout SequencedMotion) { _ = slot.load(into: &payload) }
}
