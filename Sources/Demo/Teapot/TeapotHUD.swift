import Engine
import Foundation
import Motion
import MotionDevices

/// The teapot demo's head-up display: status text, the acceleration graph and the help overlay.
/// The text is built by pure functions (`statusLines`), drawn by `draw`.
public enum TeapotHUD {
    /// What the HUD shows besides the state: facts from the loop and the source.
    public struct Facts: Sendable {
        public var sourceName: String
        /// Source's nominal sample rate, Hz, where known.
        public var sampleRate: Double?
        /// The rate samples actually arrive at, Hz, once measured.
        public var measuredRate: Double?
        /// The source's report statistics, for sources that keep them (hidraw).
        public var diagnostics: String?
        /// The gyro calibration in use; nil when the gyro is used as delivered.
        public var gyroCalibration: GyroCalibration?
        public var connection: MotionConnectionState
        /// Mean recent frame time, seconds.
        public var frameTime: Double
        public var vsync: Bool
        /// The compass, for sources with a magnetometer.
        public var compass: CompassHUD.Facts?

        public init(sourceName: String, sampleRate: Double?, measuredRate: Double? = nil, diagnostics: String? = nil,
                    gyroCalibration: GyroCalibration? = nil, connection: MotionConnectionState, frameTime: Double, vsync: Bool,
                    compass: CompassHUD.Facts? = nil) {
        self.compass = compass
            self.sourceName = sourceName
            self.sampleRate = sampleRate
            self.measuredRate = measuredRate
            self.diagnostics = diagnostics
            self.gyroCalibration = gyroCalibration
            self.connection = connection
            self.frameTime = frameTime
            self.vsync = vsync
        }
    }

    /// The status panel, one string per line (ASCII only: the font has no degree sign).
    public static func statusLines(_ state: TeapotState, _ facts: Facts) -> [String] {
        let a = state.attitude
        func deg(_ radians: Double) -> String { String(format: "%+7.1f", radians * 180 / .pi) }
        var lines = [
            "mode   \(state.modeTitle)" + (state.paused ? "  [PAUSED]" : ""),
            "pivot  \(state.pivot.title)",
            "source \(facts.sourceName)" + rateNote(nominal: facts.sampleRate, measured: facts.measuredRate),
        ]
        if state.compare {
            let f = state.comparison.fusionAttitude, o = state.comparison.accelerometerOnlyAttitude
            lines.append("fusion  roll \(deg(f.roll))  pitch \(deg(f.pitch))  yaw \(deg(f.yaw))")
            lines.append("accel   roll \(deg(o.roll))  pitch \(deg(o.pitch))  yaw    none")
        } else {
            lines.append("roll \(deg(a.roll))  pitch \(deg(a.pitch))  yaw \(deg(a.yaw))  deg")
        }
        if let diagnostics = facts.diagnostics { lines.append("reports \(diagnostics)") }
        lines.append(GyroCalibrationHUD.line(facts.gyroCalibration))
        if let compass = facts.compass { lines.append(CompassHUD.line(compass)) }
        if let notice = state.notice { lines.append("! \(notice)") }
        if state.usesAccelerometerOnly || state.compare {
            lines.append(String(format: "gravity filter %.2f Hz  (+/-)", state.gravityCutoff))
        }
        if state.mode == .translation && state.compare {
            let f = state.comparison.fusionSpring.offset, o = state.comparison.accelerometerOnlySpring.offset
            lines.append(String(format: "offset fusion %+.2f %+.2f %+.2f  accel %+.2f %+.2f %+.2f", f.x, f.y, f.z, o.x, o.y, o.z))
        } else if state.mode == .translation {
            let o = state.spring.offset
            lines.append(String(format: "offset %+.2f %+.2f %+.2f", o.x, o.y, o.z))
        }
        let fps = facts.frameTime > 0 ? 1 / facts.frameTime : 0
        lines.append(String(format: "frame %.1f ms (%.0f fps)  vsync %@", facts.frameTime * 1000, fps,
                            facts.vsync ? "on" : "off"))
        let age = state.sampleAge.map { String(format: "%.1f ms", $0 * 1000) } ?? "no sample yet"
        lines.append("sample age \(age)" + connectionNote(facts.connection))
        lines.append("H / F1: help")
        return lines
    }

