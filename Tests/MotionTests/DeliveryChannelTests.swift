import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("DeliveryChannel")
struct DeliveryChannelTests {
    @Test("single sends and batch sends (copied and moved) mixed: every element once, in order, to a handler slower than the producer")
    func batchesAndSinglesInOrder() throws {
        let collector = Collector<Int>()
        let channel = DeliveryChannel<Int>(queue: DispatchQueue(label: "handler")) { value in
            if value % 1000 == 0 { usleep(500) }  // now and then slower, so sends meet a pending list
            collector.append(value, nil)
        }
        var next = 0
        let sizes = [1, 0, 3, 64, 1, 300, 2, 17]
        var list: [Int] = []
        for round in 0..<300 {
            let size = sizes[round % sizes.count]
            switch round % 3 {
            case 0:
                for _ in 0..<size { channel.send(next); next += 1 }
            case 1:
                channel.send(contentsOf: next..<next + size)
                next += size
            default:
                list.append(contentsOf: next..<next + size)
                channel.send(moving: &list)
                #expect(list.isEmpty)
                next += size
            }
        }
        #expect(collector.wait(for: next))
        Thread.sleep(forTimeInterval: 0.05)  // anything duplicated would arrive meanwhile
        #expect(collector.all == Array(0..<next))
        #expect(channel.backlog == 0)
    }
}
