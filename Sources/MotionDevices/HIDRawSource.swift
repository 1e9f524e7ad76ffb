import Foundation
import Motion

/// A gyro gamepad read straight from `/dev/hidrawN` (or a FIFO / file of its reports).
///
///     let pad = try HIDRawSource(path: "/dev/hidraw3")
///     try pad.start { event in … }      // samples in Core Motion's frame, g and rad/s
///
/// Opening identifies the pad (HIDIOCGRAWINFO; or `device` for nodes without ioctls; or a
/// guess from the first reports), reads its factory calibration (feature report or SPI flash)
/// and then reads input reports on its own thread, polling with a short timeout so `stop()` is
/// prompt. Unplugging delivers `.disconnected`; the same pad reappearing (matched by uniq, else
/// vendor/product, via sysfs) delivers `.reconnected` and samples resume. Reports that cannot be
/// decoded are counted in `statistics`, never fatal.
public final class HIDRawSource: DiagnosableMotionSource, @unchecked Sendable {
    public struct Options: Sendable {
        /// The pad, for nodes that cannot say (FIFOs, files); nil = from ioctls or reports.
        public var device: GamepadDevice?
        public var switchSampleOrder = SwitchReport.SampleOrder.firstIsOldest
        /// Read timeout: the longest `stop()` waits, seconds.
        public var pollTimeout = 0.1
        /// How often to look for the pad after it went away, seconds.
        public var reconnectInterval = 0.5
        public var sysfsRoot = "/sys"
        public var devRoot = "/dev"
        public var calls = SystemCalls.live
        public var clock: any MotionClock = MonotonicClock()

        public init(device: GamepadDevice? = nil) { self.device = device }
    }

    public let path: String
    /// Guarded by `lock`: the pad may be identified (and renamed) on the delivery thread.
    private var currentInfo: MotionSourceInfo
    private let options: Options
    private let lock = NSLock()
    private var reader: ReportReader
    private var identity: HIDRawIdentity?
    private var decoder: GamepadReportDecoder?
    private var thread: SourceThread?
    private var unidentifiedReports = 0
    /// Consecutive reports whose IMU read zero; set back when motion arrives.
    private var reportsWithMotionOff = 0
    /// Motion came back after the notice that it was off: `.reconnected` is due.
    private var motionReturned = false
    /// The wireless adapter said its controller left, and no sample has come since.
    private var controllerLeftAdapter = false
    private var observer: (@Sendable ([UInt8]) -> Void)?

    public convenience init(path: String, options: Options = Options()) throws(DeviceError) {
        try self.init(reader: HIDRawDevice(path: path, calls: options.calls), path: path, options: options)
    }

    /// A source over any `ReportReader` (tests feed recorded reports through one).
    public init(reader: ReportReader, path: String, options: Options = Options()) throws(DeviceError) {
        self.path = path
        self.options = options
        self.reader = reader
        identity = reader.identity()
        currentInfo = MotionSourceInfo(name: path, kind: "hidraw", sensors: [.accelerometer, .gyroscope])
        if let identity, identity.device == nil, options.device == nil {
            reader.close()
            throw .unsupported(path: path, reason: String(format:
                "%@ (%04x:%04x) is not a supported gyro pad (DualShock 4, DualSense, Switch Pro, Joy-Con, Steam Deck, Steam Controller)",
                identity.name, identity.vendorID, identity.productID))
        }
        if let device = options.device ?? identity?.device { try setUp(device) }
    }

    public var info: MotionSourceInfo {
        lock.lock(); defer { lock.unlock() }
        return currentInfo
    }

    public var diagnostics: String { statistics.description }

    /// What happened to the reports so far.
    public var statistics: ReportStatistics {
        lock.lock(); defer { lock.unlock() }
        return decoder?.statistics ?? ReportStatistics()
    }

    /// The pad being read, once identified (from the node, the `device` option or its reports).
    public var device: GamepadDevice? {
        lock.lock(); defer { lock.unlock() }
        return decoder?.device
    }

