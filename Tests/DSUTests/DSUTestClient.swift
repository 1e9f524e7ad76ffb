import DSU
import DSUServer
import Foundation
import Motion
import XCTest

/// A DSU client for the tests, on its own UDP socket: it sends requests as Cemu and Dolphin do
/// and checks every packet it receives — the CRC recomputed here over the packet with its field
/// zeroed, the length, the magic — before decoding it.
final class DSUTestClient {
    let socket: UDPSocket
    let server: UDPEndpoint
    let id: UInt32
    /// Packets that failed the checks (the tests expect none).
    private(set) var rejected: [String] = []

    init(server: UDPEndpoint, id: UInt32 = .random(in: 1...UInt32.max)) throws {
        socket = try UDPSocket(binding: UDPEndpoint(host: "127.0.0.1", port: 0)!)
        self.server = server
        self.id = id
    }

    func send(_ request: DSURequest) { socket.send(DSUCodec.encode(request, from: id), to: server) }
    func sendRaw(_ bytes: [UInt8]) { socket.send(bytes, to: server) }

    /// Every response that arrives within `seconds` (stopping early once `until` holds).
    func receive(for seconds: Double, until: ([DSUResponse]) -> Bool = { _ in false }) -> [Received] {
        var out: [Received] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline && !until(out.map(\.response)) {
            guard socket.waitReadable(seconds: min(0.05, max(deadline.timeIntervalSinceNow, 0))) else { continue }
            while let (length, _) = socket.receive(into: &buffer) {
                let bytes = Array(buffer[0..<min(length, buffer.count)])
                if let response = check(bytes) { out.append(Received(response: response, arrival: Date().timeIntervalSince1970)) }
            }
        }
        return out
    }

    struct Received {
        var response: DSUResponse
        var arrival: Double
    }

    private func check(_ bytes: [UInt8]) -> DSUResponse? {
        guard bytes.count >= 20 else { rejected.append("short \(bytes.count)"); return nil }
        let crc = UInt32(bytes[8]) | UInt32(bytes[9]) << 8 | UInt32(bytes[10]) << 16 | UInt32(bytes[11]) << 24
        var zeroed = bytes
        zeroed[8..<12] = [0, 0, 0, 0]
        guard CRC32.checksum(zeroed) == crc else { rejected.append("CRC"); return nil }
        guard Array(bytes[0..<4]) == Array("DSUS".utf8) else { rejected.append("magic"); return nil }
        guard Int(bytes[6]) | Int(bytes[7]) << 8 == bytes.count - 16 else { rejected.append("length"); return nil }
        switch DSUCodec.decodeResponse(bytes) {
        case .success(let packet): return packet.message
        case .failure(let reason): rejected.append("decode: \(reason)"); return nil
        }
    }
}

extension DSUResponse {
    var padData: (info: DSUSlotInfo, counter: UInt32, input: DSUPadInput, motion: DSUMotion)? {
        if case let .padData(info, counter, input, motion) = self { return (info, counter, input, motion) }
        return nil
    }

    var portInfo: DSUSlotInfo? {
        if case .portInfo(let info) = self { return info }
        return nil
    }
}

/// A source the test drives: samples at a steady pace on its own thread, and unplug/replug on demand.
final class ScriptedSource: MotionSource, @unchecked Sendable {
    let info = MotionSourceInfo(name: "scripted pad", kind: "test", sensors: [.accelerometer, .gyroscope], nominalRate: 200)
    private let lock = NSLock()
    private var deliver: (@Sendable (MotionSourceEvent) -> Void)?
    private var unplugged = false
    private var pending: [MotionSourceEvent] = []
    private var running = false
    private var t = 0.0
    private let stopped = DispatchSemaphore(value: 0)

    func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); self.deliver = deliver; running = true; lock.unlock()
        Thread { [self] in
            while true {
                lock.lock()
                guard running else { lock.unlock(); break }
                // Events go out on this thread only, in order, as a source's must.
                var events = pending
                pending = []
                if !unplugged {
                    t += 0.005
                    events.append(.samples([MotionSample(timestamp: t, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, 0.5))]))
                }
                let send = self.deliver
                lock.unlock()
                for e in events { send?(e) }
                Thread.sleep(forTimeInterval: 0.005)
            }
            stopped.signal()
        }.start()
    }

    func unplug() {
        lock.lock(); unplugged = true; pending.append(.disconnected(reason: "scripted pad unplugged")); lock.unlock()
    }

    /// Back, with its clock restarted (as a replugged pad's is).
    func replug() {
        lock.lock(); unplugged = false; t = 0; pending.append(.reconnected); lock.unlock()
    }

    func stop() {
        lock.lock(); let was = running; running = false; lock.unlock()
        if was { stopped.wait() }
    }
}
