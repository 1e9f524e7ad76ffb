import Motion

/// Turns a pad's input reports into Core Motion samples: parse, apply calibration, map axes,
/// timestamp. Pure and stateful (device clock, report statistics); the hidraw source and the
/// hid-recorder replay both drive it.
///
///     var decoder = GamepadReportDecoder(device: GamepadDevice(model: .dualShock4, bus: .usb))
///     try decoder.applyFeatureReport(calibrationBytes)
///     let samples = decoder.decode(report, hostTime: clock.now())
///
/// A live source passes `settlingWindow` (`SensorTimestamper.settlingWindow`): after an open the
/// first samples of a pad with a clock are held until its latency is known, so `decode` may return
/// fewer samples than the reports carry, later more; `flush()` hands over what is held.
public struct GamepadReportDecoder: Sendable {
    public let device: GamepadDevice
    public private(set) var playStationCalibration = PlayStationCalibration.nominal
    public private(set) var switchCalibration = SwitchCalibration.nominal
    public var switchSampleOrder = SwitchReport.SampleOrder.firstIsOldest
    public private(set) var statistics = ReportStatistics()

    private var stamper: SensorTimestamper
    /// Readings the stamper holds while it settles, oldest first.
    private var held: [RawIMUReading] = []
    /// Running estimate of the report interval in seconds, for pads without a sensor clock
    /// (Nintendo: nominally 15 ms; Steam pads: their nominal rate).
    private var reportInterval: Double
    private var lastArrivalHostTime: Double?
    /// Intervals measured so far (up to the smoothing length).
    private var measuredIntervals = 0

    /// `settlingWindow`: seconds to hold the first samples after an open (`SensorTimestamper`).
    public init(device: GamepadDevice, settlingWindow: Double = 0) {
        self.device = device
        switch device.model.family {
        case .dualShock4: stamper = SensorTimestamper(clock: .dualShock4, settlingWindow: settlingWindow)
        case .dualSense: stamper = SensorTimestamper(clock: .dualSense, settlingWindow: settlingWindow)
        case .nintendo, .steam: stamper = SensorTimestamper(clock: nil)
        }
        reportInterval = device.model.family == .nintendo ? 0.015 : 1 / device.nominalRate
    }

    /// What happened to the pad's sensor clock: samples stamped on arrival, resynchronisations.
    public var clockStatistics: SensorTimestamper.Statistics { stamper.statistics }

    /// Applies a DualShock 4 / DualSense calibration feature report.
    public mutating func applyFeatureReport(_ report: [UInt8]) throws(PlayStationCalibration.ParseError) {
        playStationCalibration = try PlayStationCalibration(featureReport: report, device: device)
    }

    public mutating func apply(_ calibration: SwitchCalibration) { switchCalibration = calibration }

    /// Forget timing after a reconnect: the pad's clock restarted. Held samples are dropped:
    /// `flush()` first.
    public mutating func resetTiming() {
        stamper.reset()
        held.removeAll()
        lastArrivalHostTime = nil
    }

    /// The samples held while the stamper settles, stamped now (the pad went away or went quiet).
    public mutating func flush() -> [MotionSample] {
        let times = stamper.flush()
        return release(times)
    }

    /// The oldest held readings, one per stamp, as samples.
    private mutating func release(_ times: [Double]) -> [MotionSample] {
        let samples = zip(held, times).map { sample($0, timestamp: $1) }
        held.removeFirst(times.count)
        return samples
    }

    /// Samples in the report (none, one, or three for Nintendo pads). `hostTime` is when it was
    /// read, in seconds on the source's clock.
    public mutating func decode(_ report: [UInt8], hostTime: Double) -> [MotionSample] {
        decode(batch: [report], hostTime: hostTime)
    }

    /// Samples in reports read together at `hostTime` (a backlog drained at once), oldest first:
    /// stamped as a batch, so they keep the pad's spacing rather than bunch at the read.
    public mutating func decode(batch reports: [[UInt8]], hostTime: Double) -> [MotionSample] {
        let readings = reports.map(parse).compactMap { result -> [RawIMUReading]? in
            switch result {
            case .failure(let rejection): statistics.count(rejection); return nil
            case .success(let readings):
                statistics.decodedReports += 1
                statistics.samples += readings.count
                return readings
            }
        }
        guard !readings.isEmpty else { return [] }
        let ticks = readings.compactMap { $0.first?.deviceTicks }
        guard ticks.count == readings.count else {
            // No counter in these reports: whatever is held goes first, then these on arrival.
            let flushed = flush()
            let times = timestamps(for: readings, hostTime: hostTime)
            return flushed + zip(readings.joined(), times).map { sample($0, timestamp: $1) }
        }
        // One reading per report on pads with a counter (DualShock 4, DualSense).
        held += readings.joined()
        defer { statistics.clock = stamper.statistics }
        return release(stamper.timestamps(ticks: ticks, hostTime: hostTime))
    }

