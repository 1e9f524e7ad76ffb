import DSU
import Foundation
import Motion

extension UDPEndpoint: DSUEndpoint {
    /// The IPv4 address: what the per-host client cap counts.
    public var host: UInt32 { address }
}

/// The DSU server on a UDP socket: up to four motion sources, one per slot, each sample sent to
/// every client subscribed to its slot as it arrives, on the source's own thread; one thread
/// answers requests. All protocol work is `DSUServerState`'s; this file only moves bytes.
///
///     let server = try DSUServer(settings: .init())           // 127.0.0.1:26760
///     try server.attach(GyroCalibratedSource(wrapping: pad), slot: 0)
///     server.start()
///     …
///     server.stop()
public final class DSUServer: @unchecked Sendable {
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = DSU.defaultPort
        public var state = DSUServerSettings.default
        public init() {}
    }

    /// A slot as the status line shows it.
    public struct SlotStatus: Sendable {
        public var slot: Int
        public var name: String
        public var info: DSUSlotInfo
        /// Samples the source delivered (each sent to every subscriber).
        public var samples: Int
        /// Pad-data packets sent for this slot, to all clients.
        public var packetsSent = 0
        /// Why the source went away, while it is away.
        public var disconnectReason: String?
    }

    public struct Status: Sendable {
        public var slots: [SlotStatus]
        public var clients: [DSUServerState<UDPEndpoint>.Client]
        public var counters: DSUServerState<UDPEndpoint>.Counters
        /// Datagrams the kernel refused to send (its buffer full).
        public var sendFailures: Int
    }

    public enum SlotEvent: Sendable {
        case disconnected(reason: String)
        case reconnected
        case ended
    }

    public let local: UDPEndpoint
    private let socket: UDPSocket
    private let clock: any MotionClock
    private let lock = NSLock()
    private var state: DSUServerState<UDPEndpoint>
    private var sources: [Int: any MotionSource] = [:]
    private var slotStatus: [Int: SlotStatus] = [:]
    private var sendFailures = 0
    private var running = false
    private let loopEnded = DispatchSemaphore(value: 0)
    private let onSlotEvent: (@Sendable (Int, SlotEvent) -> Void)?

    /// Binds the socket (the error says when the port is taken). `onSlotEvent` hears unplug and
    /// replug as they happen, on the source's thread.
    public init(settings: Settings = Settings(), clock: any MotionClock = MonotonicClock(),
                onSlotEvent: (@Sendable (Int, SlotEvent) -> Void)? = nil) throws {
        guard let endpoint = UDPEndpoint(host: settings.host, port: settings.port) else {
            throw UDPSocketError(description: "'\(settings.host)' is not an IPv4 address (try 127.0.0.1 or 0.0.0.0)")
        }
        socket = try UDPSocket(binding: endpoint)
        local = socket.local
        self.clock = clock
        self.onSlotEvent = onSlotEvent
        state = DSUServerState(serverID: UInt32.random(in: 1...UInt32.max), settings: settings.state)
    }

    deinit { stop() }

    /// Serves `source` in `slot` (0–3) and starts it. The slot reads connected from its first sample.
    /// `mac` is the pad's own address where known (clients use it to recognise a pad between runs).
    public func attach(_ source: any MotionSource, slot: Int, connection: DSUSlotInfo.Connection = .usb, mac: DSUMAC? = nil) throws {
        precondition((0..<DSU.slotCount).contains(slot))
        let info = source.info
        lock.lock()
        state.setSlot(slot, DSUSlotInfo(slot: UInt8(slot), state: .disconnected,
                                        model: info.sensors.contains(.gyroscope) ? .fullGyro : .partialGyro,
                                        connection: connection, mac: mac))
        slotStatus[slot] = SlotStatus(slot: slot, name: info.name, info: state.slots[slot], samples: 0)
        sources[slot] = source
        lock.unlock()
        try source.start { [weak self] event in self?.handle(event, slot: slot) }
    }

    /// Changes what `slot` sends besides motion (buttons, sticks, touches) from its next sample on;
    /// safe from any thread (a pad's controls reader calls it from its own).
    public func updateInput(slot: Int, _ change: (inout DSUPadInput) -> Void) {
        lock.lock(); defer { lock.unlock() }
        var input = state.inputs[slot]
        change(&input)
        state.setInput(input, slot: slot)
    }

    /// Sets `slot`'s battery byte (`DSUSlotInfo.battery`), sent in port info and pad data.
    public func setBattery(_ battery: UInt8, slot: Int) {
        lock.lock(); defer { lock.unlock() }
        state.setBattery(battery, slot: slot)
    }

    /// Starts answering requests on a thread of its own.
    public func start() {
        lock.lock()
        guard !running else { lock.unlock(); return }
        running = true
        lock.unlock()
        let thread = Thread { [self] in receiveLoop() }
        thread.name = "DSU server"
        thread.start()
    }

    /// Stops every source, then the request thread. The socket closes with the server.
    public func stop() {
        lock.lock()
        let attached = sources.values
        sources = [:]
        let wasRunning = running
        running = false
        lock.unlock()
        for source in attached { source.stop() }
        if wasRunning { loopEnded.wait() }
    }

    public var status: Status {
        lock.lock(); defer { lock.unlock() }
        var slots: [SlotStatus] = []
        for slot in slotStatus.keys.sorted() {
            var s = slotStatus[slot]!
            s.info = state.slots[slot]
            slots.append(s)
        }
        return Status(slots: slots, clients: state.clients, counters: state.counters, sendFailures: sendFailures)
    }

    // MARK: Threads

    /// On each source's thread: each sample → one packet per subscriber, sent at once (the
    /// samples of one read together).
    private func handle(_ event: MotionSourceEvent, slot: Int) {
        let now = clock.now()
        lock.lock()
        var out: [DSUDatagram<UDPEndpoint>] = []
        var told: SlotEvent?
        switch event {
        case .samples(let batch):
            let wasDisconnected = slotStatus[slot]?.disconnectReason != nil
            for sample in batch { out += state.sample(sample, slot: slot, at: now) }
            slotStatus[slot]?.samples += batch.count
            slotStatus[slot]?.disconnectReason = nil
            if wasDisconnected { told = .reconnected }
        case .disconnected(let reason):
            out = state.setConnected(false, slot: slot, at: now)
            slotStatus[slot]?.disconnectReason = reason
            told = .disconnected(reason: reason)
        case .reconnected:
            break  // Connected again from the next sample, which carries motion.
        case .ended:
            out = state.setConnected(false, slot: slot, at: now)
            slotStatus[slot]?.disconnectReason = "the source ended"
            told = .ended
        }
        slotStatus[slot]?.packetsSent += out.count
        lock.unlock()
        send(out)
        if let told { onSlotEvent?(slot, told) }
    }

    private func receiveLoop() {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while isRunning {
            if socket.waitReadable(seconds: 0.1) {
                while let (length, from) = socket.receive(into: &buffer) {
                    // A datagram cut by the buffer is still far over the protocol's 100 bytes: dropped as oversized.
                    let bytes = Array(buffer[0..<min(length, buffer.count)])
                    lock.lock()
                    let replies = state.receive(bytes, from: from, at: clock.now())
                    lock.unlock()
                    send(replies)
                }
            }
            lock.lock()
            state.expire(at: clock.now())
            lock.unlock()
        }
        loopEnded.signal()
    }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    private func send(_ datagrams: [DSUDatagram<UDPEndpoint>]) {
        var failed = 0
        for d in datagrams where !socket.send(d.bytes, to: d.endpoint) { failed += 1 }
        if failed > 0 { lock.lock(); sendFailures += failed; lock.unlock() }
    }
}
