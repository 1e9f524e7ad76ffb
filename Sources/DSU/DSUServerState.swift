import Motion

/// A client's address as the server tells clients apart: the whole endpoint (address and port) is
/// one client; `host` (the address alone) is what a cap on clients per sender counts.
public protocol DSUEndpoint: Hashable, Sendable {
    associatedtype Host: Hashable & Sendable
    var host: Host { get }
}

/// A DSU server without sockets: it takes datagrams and samples with the time they happened and
/// returns the datagrams to send. The UDP server (`DSUServer`) is a thin loop around it; tests
/// drive it by hand with their own clock.
///
///     var state = DSUServerState<UDPEndpoint>(serverID: 7)
///     state.setSlot(0, DSUSlotInfo(slot: 0, state: .connected, model: .fullGyro, connection: .usb))
///     let replies = state.receive(bytes, from: "client A", at: now)    // answers and subscriptions
///     let stream = state.sample(sample, slot: 0, at: now)            // one packet per subscriber
public struct DSUServerState<Endpoint: DSUEndpoint>: Sendable {
    /// One address that has asked for pad data.
    public struct Client: Hashable, Sendable {
        public let endpoint: Endpoint
        /// The random id in the client's headers (the last one seen).
        public var clientID: UInt32
        /// Per slot: when the subscription runs out (−∞ when not subscribed).
        public var expiry: [Double]
        /// Per slot: pad-data packets sent to this client, the next packet's counter.
        public var packetsSent: [UInt32]
        /// When this client last asked for pad data (the least recent is evicted first).
        public var lastRequest: Double

        public func isSubscribed(slot: Int, at now: Double) -> Bool { expiry[slot] > now }
    }

    /// What has happened, for the status line and the tests.
    public struct Counters: Hashable, Sendable {
        public var received = 0
        public var dropped: [DSUDropReason: Int] = [:]
        public var replies = 0
        public var padData = 0
        /// Subscriptions (client × slot) that ran out because the client stopped asking.
        public var expired = 0
        /// Distinct client addresses that have subscribed since the start.
        public var clientsSeen = 0
        /// Clients forgotten to make room for a new one (the least recently asking one of the
        /// same host at its cap, or of all at `maxClients`); one that asks again is served again.
        public var evicted = 0
        public var droppedTotal: Int { dropped.values.reduce(0, +) }
        public init() {}
    }

    public let serverID: UInt32
    public var settings: DSUServerSettings
    public private(set) var slots: [DSUSlotInfo]
    /// Per slot: the buttons, sticks and touches sent with each motion sample.
    public private(set) var inputs = [DSUPadInput](repeating: .neutral, count: DSU.slotCount)
    public private(set) var clients: [Client] = []
    public private(set) var counters = Counters()
    private var timestampers = [DSUTimestamper](repeating: DSUTimestamper(), count: DSU.slotCount)

    public init(serverID: UInt32, settings: DSUServerSettings = .default) {
        self.serverID = serverID
        self.settings = settings
        slots = (0..<DSU.slotCount).map { DSUSlotInfo.absent(slot: UInt8($0)) }
    }

    /// Sets what port info and pad data say about `slot` (connected, model, MAC…).
    public mutating func setSlot(_ slot: Int, _ info: DSUSlotInfo) {
        precondition((0..<DSU.slotCount).contains(slot) && Int(info.slot) == slot)
        slots[slot] = info
    }

    /// Sets the buttons, sticks and touches `slot` sends from its next sample on.
    public mutating func setInput(_ input: DSUPadInput, slot: Int) {
        inputs[slot] = input
    }

    /// Sets the battery byte of `slot` (`DSUSlotInfo.battery`).
    public mutating func setBattery(_ battery: UInt8, slot: Int) {
        slots[slot].battery = battery
    }

    /// Marks `slot` connected or disconnected. On a disconnect each subscriber hears it once (a
    /// pad-data packet with state 0, the last motion repeated) so a client that only streams knows.
    public mutating func setConnected(_ connected: Bool, slot: Int, at now: Double) -> [DSUDatagram<Endpoint>] {
        let state: DSUSlotInfo.State = connected ? .connected : .disconnected
        guard slots[slot].state != state else { return [] }
        slots[slot].state = state
        guard !connected, let last = lastMotion[slot] else { return [] }
        return stream(last, slot: slot, at: now)
    }

    private var lastMotion = [DSUMotion?](repeating: nil, count: DSU.slotCount)

    /// Handles one datagram; returns the replies (version, port info). A bad one is counted and
    /// answered with nothing.
    public mutating func receive(_ bytes: [UInt8], from endpoint: Endpoint, at now: Double) -> [DSUDatagram<Endpoint>] {
        counters.received += 1
        let packet: DSUPacket<DSURequest>
        switch DSUCodec.decodeRequest(bytes) {
        case .success(let p): packet = p
        case .failure(let reason):
            counters.dropped[reason, default: 0] += 1
            return []
        }
        switch packet.message {
        case .version:
            return reply(.version(maxProtocolVersion: DSU.protocolVersion), to: endpoint)
        case .portInfo(let asked):
            // One reply per asked slot that exists; a slot nobody serves reads disconnected.
            return asked.filter { Int($0) < DSU.slotCount }.flatMap { reply(.portInfo(slots[Int($0)]), to: endpoint) }
        case .padData(let subscription):
            subscribe(endpoint, clientID: packet.senderID, to: subscription, at: now)
            return []
        }
    }