    private func parse(_ report: [UInt8]) -> Result<[RawIMUReading], ReportRejection> {
        switch device.model.family {
        case .dualShock4:
            DualShock4Report.parse(report, bus: device.bus, isAdapter: device.model == .dualShock4Dongle).map { [$0] }
        case .dualSense: DualSenseReport.parse(report, bus: device.bus).map { [$0] }
        case .nintendo: SwitchReport.parse(report, order: switchSampleOrder)
        case .steam: SteamReport.parse(report, layout: device.model == .steamDeck ? .deck : .controller).map { [$0] }
        }
    }

    /// The reading in Core Motion's frame and units.
    public func sample(_ reading: RawIMUReading, timestamp: Double) -> MotionSample {
        let gyro: Vector3, accel: Vector3
        switch device.model {
        case .dualShock4, .dualShock4Dongle, .dualSense, .dualSenseEdge:
            gyro = playStationCalibration.rotationRate(reading.gyro)
            accel = playStationCalibration.acceleration(reading.accel)
        case .switchPro, .joyConLeft:
            gyro = CoreMotionFrame.playStationFromNintendo(switchCalibration.rotationRate(reading.gyro))
            accel = CoreMotionFrame.playStationFromNintendo(switchCalibration.acceleration(reading.accel))
        case .joyConRight:
            // The right Joy-Con's IMU is mounted mirrored: SDL negates x and y after the remap.
            func mirrored(_ v: Vector3) -> Vector3 { let p = CoreMotionFrame.playStationFromNintendo(v); return Vector3(-p.x, -p.y, p.z) }
            gyro = mirrored(switchCalibration.rotationRate(reading.gyro))
            accel = mirrored(switchCalibration.acceleration(reading.accel))
        case .steamDeck:
            // hid-steam's Deck IMU node and SDL's Steam Deck driver: PlayStation (x, y, z) = (x, z, −y)
            // for both sensors.
            let g = Self.steamRotationRate(reading.gyro), a = Self.steamAcceleration(reading.accel)
            gyro = Vector3(g.x, g.z, -g.y)
            accel = Vector3(a.x, a.z, -a.y)
        case .steamController, .steamControllerDongle:
            // SDL's Steam Controller driver, since its gyro support: the gyro as (x, z, y), the
            // accelerometer as (x, z, −y).
            let g = Self.steamRotationRate(reading.gyro), a = Self.steamAcceleration(reading.accel)
            gyro = Vector3(g.x, g.z, g.y)
            accel = Vector3(a.x, a.z, -a.y)
        }
        return MotionSample(timestamp: timestamp,
                            acceleration: CoreMotionFrame.accelerationFromPlayStation(g: accel),
                            rotationRate: CoreMotionFrame.fromPlayStation(gyro))
    }

    /// Valve's nominal scale, in rad/s, pad axes (`SteamReport`).
    static func steamRotationRate(_ raw: SIMD3<Int32>) -> Vector3 {
        let radiansPerCount = Double.pi / 180 / SteamReport.gyroCountsPerDegreePerSecond
        return Vector3(Double(raw.x), Double(raw.y), Double(raw.z)) * radiansPerCount
    }

    /// Valve's nominal scale, in g with the reaction sign, pad axes (`SteamReport`).
    static func steamAcceleration(_ raw: SIMD3<Int32>) -> Vector3 {
        Vector3(Double(raw.x), Double(raw.y), Double(raw.z)) * (1 / SteamReport.accelCountsPerG)
    }

    /// For pads without a clock (Nintendo, Steam): a report's samples spread over the measured
    /// report interval, oldest first, a batch's reports one interval apart before its arrival.
    private mutating func timestamps(for reports: [[RawIMUReading]], hostTime: Double) -> [Double] {
        if let last = lastArrivalHostTime {
            let interval = (hostTime - last) / Double(reports.count)
            // The mean of the intervals so far, then smoothed over ~300 reports like hid-nintendo, so a
            // pad slower than its nominal rate is spaced right within a few reports, not seconds;
            // gaps (reconnects, stalls) ignored.
            if interval > 0 && interval < 0.1 {
                measuredIntervals = min(measuredIntervals + 1, 300)
                reportInterval += (interval - reportInterval) / Double(measuredIntervals)
            }
        }
        lastArrivalHostTime = hostTime
        return reports.enumerated().flatMap { index, readings in
            stamper.arrivalTimestamps(count: readings.count, interval: reportInterval,
                                      hostTime: hostTime - Double(reports.count - 1 - index) * reportInterval)
        }
    }
}
