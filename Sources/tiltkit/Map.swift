import ArgumentParser
import Benchmarks
import Foundation
import Mapper
import MapperDevices
import Motion
import MotionDevices
import MotionSources

/// `tiltkit map`: a gyro pad as a virtual mouse and gamepad for any game (JoyShockMapper's idea on
/// uinput). The pure mapping is `Mapper`; this file opens the source, the pad's evdev side and the
/// virtual devices, and runs until stopped.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Map a gyro pad to a virtual mouse and gamepad (uinput) that any game can use.",
        discussion: """
        The pad's motion (--source) turns into mouse motion as the profile says (default: gyro to mouse \
        in player space, every button and stick mirrored to the virtual pad). Its buttons and sticks are \
        read from its gamepad evdev node, found beside the motion source in sysfs (a Steam Deck's or Steam \
        Controller's from the same hidraw reports as its motion), and every evdev node \
        of the pad is grabbed while mapping so a game sees one pad, "\(VirtualGamepad.name)" \
        (an Xbox 360 pad, USB 045e:028e), and one mouse, "\(VirtualMouse.name)".

        Example profiles are in Assets/profiles/ (its README lists every key). The profile file is reloaded when it changes; a bad edit is reported (FILE:LINE) and the last \
        good profile kept. Unplugging the pad releases every virtual button and centres the sticks; \
        replugging resumes. Ctrl-C (or SIGTERM) removes the virtual devices and prints a summary.

        /dev/uinput must be writable: sudo cp \(UInputError.udevRulePath) /etc/udev/rules.d/ (see the file). \
        --dry-run needs neither it nor a pad: it prints the events the devices would receive, e.g. \
        tiltkit map --source Assets/traces/xio/sensor_data.csv --dry-run --duration 2
        """)

    @Option(help: "The motion source: auto (the first pad `tiltkit devices` finds), hidraw:PATH, evdev:PATH, or a trace file.")
    var source = "auto"

    @Option(help: "A TOML profile (JoyShockMapper's settings in lower case); default: gyro to mouse, the pad mirrored.")
    var profile: String?

    @OptionGroup var gyro: GyroCalibrationOptions

    @Flag(help: "Print the events the virtual devices would receive to stdout; create no device, grab nothing.")
    var dryRun = false

    @Option(help: "Seconds between status lines on stderr (0: none).")
    var statusInterval: Double = 5

    @Option(help: "Stop after this many seconds (default: until Ctrl-C, or a trace's end).")
    var duration: Double?

    @Option(help: "Replay speed for a trace source (2 = twice as fast).")
    var speed: Double = 1

    @Option(help: ArgumentHelp("Map a trace as fast as it reads and write a chart (SVG, and PNG beside it where rsvg-convert is installed): the view's turn from the mouse counts against the pad's turn × sensitivity. Creates no device.", valueName: "FILE.svg"))
    var plot: String?

    @Option(help: .hidden)
    var uinputPath = UInputDevice.defaultPath

    func run() throws {
        try reportingErrors {
            if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number") }
            guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
            guard statusInterval >= 0, statusInterval.isFinite else { throw ValidationError("--status-interval must be 0 or more seconds") }
            let startProfile = try profile.map { try MapperProfile.load(contentsOf: $0) } ?? .default
            if let plot { return try writePlot(to: plot, profile: startProfile) }
            let opened = try openSource(startProfile)
            let writer: any MapperOutputWriter = dryRun
                ? DryRunWriter { line in print(line) }
                : try VirtualDevices.create(path: uinputPath)
            let session = MapperSession(mapper: Mapper(profile: startProfile), writer: writer)
            // A Steam pad's controls come with its motion, from the same reports (the kernel gives it no
            // gamepad node while its hidraw node is read): one read for both.
            let steam = (GyroCalibratedSource.unwrapped(opened.source) as? HIDRawSource).flatMap { hidraw in
                hidraw.device.flatMap { SteamReport.Layout(model: $0.model) }.map { (hidraw, $0) }
            }
            if let (hidraw, layout) = steam {
                hidraw.reportObserver = { report in
                    if let controls = SteamReportControls.parse(report, layout: layout) { session.feed(controls: controls) }
                }
            }
            let pad = opened.device.map { PhysicalPad(sourceKind: $0.kind, sourcePath: $0.path, grab: !dryRun, controlsFromReports: steam != nil) }
            try MapRun(name: opened.name, source: opened.source, pad: pad, session: session, profilePath: profile,
                       statusInterval: statusInterval, duration: duration, dryRun: dryRun).run()
            if let devices = writer as? VirtualDevices { devices.destroy() }
        }
    }

    /// `--plot`: the whole trace through the mapper, no device, no real time.
    private func writePlot(to path: String, profile: MapperProfile) throws {
        let spec = try SourceSpec(parsing: source)
        let tracePath: String
        switch spec {
        case .trace(let path): tracePath = path
        case .auto:
            guard let bundled = AssetLocator.defaultTrace else { throw ValidationError("--plot: the bundled trace was not found; give --source PATH") }
            tracePath = bundled.path
        case .device:
            throw ValidationError("--plot maps a trace file (--source PATH), not a live device")
        }
        // The chart and its PNG are written where asked: never over the trace being read, nor over
        // a device or a folder.
        let svg = URL(fileURLWithPath: path)
        for output in [svg, svg.deletingPathExtension().appendingPathExtension("png")] {
            if OutputPath.isSameFile(output.path, tracePath) {
                throw ValidationError("--plot \(path): \(output.path) is the trace being mapped; give another file")
            }
            try OutputPath.requireFileOrNothing(output.path)
        }
        let name = URL(fileURLWithPath: tracePath).lastPathComponent
        let result = try MapPlot.map(profile: profile, name: name) { visit in
            try forEachSample(in: URL(fileURLWithPath: tracePath), visit)
        }
        try FileManager.default.createDirectory(at: svg.deletingLastPathComponent(), withIntermediateDirectories: true)
        try result.chart.svg().write(to: svg, atomically: true, encoding: .utf8)
        let png = try SVGRasterizer.convertToPNG(svg)
        print(String(format: "mapped %d samples of %@: the view's turn from the mouse counts is at most %.2f° (yaw) and %.2f° (pitch) from the pad's turn × sensitivity",
                     result.samples, name, result.largestGap.yaw, result.largestGap.pitch))
        print("wrote \(svg.path)" + (png.map { " and \($0.path)" } ?? ""))
    }

    /// The motion source, its name for the messages, and the device node whose siblings are the pad's.
    private func openSource(_ profile: MapperProfile) throws -> (source: any MotionSource, name: String, device: (kind: String, path: String)?) {
        var spec = try SourceSpec(parsing: source)
        if spec == .auto {
            let search = DeviceSourceSpec.autoSearch()
            for note in search.notes { printError("tiltkit map: --source auto: \(note)") }
            if let found = search.candidates.first?.spec {
                spec = .device(found)
            } else {
                // A trace played into a real virtual mouse would take over the user's pointer: only a dry run gets one.
                guard dryRun else {
                    printError("tiltkit map: no pad found that this user may open (`tiltkit doctor` says why); to try the mapper without one: tiltkit map --dry-run")
                    throw ExitCode.failure
                }
                printError("tiltkit map: no pad found that this user may open (`tiltkit doctor` says why); mapping the bundled trace")
            }
        }
        // A hid-recorder capture is a replay: left as recorded unless asked, as SourceSpec does.
        let live: Bool
        switch spec {
        case .device(.hidRecording): live = false
        case .device: live = true
        default: live = false
        }
        // The option wins; a live pad otherwise takes the profile's calibration, a trace none.
        let choice = gyro.choice ?? (live ? GyroCalibrationChoice(rawValue: profile.gyroCalibration.rawValue) : nil)
        // The source grabs its own evdev node: a grab from another file would starve it.
        let source = try spec.openSource(.init(speed: speed, gyroCalibration: choice, exclusive: !dryRun))
        let device: (kind: String, path: String)?
        switch spec {
        case .device(.evdev(let path, _)): device = ("evdev", path)
        case .device(.hidraw(let path, _)): device = ("hidraw", path)
        case .device(.joyConPair):
            // Both halves' gamepad nodes are read and grabbed beside their motion nodes.
            let pair = GyroCalibratedSource.unwrapped(source) as? JoyConPairSource
            device = pair.map { ("joycon-pair", $0.paths.compactMap { $0 }.joined(separator: "+")) }
        default: device = nil
        }
        let name = source.info.name
        return (source, name, device)
    }
}

