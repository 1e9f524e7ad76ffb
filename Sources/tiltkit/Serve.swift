import ArgumentParser
import DSU
import DSUServer
import Engine
import Foundation
import Mapper
import Motion
import MotionSources
import MotionDevices
import MotionSDL

/// `tiltkit serve …`: motion for other programs.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve motion to other programs (emulators over DSU).",
        subcommands: [ServeDSU.self])
}

/// `tiltkit serve dsu`: the cemuhook DSU protocol for Cemu, Dolphin, Citra, yuzu's forks, Ryujinx.
struct ServeDSU: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dsu",
        abstract: "Serve up to four motion sources to emulators over the DSU (cemuhook) protocol.",
        discussion: """
        One slot per --source, in order (at most 4). `auto`, or no --source, takes every pad and IMU \
        `tiltkit devices` finds (one entry per device). Trace files loop. Each sample goes to every \
        client subscribed to its slot as it arrives: accelerometer in g, gyro in °/s, and a pad's \
        buttons, sticks and triggers (read from the gamepad node the kernel makes beside its hidraw or \
        motion node), its battery, address and USB/Bluetooth connection; a live device's \
        gyro bias is removed as --gyro-calibration says (default auto: learned at rest; --raw-gyro \
        is --gyro-calibration off), a trace's gyro is sent as recorded unless the option is given. Clients, slots and rates are printed on stderr every \
        --status-interval seconds; Ctrl-C (or SIGTERM) stops and prints a summary on stdout. With --json the summary is one JSON object, keys: served_s, clients_seen, requests, replies, \
        dropped, clients_evicted, pad_data_packets, send_failures, slots [{slot, name, state, \
        disconnect_reason, samples, packets_sent, samples_per_s, packets_per_s}]. At most 16 clients \
        (8 per address) are served at once; a new one takes the place of the one that asked least recently.

        In Dolphin: `--print-config dolphin` prints Config/DSUClient.ini for this server (address and \
        port as given), `--print-config dolphin-wiimote` a Wii Remote profile on slot 0; or Controllers > \
        Alternate Input Sources > enable DSU Client, add 127.0.0.1, port 26760. \
        In Cemu: Options > Input Settings > Controller API "DSUController", 127.0.0.1, port 26760.

        Example: tiltkit serve dsu --source Assets/traces/xio/sensor_data.csv
        """)

    @Option(name: .customLong("source"), help: "A motion source for the next slot: auto, trace:PATH or a path, or a device kind (see `tiltkit record --help`). Repeatable.")
    var sources: [String] = []

    @Option(help: "IPv4 address to listen on (0.0.0.0 for every interface).")
    var bind = "127.0.0.1"

    @Option(help: "UDP port.")
    var port: Int = Int(DSU.defaultPort)

    @Flag(help: "Send the gyro as measured (the same as --gyro-calibration off).")
    var rawGyro = false

    @OptionGroup var gyro: GyroCalibrationOptions

    /// --raw-gyro is kept as the short spelling of off.
    private var gyroChoice: GyroCalibrationChoice? { rawGyro ? .off : gyro.choice }

    @Option(help: "Seconds between status lines on stderr (0: none).")
    var statusInterval: Double = 5

    @Flag(help: "Print the closing summary as one JSON object (keys above).")
    var json = false

    @Option(help: "Stop after this many seconds (default: until Ctrl-C).")
    var duration: Double?

    @Option(help: "Print a client's settings for this server on stdout and exit: dolphin (Config/DSUClient.ini) or dolphin-wiimote (a Wii Remote profile on slot 0).")
    var printConfig: DSUClientConfigKind?

    func run() throws {
        try reportingErrors {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
            if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number") }
            if rawGyro, let choice = gyro.choice, choice != .off {
                throw ValidationError("--raw-gyro means --gyro-calibration off; give one of them")
            }
            if let printConfig {
                guard UDPEndpoint(host: bind, port: UInt16(port)) != nil else {
                    throw ValidationError("--bind '\(bind)' is not an IPv4 address (try 127.0.0.1 or 0.0.0.0)")
                }
                switch printConfig {
                case .dolphin: print(DolphinDSUConfig.clientINI(host: bind, port: UInt16(port)), terminator: "")
                case .dolphinWiimote: print(DolphinDSUConfig.wiimoteProfile(), terminator: "")
                }
                return
            }
            let slots = try makeSlotSources()
            let pads = SlotPads()
            var settings = DSUServer.Settings()
            settings.host = bind
            settings.port = UInt16(port)
            let server = try DSUServer(settings: settings) { slot, event in
                switch event {
                case .disconnected(let reason): printError("tiltkit: slot \(slot): \(reason); the slot reads disconnected until it comes back")
                case .reconnected:
                    printError("tiltkit: slot \(slot) is back; streaming again")
                    pads.reopen(slot: slot)
                case .ended: printError("tiltkit: slot \(slot): the source ended")
                }
            }
            for (slot, (source, origin)) in slots.enumerated() {
                let pad = origin.map { DSUSlotPad(sourceKind: $0.kind, sourcePath: $0.path, slot: slot) }
                // Clients show the connection type only; a trace says USB like a wired pad.
                let connection = pad?.connection ?? (source.info.name.localizedCaseInsensitiveContains("bluetooth") ? .bluetooth : .usb)
                try server.attach(source, slot: slot, connection: connection, mac: pad?.mac)
                if let pad { pads.add(pad, server: server) }
            }
            server.start()
            printError("tiltkit: serving DSU (protocol \(DSU.protocolVersion)) on \(server.local)")
            for (slot, (source, _)) in slots.enumerated() {
                let gyro = (source as? GyroCalibratedSource).map { "gyro calibration \($0.currentCalibration.mode.rawValue)" } ?? "gyro as delivered"
                let controls = pads.open(slot: slot).map { "buttons and sticks from \($0)" } ?? "no buttons or sticks"
                printError("  slot \(slot): \(source.info.name) (\(gyro); \(controls))")
            }
            defer { pads.closeAll() }
            try serve(server, pumping: slots.map(\.source), pads: pads)
        }
    }

    /// The sources for the slots, in order, each with the device node it reads (kind and path) when
    /// it is a device: `auto` expands to every device found.
    private func makeSlotSources() throws -> [(source: any MotionSource, origin: (kind: String, path: String)?)] {
        var made: [(source: any MotionSource, origin: (kind: String, path: String)?)] = []
        let live = SourceSpec.Options(gyroCalibration: gyroChoice)
        for text in sources.isEmpty ? ["auto"] : sources {
            let spec = try SourceSpec(parsing: text)
            switch spec {
            case .auto:
                let scanned = MotionDeviceDiscovery().scan()
                for note in MotionDeviceDiscovery.unusableNotes(scanned) { printError("tiltkit: --source auto: \(note)") }
                let found = MotionDeviceDiscovery.distinct(scanned)
                if found.isEmpty {
                    printError("tiltkit: no pad or IMU found that this user may open (`tiltkit devices` lists what is there); to try the server without hardware: --source \(AssetLocator.locate(AssetLocator.defaultTracePath)?.path ?? "Assets/" + AssetLocator.defaultTracePath)")
                }
                for device in found {
                    guard let deviceSpec = try DeviceSourceSpec(kind: device.kind, argument: device.path) else { continue }
                    made.append((try SourceSpec.device(deviceSpec).openSource(live), (device.kind, device.path)))
                }
            case .trace:
                // A server runs until stopped.
                made.append((try spec.openSource(.init(speed: 1, loop: true, gyroCalibration: gyroChoice)), nil))
            case .device(let device):
                let origin: (kind: String, path: String)?
                switch device {
                case .hidraw(let path, _): origin = ("hidraw", path)
                case .evdev(let path, _): origin = ("evdev", path)
                default: origin = nil
                }
                made.append((try spec.openSource(live), origin))
            }
        }
        guard !made.isEmpty else { throw ExitCode.failure }
        guard made.count <= DSU.slotCount else {
            throw ValidationError("DSU has \(DSU.slotCount) slots; \(made.count) sources given (name them with --source)")
        }
        return made
    }

    /// Runs until Ctrl-C, SIGTERM or --duration, printing the status line; then stops and sums up.
    private func serve(_ server: DSUServer, pumping slots: [any MotionSource], pads slotPads: SlotPads) throws {
        let interrupt = InterruptFlag()
        // SDL pads need SDL's event queue pumped on this thread; one pump feeds them all.
        let pads = slots.compactMap { GyroCalibratedSource.unwrapped($0) as? SDLControllerSource }
        let pump: SDLEventPump? = pads.isEmpty ? nil : SDLEventPump()
        pump?.controllerEvents = { event in for pad in pads { pad.handle(event: event) } }
        let clock = MonotonicClock()
        let start = clock.now()
        let deadline = duration.map { start + $0 } ?? .infinity
        var report = StatusReport(server.status, at: start)
        var nextStatus = statusInterval > 0 ? start + statusInterval : .infinity
        // A few sysfs reads: each second, so a battery the driver registers after the pad's input nodes is soon seen.
        var nextBattery = start + 1
        var nextPadCheck = start + 1
        while !interrupt.isSet && clock.now() < deadline {
            if let pump { pump.wait(timeout: 0.1) } else { Thread.sleep(forTimeInterval: 0.1) }
            let now = clock.now()
            if now >= nextPadCheck {
                slotPads.reopenMissing()
                nextPadCheck = now + 1
            }
            if now >= nextBattery {
                slotPads.refreshBatteries()
                nextBattery = now + 1
            }
            if now >= nextStatus {
                let next = StatusReport(server.status, at: now)
                printError(next.lines(since: report).joined(separator: "\n"))
                report = next
                nextStatus = now + statusInterval
            }
        }
        server.stop()
        let end = StatusReport(server.status, at: clock.now())
        let zero = StatusReport(zeroFor: end, at: start)
        if json { printJSON(end.jsonSummary(since: zero)) } else { print(end.summary(since: zero).joined(separator: "\n")) }
    }
}

