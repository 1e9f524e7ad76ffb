import Motion

/// Turns a pad's input reports into Core Motion samples: parse, apply calibration, map axes,
/// timestamp. Pure and stateful (device clock, report statistics); the hidraw source and the
/// hid-recorder replay both drive it.
///
///     var decoder = GamepadReportDecoder(device: GamepadDevice(model: .dualShock4, bus: .usb))
///     try decoder.applyFeatureReport(calibrationBytes)
///     let samples = decoder.decode(report, hostTime: clock.now())
public struct GamepadReportDecoder: Sendable {
    public let device: GamepadDevice
    public private(set) var playStationCalibration = PlayStationCalibration.nominal
    public private(set) var switchCalibration = SwitchCalibration.nominal
    public var switchSampleOrder = SwitchReport.SampleOrder.firstIsOldest
    public private(set) var statistics = ReportStatistics()

    private var clock: DeviceClock?
    /// Host time that device time 0 corresponds to.
    private var anchor: Double?
    private var lastTimestamp: Double?
    /// Running estimate of the Nintendo report interval in seconds (nominally 15 ms).
    private var switchReportInterval = 0.015
    private var lastSwitchHostTime: Double?

    public init(device: GamepadDevice) {
        self.device = device
        switch device.model.family {
        case .dualShock4: clock = .dualShock4
        case .dualSense: clock = .dualSense
        case .nintendo: clock = nil
        }
    }

    /// Applies a DualShock 4 / DualSense calibration feature report.
    public mutating func applyFeatureReport(_ report: [UInt8]) throws(PlayStationCalibration.ParseError) {
        playStationCalibration = try PlayStationCalibration(featureReport: report, device: device)
    }

    public mutating func apply(_ calibration: SwitchCalibration) { switchCalibration = calibration }

    /// Forget timing after a reconnect: the pad's clock restarted.
    public mutating func resetTiming() {
        clock?.reset()
        anchor = nil
        lastTimestamp = nil
        lastSwitchHostTime = nil
    }

    /// Samples in the report (none, one, or three for Nintendo pads). `hostTime` is when it was
    /// read, in seconds on the source's clock.
    public mutating func decode(_ report: [UInt8], hostTime: Double) -> [MotionSample] {
        switch device.model.family {
        case .dualShock4:
            return finish(DualShock4Report.parse(report, bus: device.bus, isAdapter: device.model == .dualShock4Dongle)
                .map { [$0] }, hostTime: hostTime)
        case .dualSense:
            return finish(DualSenseReport.parse(report, bus: device.bus).map { [$0] }, hostTime: hostTime)
        case .nintendo:
            return finish(SwitchReport.parse(report, order: switchSampleOrder), hostTime: hostTime)
        }
    }

    private mutating func finish(_ result: Result<[RawIMUReading], ReportRejection>, hostTime: Double) -> [MotionSample] {
        switch result {
        case .failure(let rejection):
            statistics.count(rejection)
            return []
        case .success(let readings):
            statistics.decodedReports += 1
            statistics.samples += readings.count
            let times = timestamps(for: readings, hostTime: hostTime)
            return zip(readings, times).map { sample($0, timestamp: $1) }
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
        }
        return MotionSample(timestamp: timestamp,
                            acceleration: CoreMotionFrame.accelerationFromPlayStation(g: accel),
                            rotationRate: CoreMotionFrame.fromPlayStation(gyro))
    }

    /// Device-clock timestamps anchored to host time; Nintendo samples spread over the measured
    /// report interval, oldest first.
    private mutating func timestamps(for readings: [RawIMUReading], hostTime: Double) -> [Double] {
        if var clock, let ticks = readings.first?.deviceTicks {
            let deviceTime = clock.seconds(ticks: ticks)
            self.clock = clock
            // Re-anchor when host and device disagree by more than half a counter period: the
            // counter wrapped unseen during a gap (or the pad restarted), so trust the host.
            if anchor == nil || abs(hostTime - (anchor! + deviceTime)) > clock.wrapPeriod / 2 {
                anchor = hostTime - deviceTime
            }
            var t = anchor! + deviceTime
            if let last = lastTimestamp, t <= last { t = last + 1e-6 }
            lastTimestamp = t
            return [t]
        }
        if let last = lastSwitchHostTime {
            let interval = hostTime - last
            // Smooth over ~300 reports like hid-nintendo; ignore gaps (reconnects, stalls).
            if interval > 0 && interval < 0.1 { switchReportInterval += (interval - switchReportInterval) / 300 }
        }
        lastSwitchHostTime = hostTime
        let step = switchReportInterval / Double(readings.count)
        var times = readings.indices.map { hostTime - Double(readings.count - 1 - $0) * step }
        if let last = lastTimestamp, times[0] <= last {
            let shift = last + 1e-6 - times[0]
            times = times.map { $0 + shift }
        }
        lastTimestamp = times.last
        return times
    }
}
