// libFuzzer target: the DSU packet parser and the server's rules. The whole input is decoded as
// one request and one response, as sent and with its length and CRC repaired (a request that decodes must re-encode to the same meaning);
// then it is read as a session of datagrams, [sender][length][bytes]…, each handed to one
// server state with a sample after it. Every packet the server produces must decode.
import DSU
import Motion

/// A fuzzed sender (0…31) on one of two hosts of 16 senders each, past the per-host cap.
struct Sender: DSUEndpoint {
    var id: UInt8
    var host: UInt8 { id >> 4 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // As sent, and with its length and CRC fields made right so that mutations reach the bodies
    // (a fuzzer almost never guesses a CRC).
    var repaired = bytes
    if repaired.count >= 16 {
        let length = repaired.count - 16
        repaired[6] = UInt8(truncatingIfNeeded: length)
        repaired[7] = UInt8(truncatingIfNeeded: length >> 8)
        repaired[8..<12] = [0, 0, 0, 0]
        let crc = CRC32.checksum(repaired)
        for i in 0..<4 { repaired[8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    }
    for packet in [bytes, repaired] {
        _ = DSUCodec.decodeResponse(packet)
        if case .success(let request) = DSUCodec.decodeRequest(packet) {
            let again = DSUCodec.decodeRequest(DSUCodec.encode(request.message, from: request.senderID))
            precondition((try? again.get()) == request, "a decoded request re-encodes to the same request")
        }
    }

    var state = DSUServerState<Sender>(serverID: 1)
    state.setSlot(0, DSUSlotInfo(slot: 0, state: .connected, model: .fullGyro, connection: .usb))
    var offset = 0
    var t = 0.0
    while offset + 2 <= bytes.count {
        let sender = bytes[offset] & 0x1F  // up to 32 senders, past the 16-client limit
        let end = min(offset + 2 + Int(bytes[offset + 1]), bytes.count)
        let datagram = Array(bytes[(offset + 2)..<end])
        offset = end
        t += 0.7
        let sample = MotionSample(timestamp: t.truncatingRemainder(dividingBy: 3), acceleration: Vector3(0, 0, -1),
                                  rotationRate: Vector3(0.1, 0.2, 0.3))
        for out in state.receive(datagram, from: Sender(id: sender), at: t) + state.sample(sample, slot: 0, at: t) {
            precondition((try? DSUCodec.decodeResponse(out.bytes).get()) != nil, "the server's own packets decode")
        }
        state.expire(at: t)
    }
    precondition(state.clients.count <= state.settings.maxClients)
    for host in Set(state.clients.map(\.endpoint.host)) {
        precondition(state.clients.filter { $0.endpoint.host == host }.count <= state.settings.maxClientsPerHost)
    }
    return 0
}