    /// True when samples are stamped by the pad's own sensor clock (DualShock 4, DualSense);
    /// false for Nintendo pads, whose three samples per report are spread over its arrival, and
    /// Steam pads, stamped on arrival.
    public var stampsFromPadClock: Bool {
        lock.lock(); defer { lock.unlock() }
        return decoder.map { $0.device.model.family == .dualShock4 || $0.device.model.family == .dualSense } ?? false
    }

    private func setUp(_ device: GamepadDevice) throws(DeviceError) {
        var decoder = GamepadReportDecoder(device: device, settlingWindow: SensorTimestamper.settlingWindow)
        decoder.switchSampleOrder = options.switchSampleOrder
        var calibrationNote = "nominal scale"
        var nominalRate = device.nominalRate
        switch device.model.family {
        case .dualShock4, .dualSense:
            if let (id, length) = PlayStationCalibration.featureReport(for: device),
               // On Bluetooth this read also switches a DualShock 4 into full (0x11) reports.
               let report = try reader.featureReport(id: id, length: length) {
                do { try decoder.applyFeatureReport(report); calibrationNote = "factory calibration" }
                catch { calibrationNote = "nominal scale: \(error)" }
            }
        case .nintendo:
            // Without hid-nintendo nobody has started the pad's full reports and IMU yet.
            let mode = SwitchReportMode.ensureFullReports(reader, bus: device.bus)
            // Nodes that take no output reports (FIFOs, files) answer nothing: nominal scale.
            let calibration = SwitchSPIReader.readCalibration(from: reader)
            decoder.apply(calibration)
            calibrationNote = "\(calibration.origin) calibration" + (mode == .started ? ", full reports started" : "")
        case .steam:
            calibrationNote = "nominal scale (no calibration in the reports)"
            if device.model != .steamDeck {
                // The controller sends no IMU data until asked (SDL does the same when an app
                // enables its sensors); the Deck sends it unless Steam switched it off.
                if let interval = SteamControllerSettings.reportInterval(reader) { nominalRate = 1e6 / Double(interval) }
                if SteamControllerSettings.enableMotion(reader) { calibrationNote += ", motion reports turned on" }
            }
        }
        self.decoder = decoder
        let node = (path as NSString).lastPathComponent
        let name = identity.map { "\($0.name) (\(node))" } ?? "\(device) (\(path))"
        currentInfo = MotionSourceInfo(name: "\(name), \(calibrationNote)", kind: "hidraw",
                                sensors: [.accelerometer, .gyroscope], nominalRate: nominalRate)
        if let stream = reader as? HIDRawDevice, !stream.isCharacterDevice, device.model.family == .nintendo {
            // Nintendo reports are 49 bytes over Bluetooth, 64 over USB; 0x31 is not a DualSense here.
            let length = device.bus == .bluetooth ? 49 : 64
            stream.reportLength = { id in (0x30...0x33).contains(id) || id == 0x21 ? length : nil }
        }
    }

    /// Called on the source's thread with every report read, before the samples decoded from it are
    /// delivered: `tiltkit map` takes a Steam pad's buttons and sticks from the reports its motion
    /// comes from, one read for both. Set before `start`.
    public var reportObserver: (@Sendable ([UInt8]) -> Void)? {
        get { lock.lock(); defer { lock.unlock() }; return observer }
        set { lock.lock(); observer = newValue; lock.unlock() }
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil else { return }
        thread = SourceThread(name: "hidraw \(path)") { [self] thread in run(thread, deliver) }
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
    }

    deinit { reader.close() }

    /// Where the reader is with the node's queue of reports.
    private enum QueueState {
        /// Just opened: reading what queued meanwhile, without waiting.
        case draining
        /// The queue's reports may have waited there for any time (since the node was opened: the
        /// calibration read after a replug, an app that starts a pad long after opening it; or in a
        /// full queue, which keeps its oldest reports and drops newer ones): they wait for the next
        /// report, which is read as it arrives, and are stamped back from it by the pad's clock.
        case awaitingFreshReport
        /// Reports are read as they arrive; any queued behind one are read with it.
        case live
    }

