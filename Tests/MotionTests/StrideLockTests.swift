import Testing
@testable import Motion

@Suite("StrideLock: two steps per stride when a stride has more peaks")
struct StrideLockTests {
    /// Counts how many of `peaksPerStride` evenly spaced detections per 1.1 s stride are admitted over 30 strides.
    private func admitted(peaksPerStride: Int, period: Double = 1.1) -> Int {
        var lock = StrideLock(peaksPerPeriod: 2.6)
        let spacing = 1.1 / Double(peaksPerStride)
        return (0..<(30 * peaksPerStride)).filter { lock.admits(Double($0) * spacing, period: period) }.count
    }

    @Test("three or four peaks a stride count as two steps; one or two peaks a period all count")
    func locksOnlyWhenPeaksOutnumberSteps() {
        // the first eight detections count before the lock has eight intervals to judge by
        #expect(abs(admitted(peaksPerStride: 4) - 60) <= 6)
        #expect(abs(admitted(peaksPerStride: 3) - 60) <= 6)
        #expect(admitted(peaksPerStride: 2) == 60, "a stride's two steps each peaking: all count")
        #expect(admitted(peaksPerStride: 1, period: 0.55) == 30)
    }

    @Test("without a period (not periodic) nothing is held back")
    func noPeriodNoLock() {
        var lock = StrideLock(peaksPerPeriod: 2.6)
        #expect((0..<40).allSatisfy { lock.admits(Double($0) * 0.3, period: nil) })
    }
}
