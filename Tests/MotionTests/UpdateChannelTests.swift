import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("UpdateChannel")
struct UpdateChannelTests {
    /// What a handler saw, in order: a value or an error's description.
    enum Seen: Equatable, Sendable { case value(Int), error(String) }

    @Test("errors reach the handler in their place among the data, first in first out, each once")
    func errorsKeepTheirPlace() {
        let seen = Collector<Seen>()
        let channel = UpdateChannel<Int>(queue: DispatchQueue(label: "handler")) { value, error in
            if value == 0 { usleep(2000) }  // the first batch is slow, so later sends meet a pending list
            if let value { seen.append(.value(value), nil) }
            if let error { seen.append(.error("\(error)"), nil) }
        }
        var staged: [Int?] = [0, 1, 2]
        channel.send(moving: &staged)
        channel.report(.sourceDisconnected(reason: "unplugged"))
        channel.report(.sensorUnavailable("gyroscope"))
        staged = [3, 4]
        channel.send(moving: &staged)
        channel.report(.sourceFailedToStart("again"))
        staged = [5]
        channel.send(moving: &staged)
        #expect(seen.wait(for: 9))
        Thread.sleep(forTimeInterval: 0.05)  // anything duplicated would arrive meanwhile
        let expected: [Seen] = [.value(0), .value(1), .value(2),
                                .error(MotionManagerError.sourceDisconnected(reason: "unplugged").description),
                                .error(MotionManagerError.sensorUnavailable("gyroscope").description),
                                .value(3), .value(4),
                                .error(MotionManagerError.sourceFailedToStart("again").description), .value(5)]
        #expect(seen.all == expected)
    }
}
