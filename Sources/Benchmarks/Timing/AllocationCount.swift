import CAllocationCounter

/// Heap allocations by the calling thread, from the `CAllocationCounter` malloc hook: the bench
/// reads it before and after the measured calls, so "no allocation" is counted, not assumed.
enum AllocationCount {
    @inline(__always) static func onThisThread() -> UInt64 { tk_allocation_count() }
}