/// Counters at one moment; two of them give the rates of the status line and the summary.
private struct StatusReport {
    let status: DSUServer.Status
    let time: Double

    init(_ status: DSUServer.Status, at time: Double) {
        self.status = status
        self.time = time
    }

    /// The same slots with every count at zero (the start, for the summary's means).
    init(zeroFor other: StatusReport, at time: Double) {
        var s = other.status
        s.slots = s.slots.map { var z = $0; z.samples = 0; z.packetsSent = 0; return z }
        s.counters = .init()
        s.sendFailures = 0
        self.init(s, at: time)
    }

    func lines(since before: StatusReport) -> [String] {
        let c = status.counters
        let clients = status.clients.map { client in
            let subscribed = (0..<DSU.slotCount).filter { client.expiry[$0] > -.infinity }
            return "\(client.endpoint) (slots \(subscribed.map(String.init).joined(separator: ",")))"
        }
        var lines = ["tiltkit dsu: \(status.clients.count) client\(status.clients.count == 1 ? "" : "s")\(clients.isEmpty ? "" : ": " + clients.joined(separator: ", ")); requests \(c.received), dropped \(dropped(c))"]
        lines += slotLines(since: before)
        return lines
    }

    func summary(since start: StatusReport) -> [String] {
        let c = status.counters
        var lines = [String(format: "served %.1f s: %d client%@ seen, %d requests (%d replies, dropped %@), %d pad-data packets sent%@",
                            time - start.time, c.clientsSeen, c.clientsSeen == 1 ? "" : "s", c.received, c.replies, dropped(c),
                            c.padData, status.sendFailures > 0 ? ", \(status.sendFailures) refused by the kernel" : "")]
        lines += slotLines(since: start)
        return lines
    }

