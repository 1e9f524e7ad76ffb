import CAllocationCounter

/// Heap allocations by the calling thread, from the `CAllocationCounter` malloc hook: the bench
/// reads it before and after the measured calls, so "no allocation" is counted, not assumed.
enum AllocationCount {
    @inline(__always) static func onThisThread() -> UInt64 { tk_allocation_count() }
    /// False in a build without TILTKIT_ALLOCATION_COUNTER=1: then every count is 0, unmeasured.
    static let isCounting = tk_allocation_counter_enabled() != 0
}
