import Foundation
@testable import MotionDevices
import Testing

@Suite("source thread")
struct SourceThreadTests {
    @Test("a stopped source thread is freed (SourceThread and its Thread used to keep each other alive)")
    func freedAfterStop() async throws {
        weak var weakThread: SourceThread?
        do {
            let thread = SourceThread(name: "tiltkit-test") { t in while t.pause(0.005) {} }
            weakThread = thread
            thread.stop()
        }
        // Foundation lets go of the Thread just after its block returns.
        for _ in 0..<200 where weakThread != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(weakThread == nil)
    }
}