    private func run(_ thread: SourceThread, _ deliver: @Sendable (MotionSourceEvent) -> Void) {
        var awaitingReconnect = false
        var state = QueueState.draining
        // Reports read together are decoded and stamped together, from the newest.
        var batch: [[UInt8]] = []
        let observe = reportObserver
        func flush() {
            guard !batch.isEmpty else { return }
            if let observe { for report in batch { observe(report) } }
            let (samples, notice) = decode(batch)
            batch.removeAll(keepingCapacity: true)
            if let notice { deliver(.disconnected(reason: notice)) }
            if motionReturned { motionReturned = false; deliver(.reconnected) }
            if !samples.isEmpty { deliver(.samples(samples)) }
        }
        // Samples the decoder holds while the pad's timestamps settle after an open, handed over
        // when the pad goes quiet, goes away or the source stops.
        func release() {
            let samples = lock.withLock { decoder?.flush() ?? [] }
            if !samples.isEmpty { deliver(.samples(samples)) }
        }
        while !thread.isStopping {
            do {
                let waits = state == .awaitingFreshReport || (state == .live && batch.isEmpty)
                switch try reader.nextReport(timeout: waits ? options.pollTimeout : 0) {
                case .endOfStream: flush(); release(); deliver(.ended); return
                case .timeout:
                    switch state {
                    case .draining: state = .awaitingFreshReport; continue
                    case .awaitingFreshReport: state = .live  // the pad sent nothing more: stamped as read
                    case .live: break
                    }
                    if waits { flush(); release(); continue }  // nothing came for a poll timeout
                case .report(let report):
                    if awaitingReconnect { awaitingReconnect = false; deliver(.reconnected) }
                    batch.append(report)
                    if state == .awaitingFreshReport { state = .live; continue }  // then what queued behind it
                    if batch.count < Self.hidrawQueueLength { continue }
                    // A full queue has dropped newer reports; past a fresh report, a file or FIFO streams on.
                    if batch.count == Self.hidrawQueueLength { state = .awaitingFreshReport; continue }
                }
                flush()
            } catch let error {
                flush()
                release()
                // Close first: a FIFO's next writer must not find this reader still open.
                lock.lock(); reader.close(); lock.unlock()
                deliver(.disconnected(reason: error.description))
                guard case .disconnected = error else { return }
                guard waitForReturn(thread) else { return }
                awaitingReconnect = true
                state = .draining
            }
        }
        flush()  // what was read before the stop
        release()
    }

    /// The most reports a hidraw node queues for a reader (drivers/hid/hidraw.c, HIDRAW_BUFFER_SIZE;
    /// when it is full, hidraw_report_event skips the reader: newer reports are dropped).
    static let hidrawQueueLength = 64

    /// Samples in `reports` (read together), identifying the pad from the first if needed;
    /// `notice` is a message for the consumer (delivered by the caller, outside the lock).
    private func decode(_ reports: [[UInt8]]) -> (samples: [MotionSample], notice: String?) {
        lock.lock(); defer { lock.unlock() }
        if decoder == nil {
            guard let guess = reports.lazy.compactMap(GamepadDevice.init(guessingFrom:)).first else {
                let before = unidentifiedReports
                unidentifiedReports += reports.count
                let notice = before < Self.reportsBeforeGivingUpOnGuessing && unidentifiedReports >= Self.reportsBeforeGivingUpOnGuessing
                    ? "\(path): cannot tell which pad sends these reports; name it, e.g. hidraw:\(path),device=ds4-usb" : nil
                return ([], notice)
            }
            try? setUp(guess)
            currentInfo.name += " (identified from its reports)"
        }
        let connectionNotice = decoder!.device.model == .steamControllerDongle ? followAdapterConnection(reports) : nil
        let offBefore = decoder!.statistics.motionSensorsOff
        let samples = decoder!.decode(batch: reports, hostTime: options.clock.now())
        return (samples, connectionNotice ?? motionSensorsNotice(offBefore: offBefore, samples: samples))
    }

