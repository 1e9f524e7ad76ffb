#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr, drawn only when stderr is a terminal so logs and pipes
/// stay clean. Redraws at most every 1% to keep its own cost out of the figures.
///
///     let bar = ProgressBar(total: 5, label: "pull")
///     bar.advance("1 kHz")   // "[#####               ]  20% pull: 1 kHz"
///     bar.finish()
public final class ProgressBar {
    public let total: Int
    public let label: String
    public private(set) var done = 0
    private let isEnabled: Bool
    private var lastDrawnPercent = -1
    private var fractionOverride: Double?

    public init(total: Int, label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = Swift.max(1, total)
        self.label = label
        self.isEnabled = enabled
    }

    /// Marks one more step done; `step` names what runs next.
    public func advance(_ step: String = "") {
        done = Swift.min(total, done + 1)
        fractionOverride = nil
        draw(step)
    }

    /// Jumps to a fraction 0...1 of the work (for benches that know their share, not a step count).
    public func set(_ fraction: Double, _ step: String) {
        done = Int((Swift.max(0, Swift.min(1, fraction)) * Double(total)).rounded(.down))
        fractionOverride = fraction
        draw(step, force: true)
    }

    /// Names the step now running without advancing.
    public func show(_ step: String) { draw(step, force: true) }

    /// Clears the line so the table prints on a clean terminal.
    public func finish() {
        guard isEnabled else { return }
        write("\r\u{1B}[2K")
    }

    /// The bar for a fraction 0...1, `width` cells wide; pure, for tests.
    public static func render(fraction: Double, width: Int, label: String) -> String {
        let f = Swift.max(0, Swift.min(1, fraction.isFinite ? fraction : 0))
        let filled = Int((f * Double(width)).rounded(.down))
        let percent = Int((f * 100).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let number = String(percent)
        return "[" + bar + "] " + String(repeating: " ", count: 3 - Swift.min(3, number.count)) + number + "% " + label
    }

    private func draw(_ step: String, force: Bool = false) {
        guard isEnabled else { return }
        let fraction = fractionOverride ?? Double(done) / Double(total)
        let percent = Int(fraction * 100)
        guard force || percent != lastDrawnPercent else { return }
        lastDrawnPercent = percent
        let text = ProgressBar.render(fraction: fraction, width: 24, label: step.isEmpty ? label : label + ": " + step)
        write("\r\u{1B}[2K" + text)
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