/// One mapping run: the source and the pad's controls into the session, the profile watched, the
/// status printed, until stopped.
private struct MapRun {
    let name: String
    let source: any MotionSource
    let pad: PhysicalPad?
    let session: MapperSession
    let profilePath: String?
    let statusInterval: Double
    let duration: Double?
    let dryRun: Bool

    /// What the source's thread tells the main loop.
    private final class SourceState: @unchecked Sendable {
        private let lock = NSLock()
        private var ended = false
        private var padReturned = false
        var hasEnded: Bool { lock.lock(); defer { lock.unlock() }; return ended }
        func end() { lock.lock(); ended = true; lock.unlock() }
        func returned() { lock.lock(); padReturned = true; lock.unlock() }
        /// True once after each `.reconnected`.
        func takeReturned() -> Bool { lock.lock(); defer { padReturned = false; lock.unlock() }; return padReturned }
    }

    func run() throws {
        let interrupt = InterruptFlag()
        let state = SourceState()
        let target = dryRun ? "dry run: the events for \(VirtualMouse.name), \(VirtualGamepad.name) on stdout"
            : "\(VirtualMouse.name), \(VirtualGamepad.name)"
        printError("tiltkit map: \(name) → \(target)")
        _ = openPad(sayingNothingFound: true)
        let session = self.session
        let pad = self.pad
        let name = self.name
        try source.start { event in
            switch event {
            case .samples(let samples):
                session.feed(samples: samples)
            case .disconnected(let reason):
                printError("tiltkit map: \(reason); every virtual button released and the sticks centred, the virtual devices kept until the pad is back")
                pad?.close()
                session.releaseAll()
            case .reconnected:
                printError("tiltkit map: \(name) is back; mapping again")
                state.returned()
            case .ended:
                state.end()
            }
        }
        var watcher = profilePath.map { ProfileWatcher(path: $0) }
        let clock = MonotonicClock()
        let start = clock.now()
        let deadline = duration.map { start + $0 } ?? .infinity
        var last = (time: start, totals: session.totals)
        var nextStatus = statusInterval > 0 ? start + statusInterval : .infinity
        var nextProfileCheck = start + ProfileWatcher.interval
        var padSearchEnds: Double?
        var nextPadSearch = start
        var nextHalfCheck = start
        while !interrupt.isSet && !state.hasEnded && clock.now() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            let now = clock.now()
            // The driver makes the pad's evdev nodes around when its hidraw node returns: keep looking a while.
            if state.takeReturned() { padSearchEnds = now + MapRun.padSearchTime; nextPadSearch = now }
            if let ends = padSearchEnds, now >= nextPadSearch {
                nextPadSearch = now + 0.25
                if openPad(sayingNothingFound: now >= ends) || now >= ends { padSearchEnds = nil }
            }
            // A Joy-Con pair's half that is not the motion side came back: the source says nothing of it.
            if let pad, now >= nextHalfCheck {
                nextHalfCheck = now + 0.5
                if pad.missingHalfIsBack { _ = openPad(sayingNothingFound: true) }
            }
            if now >= nextProfileCheck, let path = profilePath {
                nextProfileCheck = now + ProfileWatcher.interval
                switch watcher?.check() {
                case .reloaded(let profile)?:
                    session.replace(profile: profile)
                    printError("tiltkit map: profile reloaded (\(path))")
                case .failed(let error)?:
                    printError("tiltkit map: \(error); keeping the last good profile")
                default: break
                }
            }
            if now >= nextStatus {
                let totals = session.totals
                printError(statusLine(totals, since: last.totals, seconds: now - last.time))
                last = (now, totals)
                nextStatus = now + statusInterval
            }
        }
        source.stop()
        pad?.close()
        session.releaseAll()
        let totals = session.totals
        var summary = String(format: "tiltkit map: mapped %.1f s: %d samples, %d control changes, %d mouse counts in %d events, %d pad events",
                             clock.now() - start, totals.samples, totals.controlChanges, totals.mouseCounts, totals.mouseEvents, totals.padEvents)
        if let failure = session.writeFailure { summary += "; \(totals.writeFailures) writes refused: \(failure)" }
        fflush(nil)  // the dry run's lines before the summary
        printError(summary)
    }

    /// Seconds to look for the pad's evdev nodes after it is back.
    static let padSearchTime = 5.0

    /// Finds, reads and (not in a dry run) grabs the pad's evdev nodes, and says what it took.
    /// False when no gamepad node was found (then silent unless `sayingNothingFound`).
    private func openPad(sayingNothingFound: Bool) -> Bool {
        guard let pad else {
            printError("tiltkit map: this source has no pad buttons or sticks: motion only, the virtual pad at rest")
            return true
        }
        let session = self.session
        let opened = pad.open { event in
            switch event {
            case .controls(let controls, _): session.feed(controls: controls)
            case .disconnected, .ended: session.feed(controls: .idle)
            }
        }
        guard opened.gamepad != nil || pad.controlsFromReports || sayingNothingFound else {
            pad.close()
            return false
        }
        var parts: [String] = []
        if pad.controlsFromReports {
            parts.append("buttons and sticks from the reports of \(pad.sourcePath)")
        } else if let gamepad = opened.gamepad { parts.append("buttons and sticks from \(gamepad)") } else { parts.append("no gamepad node found beside \(pad.sourcePath): motion only") }
        if !opened.grabbed.isEmpty { parts.append("grabbed \(opened.grabbed.joined(separator: ", "))") }
        if pad.grab && pad.sourceKind == "evdev" { parts.append("the motion node grabbed by the source") }
        printError("tiltkit map: " + parts.joined(separator: "; "))
        for problem in opened.problems { printError("tiltkit map: warning: \(problem)") }
        return opened.gamepad != nil || pad.controlsFromReports
    }

    private func statusLine(_ now: MapperSession.Counters, since before: MapperSession.Counters, seconds: Double) -> String {
        let dt = max(seconds, 1e-9)
        var line = String(format: "tiltkit map: %@: %.1f samples/s, gyro %@, %.0f mouse counts/s, %.1f pad events/s",
                          name, Double(now.samples - before.samples) / dt, session.gyroEnabled ? "on" : "off",
                          Double(now.mouseCounts - before.mouseCounts) / dt, Double(now.padEvents - before.padEvents) / dt)
        if now.writeFailures > before.writeFailures { line += ", \(now.writeFailures - before.writeFailures) writes refused" }
        return line
    }
}

/// Watches a profile file by its modification time and size (polled, about twice a second).
private struct ProfileWatcher {
    static let interval = 0.5

    enum Change {
        case reloaded(MapperProfile)
        case failed(MapperProfileError)
    }

    let path: String
    private var stamp: [FileAttributeKey: AnyHashable]

    init(path: String) {
        self.path = path
        stamp = Self.stamp(path)
    }

    mutating func check() -> Change? {
        let now = Self.stamp(path)
        guard now != stamp else { return nil }
        stamp = now
        do {
            return .reloaded(try MapperProfile.load(contentsOf: path))
        } catch {
            return .failed(error)
        }
    }

    private static func stamp(_ path: String) -> [FileAttributeKey: AnyHashable] {
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        var stamp: [FileAttributeKey: AnyHashable] = [:]
        for key in [FileAttributeKey.modificationDate, .size] { stamp[key] = attributes[key] as? AnyHashable }
        return stamp
    }
}