    /// `serve dsu --json`'s summary (keys in its help).
    func jsonSummary(since start: StatusReport) -> [String: Any?] {
        let c = status.counters
        let dt = max(time - start.time, 1e-9)
        let slots: [Any?] = status.slots.map { slot -> Any? in
            let state = slot.disconnectReason != nil ? "disconnected" : (slot.info.state == .connected ? "connected" : "waiting")
            return ["slot": slot.slot, "name": slot.name, "state": state, "disconnect_reason": slot.disconnectReason,
                    "samples": slot.samples, "packets_sent": slot.packetsSent,
                    "samples_per_s": Double(slot.samples) / dt, "packets_per_s": Double(slot.packetsSent) / dt] as [String: Any?]
        }
        return ["served_s": time - start.time, "clients_seen": c.clientsSeen, "requests": c.received, "replies": c.replies,
                "dropped": c.droppedTotal, "clients_evicted": c.evicted, "pad_data_packets": c.padData,
                "send_failures": status.sendFailures, "slots": slots]
    }

    private func slotLines(since before: StatusReport) -> [String] {
        let dt = max(time - before.time, 1e-9)
        return status.slots.map { slot in
            let prior = before.status.slots.first { $0.slot == slot.slot }
            let samples = Double(slot.samples - (prior?.samples ?? 0)) / dt
            let packets = Double(slot.packetsSent - (prior?.packetsSent ?? 0)) / dt
            let state = slot.disconnectReason.map { "disconnected (\($0))" } ?? (slot.info.state == .connected ? "connected" : "waiting")
            return String(format: "  slot %d %@: %@, %.1f samples/s in, %.1f packets/s out, %d samples",
                          slot.slot, slot.name, state, samples, packets, slot.samples)
        }
    }