    /// " @ 100 Hz, measured 98.7 Hz": what the source was asked for and what it delivers.
    static func rateNote(nominal: Double?, measured: Double?) -> String {
        var parts: [String] = []
        if let nominal { parts.append(String(format: "@ %.0f Hz", nominal)) }
        if let measured { parts.append(String(format: "measured %.1f Hz", measured)) }
        return parts.isEmpty ? "" : " " + parts.joined(separator: ", ")
    }

    private static func connectionNote(_ state: MotionConnectionState) -> String {
        switch state {
        case .running, .stopped: return ""
        case .ended: return "  (source ended)"
        case .disconnected(let reason): return "  DISCONNECTED: \(reason)"
        case .failed(let reason): return "  FAILED: \(reason)"
        }
    }

    /// Draws the panel top left, the graph bottom left and, when asked, the help in the centre.
    public static func draw(_ state: TeapotState, _ facts: Facts, overlay: Overlay, size: PixelSize) {
        // Whole multiples of the 8-pixel font keep the glyphs crisp.
        let scale: Float = size.width >= 1600 ? 2 : 1
        let lines = statusLines(state, facts)
        let text = lines.joined(separator: "\n")
        let box = Overlay.measure(text, scale: scale)
        overlay.rect(x: 8, y: 8, width: box.width + 16, height: box.height + 12, color: Color(0, 0, 0, 0.55))
        overlay.text(text, x: 16, y: 14, scale: scale)

        if state.compare {
            TeapotComparisonHUD.draw(state, overlay: overlay, size: size, scale: scale)
        } else {
            drawGraph(state, overlay: overlay, size: size, scale: scale)
        }
        CompassHUD.drawPrompt(facts.compass, overlay: overlay, size: size, scale: scale)
        if state.showHelp { drawHelp(overlay: overlay, size: size, scale: scale) }
    }

    /// AccelerometerGraph style: raw acceleration, fused gravity and user acceleration on one axis.
    private static func drawGraph(_ state: TeapotState, overlay: Overlay, size: PixelSize, scale: Float) {
        let width = min(Float(size.width) * 0.42, 520), height = Float(size.height) * 0.2
        let plot = GraphPlot(x: 8, y: Float(size.height) - height - 12 - 10 * scale, width: width, height: height,
                             range: -1.5...1.5)
        let series = state.graphSeries
        // Raw last and thin: at rest it equals gravity, so gravity is drawn wide beneath it.
        plot.draw(series: [GraphSeries(series.gravity, color: Color(1, 0.8, 0.2), width: 4),
                           GraphSeries(series.user, color: Color(0.3, 0.85, 1), width: 2),
                           GraphSeries(series.raw, color: Color(0.95, 0.95, 0.95), width: 1)],
                  capacity: TeapotState.graphCapacity, on: overlay)
        let axis = ["x", "y", "z"][state.graphAxis]
        let legend = [("\(axis): raw", Color(0.95, 0.95, 0.95)), ("gravity", Color(1, 0.8, 0.2)), ("user (g)", Color(0.3, 0.85, 1))]
        var x = plot.x
        let y = plot.y + plot.height + 3
        for (label, color) in legend {
            overlay.text(label, x: x, y: y, scale: scale, color: color)
            x += Overlay.measure(label + "  ", scale: scale).width
        }
    }

    private static func drawHelp(overlay: Overlay, size: PixelSize, scale: Float) {
        let text = (["Keys"] + TeapotCommand.keyMap.map(\.label)).joined(separator: "\n")
        let box = Overlay.measure(text, scale: scale)
        let x = (Float(size.width) - box.width) / 2, y = (Float(size.height) - box.height) / 2
        overlay.rect(x: x - 16, y: y - 12, width: box.width + 32, height: box.height + 24, color: Color(0.05, 0.05, 0.1, 0.85))
        overlay.text(text, x: x, y: y, scale: scale, color: Color(1, 0.95, 0.8))
    }
}
