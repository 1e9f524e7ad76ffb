/// The motion controls' tunables: the talk's scheme (pushed device motion in short ring
/// buffers, a threshold on each buffer's mean) with values chosen on real recordings (`standard`).
public struct MotionControlSettings: Hashable, Sendable {
    /// Seconds between pushed device-motion updates (the talk: 1/50 s; `standard`: 1/100 s).
    public var updateInterval: Double
    /// Jump: mean rotation rate about the tip axis, rad/s (positive: top toward the player).
    public var jump: GestureDetector.Settings
    /// Duck: mean user acceleration along gravity, g (negative: the device pushed downward,
    /// see `GestureSignals.downwardPush`).
    public var duck: GestureDetector.Settings

    /// Ducks are held back while the mean rotation rate over the duck buffer exceeds this,
    /// rad/s. Not in the talk: while the device turns fast its accelerometer, off the centre
    /// of rotation, reads centripetal and tangential acceleration and the fused gravity lags,
    /// so "user acceleration along gravity" is not a push. `.infinity` is the talk's rule.
    public var duckMaximumRotation: Double
    /// Seconds of rotation the duck's guard looks back over (at least the duck buffer): a flip's
    /// centripetal jolt and the fused gravity's lag outlast the flip by a few tenths of a second.
    public var duckRotationWindow: Double
    /// Between `duckMaximumRotation` and this (rad/s) a duck needs `duckTurningThreshold` (g)
    /// instead of the duck's threshold; above it, no duck. A hand pushing the device turns it
    /// 0.5–2 rad/s; a roll or tip at that rate reads at most about −0.38 g along gravity.
    public var duckTurningRotation: Double
    public var duckTurningThreshold: Double

    /// A jump needs the rotation to be mostly about the tip axis: the buffer's mean tip rate is at
    /// least this fraction of its mean |rotation rate| (0.8: within about 37° of the axis), so a
    /// roll or a spin whose axis leans toward the tip axis never reads as a tip. 0: the talk's rule.
    public var jumpAxisShare: Double

    public init(updateInterval: Double, jump: GestureDetector.Settings, duck: GestureDetector.Settings,
                duckMaximumRotation: Double = 1.5, duckRotationWindow: Double = 0, jumpAxisShare: Double = 0,
                duckTurningRotation: Double? = nil, duckTurningThreshold: Double? = nil) {
        self.duckTurningRotation = duckTurningRotation ?? duckMaximumRotation
        self.duckTurningThreshold = duckTurningThreshold ?? duck.threshold
        self.updateInterval = updateInterval
        self.jump = jump
        self.duck = duck
        self.duckMaximumRotation = duckMaximumRotation
        self.duckRotationWindow = duckRotationWindow
        self.jumpAxisShare = jumpAxisShare
    }

    /// The talk pushes device motion at 50 Hz; the default is 100 Hz (`updateInterval` 0.01 s)
    /// because a knock or a sharp push lasts 10–30 ms and thinning to 50 Hz can drop it
    /// (x-io's knock at 101 s is two 100 Hz samples). Pads deliver 100–1000 Hz.
    ///
    /// Thresholds chosen from fused real recordings (x-io Fusion's sensor_data.csv; MotionSense
    /// sit/std; mPower rest tremor), buffer means at 100 Hz:
    /// - jump, 80 ms (8 samples; 50 ms before BROAD's pushes, whose wobbles of 1.5–2 rad/s turning
    ///   under 20° fired 7 jumps at 50 ms and none at 80 ms): deliberate tips toward the player peak at 2.4–2.6 rad/s in
    ///   x-io's slow tips (a player's flick reaches 4–6); picking the board up, rolling it,
    ///   knocking it and a phone in a pocket while sitting stay below 1.0 rad/s → 1.5 rad/s.
    /// - duck, 30 ms (3 samples): x-io's knocks read −0.31 and −0.25 g along gravity; every
    ///   other moment without fast rotation stays above −0.18 g, sitting and standing above
    ///   −0.15 g → −0.2 g.
    /// Checked on the labelled gesture set (`tiltkit bench gestures`, Assets/gestures/labels.csv):
    /// - a jump needs 80 % of the rotation about the tip axis: BROAD's rolls fired 20 jumps in
    ///   trial 06 without it;
    /// - both detectors rearm only once the mean is back within half the threshold (one fire per motion);
    /// - jump refractory 0.5 s: BROAD's fast tips come 0.4–0.6 s apart (0.6 s missed 6 of 94, 0.45 s
    ///   fired twice on one tip); duck 0.3 s: at 0.6 s (the game's duck time) a braked upward stroke's
    ///   fire swallowed the real push 0.3 s later (BROAD trial 15, 56.5 s); a second duck within the
    ///   crouch only extends it;
    /// - no duck while the mean rotation over the last 0.3 s exceeds 0.7 rad/s: x-io's knocks read
    ///   0.45 and 0.01 rad/s, its roll at 40.15 s 1.37, BROAD's slow tip away at 151.2 s (trial 01) 0.91;
    ///   from 0.7 to 2 rad/s a duck needs −0.4 g: BROAD's hand pushes down (trials 10, 15) turn at
    ///   0.5–2 rad/s and reach −0.39 to −0.59 g, its rolls and tips at those rates −0.23 to −0.38 g
    ///   (one −0.55 at 1.8 rad/s).
    public static let standard = MotionControlSettings(
        updateInterval: 0.01,
        jump: .init(window: 0.08, threshold: 1.5, refractory: 0.5, rearm: 0.5),
        duck: .init(window: 0.03, threshold: -0.2, refractory: 0.3, rearm: 0.5),
        duckMaximumRotation: 0.7, duckRotationWindow: 0.3, jumpAxisShare: 0.8,
        duckTurningRotation: 2.0, duckTurningThreshold: -0.4)
}