    private func dropped(_ c: DSUServerState<UDPEndpoint>.Counters) -> String {
        let reasons = DSUDropReason.allCases.compactMap { r in c.dropped[r].map { "\(r.rawValue) \($0)" } }
        let evicted = c.evicted > 0 ? "; \(c.evicted) client\(c.evicted == 1 ? "" : "s") evicted for newer ones" : ""
        return "\(c.droppedTotal)" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))") + evicted
    }
}

/// What `serve dsu --print-config` prints.
enum DSUClientConfigKind: String, ExpressibleByArgument, CaseIterable {
    case dolphin
    case dolphinWiimote = "dolphin-wiimote"
}

/// The served slots' pads (`DSUSlotPad`), reachable from the server's slot events (a replug
/// reopens the pad's gamepad node, which may have a new number).
private final class SlotPads: @unchecked Sendable {
    private let lock = NSLock()
    private var pads: [Int: (pad: DSUSlotPad, server: DSUServer)] = [:]

    func add(_ pad: DSUSlotPad, server: DSUServer) {
        lock.lock(); defer { lock.unlock() }
        pads[pad.slot] = (pad, server)
    }

    private func entry(_ slot: Int) -> (pad: DSUSlotPad, server: DSUServer)? {
        lock.lock(); defer { lock.unlock() }
        return pads[slot]
    }

    /// Opens `slot`'s gamepad node; its path, nil when the slot has none.
    func open(slot: Int) -> String? {
        guard let (pad, server) = entry(slot) else { return nil }
        return pad.open(into: server)
    }

    func reopen(slot: Int) {
        if let path = open(slot: slot) { printError("tiltkit: slot \(slot): buttons and sticks from \(path)") }
    }

    /// Opens again, once a second, the gamepad nodes a replug had not made yet when the slot came back.
    func reopenMissing() {
        lock.lock(); let missing = pads.filter { $0.value.pad.isMissingItsGamepad }.map(\.key); lock.unlock()
        for slot in missing.sorted() { reopen(slot: slot) }
    }

    func refreshBatteries() {
        lock.lock(); let all = Array(pads.values); lock.unlock()
        for (pad, server) in all { pad.refreshBattery(of: server) }
    }

    func closeAll() {
        lock.lock(); let all = Array(pads.values); pads = [:]; lock.unlock()
        for (pad, _) in all { pad.close() }
    }
}
