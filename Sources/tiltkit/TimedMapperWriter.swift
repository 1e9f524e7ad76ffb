import Benchmarks
import Mapper
import MapperDevices
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `bench map`'s tap on the real writer: the source's delivery marks a batch's arrival, and each
/// write the mapper makes for one of its samples is timed when the write to uinput has returned.
/// Writes for a controls change (the pad reader's thread) pass untimed: they have no report.
final class TimedMapperWriter: MapperOutputWriter, @unchecked Sendable {
    let inner: any MapperOutputWriter
    let probe: MapLatencyProbe
    /// The batch being fed, and the thread feeding it (pthread_t, an integer on Linux).
    private let arrival = Atomic<UInt64>(0)
    private let sourceThread = Atomic<UInt>(0)

    init(_ inner: any MapperOutputWriter, probe: MapLatencyProbe) {
        self.inner = inner
        self.probe = probe
    }

    /// Call on the source's thread as it delivers a batch, before feeding it to the session.
    func batchArrived() {
        sourceThread.store(UInt(pthread_self()), ordering: .relaxed)
        arrival.store(probe.arrived(), ordering: .relaxed)
    }

    func write(_ output: MapperOutput, time: Double) throws(UInputError) -> WriteCounts {
        let counts = try inner.write(output, time: time)
        if UInt(pthread_self()) == sourceThread.load(ordering: .relaxed) {
            probe.written(since: arrival.load(ordering: .relaxed), events: counts.mouseEvents + counts.padEvents)
        }
        return counts
    }
}