    /// Converts a sample of `slot` and returns one pad-data packet per subscribed client.
    public mutating func sample(_ sample: MotionSample, slot: Int, at now: Double) -> [DSUDatagram<Endpoint>] {
        let motion = DSUMotion(sample: sample, timestamp: timestampers[slot].stamp(seconds: sample.timestamp))
        lastMotion[slot] = motion
        if slots[slot].state != .connected { slots[slot].state = .connected }
        return stream(motion, slot: slot, at: now)
    }

    /// Forgets subscriptions that ran out, and clients with none left.
    public mutating func expire(at now: Double) {
        for i in clients.indices {
            for s in 0..<DSU.slotCount where clients[i].expiry[s] > -.infinity && clients[i].expiry[s] <= now {
                clients[i].expiry[s] = -.infinity
                counters.expired += 1
            }
        }
        clients.removeAll { $0.expiry.allSatisfy { $0 == -.infinity } }
    }

    /// Slot `slot`'s timestamp re-bases so far (a clock that did not increase).
    public func timestampRebases(slot: Int) -> Int { timestampers[slot].rebases }

    // MARK: Steps

    private mutating func reply(_ response: DSUResponse, to endpoint: Endpoint) -> [DSUDatagram<Endpoint>] {
        counters.replies += 1
        return [DSUDatagram(endpoint: endpoint, bytes: DSUCodec.encode(response, from: serverID))]
    }

    private mutating func subscribe(_ endpoint: Endpoint, clientID: UInt32, to subscription: DSUSubscription, at now: Double) {
        let index: Int
        if let i = clients.firstIndex(where: { $0.endpoint == endpoint }) {
            index = i
        } else {
            expire(at: now)
            makeRoom(for: endpoint.host)
            clients.append(Client(endpoint: endpoint, clientID: clientID,
                                  expiry: Array(repeating: -.infinity, count: DSU.slotCount),
                                  packetsSent: Array(repeating: 0, count: DSU.slotCount), lastRequest: now))
            index = clients.count - 1
            counters.clientsSeen += 1
        }
        clients[index].clientID = clientID
        clients[index].lastRequest = now
        for s in 0..<DSU.slotCount where subscription.matches(slots[s]) {
            clients[index].expiry[s] = now + settings.subscriptionTimeout
        }
    }

    /// Frees a place for a new client of `host`: the least recently asking client of the same host
    /// when that host holds its cap, else the least recently asking of all when the table is full.
    /// Idle clients that keep re-subscribing cannot lock a newcomer out (each well-behaved client
    /// asks again within a second and is back at once), and a flood of ports from one host only
    /// displaces that host's own clients.
    private mutating func makeRoom(for host: Endpoint.Host) {
        let sameHost = clients.indices.filter { clients[$0].endpoint.host == host }
        let candidates: [Int]
        if sameHost.count >= max(settings.maxClientsPerHost, 1) {
            candidates = sameHost
        } else if clients.count >= max(settings.maxClients, 1) {
            candidates = Array(clients.indices)
        } else {
            return
        }
        guard let oldest = candidates.min(by: { clients[$0].lastRequest < clients[$1].lastRequest }) else { return }
        clients.remove(at: oldest)
        counters.evicted += 1
    }

    private mutating func stream(_ motion: DSUMotion, slot: Int, at now: Double) -> [DSUDatagram<Endpoint>] {
        var out: [DSUDatagram<Endpoint>] = []
        for i in clients.indices where clients[i].isSubscribed(slot: slot, at: now) {
            let counter = clients[i].packetsSent[slot]
            clients[i].packetsSent[slot] = counter &+ 1
            out.append(DSUDatagram(endpoint: clients[i].endpoint,
                                   bytes: DSUCodec.encode(.padData(slots[slot], counter: counter, input: inputs[slot], motion: motion),
                                                          from: serverID)))
        }
        counters.padData += out.count
        return out
    }
}

/// How long subscriptions last and how many clients are served.
public struct DSUServerSettings: Hashable, Sendable {
    /// Seconds a subscription lasts after the client's last pad-data request.
    public var subscriptionTimeout = DSU.subscriptionTimeout
    /// Clients (address and port) remembered at once: a flood of spoofed senders must not grow
    /// memory without bound. A new client beyond it takes the place of the least recently asking.
    public var maxClients = 16
    /// Clients one host (address) may hold at once, so a flood from one address cannot push every
    /// other host's clients out. Local clients (Dolphin, Cemu) all share 127.0.0.1.
    public var maxClientsPerHost = 8
    public static let `default` = DSUServerSettings()
    public init() {}
}

/// A datagram to send and where.
public struct DSUDatagram<Endpoint: Hashable & Sendable>: Hashable, Sendable {
    public var endpoint: Endpoint
    public var bytes: [UInt8]
}