    /// The wireless adapter's node stays while its controller comes and goes: a controller that
    /// connects gets its motion turned on again (its IMU starts off, as at power-on; hid-steam's
    /// connection event), one that leaves is said once, and its first motion back (in a report after
    /// the leaving: a batch may hold reports from before it) is `.reconnected`.
    private func followAdapterConnection(_ reports: [[UInt8]]) -> String? {
        var notice: String?
        var afterLeaving = reports.startIndex
        for (index, report) in reports.enumerated() {
            guard let connected = SteamControllerSettings.controllerConnection(report) else { continue }
            if connected {
                SteamControllerSettings.enableMotion(reader)
            } else {
                afterLeaving = index + 1
                if !controllerLeftAdapter { notice = "\(path): the Steam Controller left its wireless adapter (switched off or out of range)" }
                controllerLeftAdapter = true
            }
        }
        if controllerLeftAdapter, reports[afterLeaving...].contains(where: { (try? SteamReport.parse($0, layout: .controller).get()) != nil }) {
            controllerLeftAdapter = false
            motionReturned = true
        }
        return notice
    }

    /// Said once when a pad's reports have carried zeros for `reportsBeforeSayingMotionIsOff`
    /// reports in a row (its IMU is off: zeros are not served as motion), and again, as "back",
    /// when motion returns.
    private func motionSensorsNotice(offBefore: Int, samples: [MotionSample]) -> String? {
        // A batch's zero reports are taken to come before its samples: a burst read as the IMU
        // comes back is told off, then back.
        let before = reportsWithMotionOff
        reportsWithMotionOff += decoder!.statistics.motionSensorsOff - offBefore
        let threshold = Self.reportsBeforeSayingMotionIsOff
        var notice: String?
        if before < threshold, reportsWithMotionOff >= threshold, let model = decoder?.device.model {
            notice = "\(path): \(model.displayName) reports carry no motion (its IMU is off): " + Self.motionOffFix(model)
        }
        if !samples.isEmpty {
            if reportsWithMotionOff >= threshold { motionReturned = true }
            reportsWithMotionOff = 0
        }
        return notice
    }

    /// What to change when a pad's IMU is off.
    static func motionOffFix(_ model: GamepadModel) -> String {
        switch model {
        case .steamDeck:
            // Steam switches the Deck's IMU off while the controller layout in use has no gyro
            // behaviour (steam-for-linux and SteamDeckGyroDSU reports).
            return "Steam turns it off while the controller layout's Gyro Behavior is None; "
                + "in Steam's controller settings give the gyro any behaviour (or quit Steam)"
        default:
            return "it did not take the IMU-mode setting tiltkit sends at open; "
                + "close Steam or any other program holding the controller, then replug it"
        }
    }

    /// Zero-motion reports tolerated before telling the user (½ s of a Steam Deck's stream).
    static let reportsBeforeSayingMotionIsOff = 125

    /// Unidentifiable reports tolerated before telling the user (≈ ¼ s of a pad's stream).
    static let reportsBeforeGivingUpOnGuessing = 64

    /// Polls until the same pad is back (a new hidraw node with the same identity, or the same
    /// path for FIFOs and files). False if stopped meanwhile.
    private func waitForReturn(_ thread: SourceThread) -> Bool {
        while thread.pause(options.reconnectInterval) {
            guard let candidate = reopenCandidate(), let device = try? HIDRawDevice(path: candidate, calls: options.calls)
            else { continue }
            if let identity, device.identity().map({ $0.vendorID == identity.vendorID && $0.productID == identity.productID }) != true {
                device.close(); continue
            }
            lock.lock()
            reader = device
            if let d = decoder?.device { try? setUp(d) }
            decoder?.resetTiming()
            lock.unlock()
            return true
        }
        return false
    }

    private func reopenCandidate() -> String? {
        guard let identity else { return FileManager.default.fileExists(atPath: path) ? path : nil }
        let wanted = HIDRawNode(name: "", devicePath: path, uevent: String(format: "HID_ID=%04X:%08X:%08X\nHID_UNIQ=%@",
            identity.bus == .bluetooth ? 5 : 3, identity.vendorID, identity.productID, identity.uniq))
        return HIDRawNode.scan(sysfsRoot: options.sysfsRoot, devRoot: options.devRoot)
            .first { $0.isMotionInterface && (wanted.map($0.isSameDevice(as:)) ?? false) }?.devicePath
    }
}
