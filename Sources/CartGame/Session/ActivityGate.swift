import Motion

/// Holds the jump and duck gestures off while the player walks or runs: a step jolts the device
/// as a push or a tip does (a jog with the phone in a pocket fired 42 jumps and 42 ducks in 31 s),
/// so on foot the gestures mean nothing. A `MotionActivityClassifier` runs on the pushed device
/// motion (gravity + user acceleration is the measured acceleration). The hold starts as soon as
/// a window shows a gait, even in part of it (before the call is confirmed), or the call is walking
/// or running. It ends:
/// - once the device, its face turned up toward the player, has gone `quietToResume` without a
///   jolt (`StepSettling`): a player who stops walking gets the gestures back within a second, not
///   after a whole still window. Until a window lies wholly after that moment, only a new rhythm of
///   steps holds them again. A device in a pocket, an armband or a bag hangs with its face upright
///   or down: there the steps ending say nothing of play (Oxford's walkers stopped, then took the
///   phone out), and the windows decide;
/// - at the first still window (4 s without a jolt), or after 6 s with no gait in any window;
/// - when the jolts are a hand's (`HandTurning`: turning the device fast; `HandStrokes`: pushing it
///   in strokes, which BROAD's translation trials showed the windows alone read as walking). While
///   the classifier calls walking or running, its own verdict, the hand must show in a run of
///   windows: 3 in a row for a fast turn or a stroke's shape (sideways, smooth), which a pocketed
///   gait met in at most 2 windows in a row; 12 of the last 16 (8 s) for steps reversing one step
///   apart, which such a gait met in runs of up to 8, a hand's strokes nearly all the time.
/// At a start or after a gap the gestures wait for a first still window too (2.5 s at the
/// earliest), so a walk already under way fires nothing.
///
/// A walk held while the device was stowed (its face upright or down: a pocket, a belt, a bag)
/// gives the gestures back only as a player who stops walking with it in the hands gets them:
/// once it is held toward the player, face turned up, and still for `quietToResume`
/// (`awayFromPlayer`), whatever else ended the hold. A still window or a quiet spell says the
/// walker stopped, not that they play, and their first step from standing pushes a stowed device
/// down as a duck does (UCI HAPT's 30 walkers, a phone on the waist: 89 ducks in 115 min, 70 of
/// them on a walk's first step after the gestures had come back; 6 with this rule). Nor do a
/// hand's jolts end it: a waist-worn phone turning with the walker at a corridor's end reads as a
/// hand turning it (41 more ducks came back that way).
///
///     var gate = ActivityGate()
///     if gate.push(motion) { controls.reset() }      // the hold ended: forget the walk's motion
///     if gate.hold != nil { /* drop this frame's jump and duck */ }
public struct ActivityGate: Sendable {
    public private(set) var classifier: MotionActivityClassifier
    /// Why gestures are held now; nil when they run.
    public private(set) var hold: Hold? = .waitingForStillness
    private var lastWindowEnd: Double?
    private var handTurning = HandTurning()
    private var settling = StepSettling()
    /// When a hold for walking ended on the steps stopping, until the windows see past that moment.
    private var settledAt: Double?
    private var strokes = HandStrokes()
    private var quietWindows = 0
    /// A hold for walking was in force while the device was stowed, and it has not been held toward
    /// the player since.
    private var stowedWalk = false
    /// The hand rules' verdict in the recent windows, newest last.
    private var handVotes: [HandVote] = []
    /// While the call is walking or running, the hand rules end a hold only with these agreements.
    static let shapeAgreement = MotionActivitySettings.Agreement(count: 3, of: 3)
    static let reversalAgreement = MotionActivitySettings.Agreement(count: 12, of: 16)

    private enum HandVote: Comparable {
        case steps, reversedSteps, shape
    }
    /// Windows (0.5 s apart) without any gait after which a hold for walking ends even without a
    /// still window: 6 s, as the Oxford walks' endings (taking the phone out) fired nothing at 6 s and 4 at 4 s.
    static let quietWindowsToResume = 12
    /// Seconds without a jolt that end a hold for walking: a step's jolts come at least every 1 s
    /// (`MotionActivitySettings.stepRate` from 1 step/s).
    static let quietToResume = 1.0
    /// −gravity.z of the unit gravity (1 lying face up, 0 upright) at or above which the device's face
    /// is turned up toward a player: tilted back 24° or more from upright. Measured on Oxford's walks:
    /// in the hand 0.79–0.86; front and back pocket, bag −0.14 to 0.14 where the walkers stopped.
    static let facingPlayer = 0.4
    /// Jolts in a step's rhythm since the steps stopped that hold the gestures again: a walk
    /// restarting, where a jump or a duck is one or two jolts.
    static let stepsToHoldAgain = 3

    public enum Hold: Hashable, Sendable {
        /// No still window yet since the start or a gap.
        case waitingForStillness
        /// Walking or running (called, or seen in a window), and no still window since.
        case onFoot(MotionActivityKind)
        /// A walk was held while the device was stowed, and it has not been held toward the player,
        /// still, since.
        case awayFromPlayer

        /// The HUD's line (the overlay font is ASCII).
        public var message: String {
            switch self {
            case .waitingForStillness: "hold still - gestures start when still"
            case .onFoot(let kind): "\(kind.rawValue) - gestures paused"
            case .awayFromPlayer: "hold it toward you - gestures paused"
            }
        }
    }

    /// The classifier's settings with a window every 0.5 s: a walk's start is seen sooner.
    public static let settings: MotionActivitySettings = {
        var s = MotionActivitySettings.default
        s.hop = 0.5
        s.confirmation = .init(count: 6, of: 8)
        s.slowConfirmation = .init(count: 16, of: 20)
        return s
    }()

    public init(settings: MotionActivitySettings = ActivityGate.settings) {
        classifier = MotionActivityClassifier(settings: settings)
    }

    /// The classifier's call now.
    public var activity: MotionActivity { classifier.current }

    /// A hold for walking that the windows would end (a still one, or 6 s of them without a gait)
    /// while the device jolted within the last `quietToResume`: the windows judge the pause up to
    /// their length late, when the steps of the walk going on (UCI HAPT's walkers turning at a
    /// corridor's end) are already under way. The hold stays.
    private func stepsResumed(_ now: Double) -> Bool {
        guard case .onFoot? = hold else { return false }
        return settling.quietFor(now) < Self.quietToResume
    }

    /// One pushed device motion. Returns true when a hold just ended.
    public mutating func push(_ motion: DeviceMotion) -> Bool {
        let held = hold != nil
        let facing = -motion.gravity.normalized.z >= Self.facingPlayer
        // before the rules as well as after: they may end a walk's hold in this very push
        if case .onFoot? = hold, !facing { stowedWalk = true }
        applyRules(motion, facing: facing)
        if case .onFoot? = hold, !facing { stowedWalk = true }
        if stowedWalk && hold == nil { hold = .awayFromPlayer }
        // held toward the player and still, as a player who stops walking with it in the hands
        if hold == .awayFromPlayer && facing && settling.quietFor(motion.timestamp) >= Self.quietToResume {
            hold = nil
            stowedWalk = false
        }
        return held && hold == nil
    }

    /// Every rule above but the stowed walk's; `facing`: the device's face is turned up toward the player.
    private mutating func applyRules(_ motion: DeviceMotion, facing: Bool) {
        handTurning.push(motion)
        strokes.push(motion)
        settling.push(motion)
        classifier.push(MotionSample(timestamp: motion.timestamp, acceleration: motion.gravity + motion.userAcceleration))
        guard let window = classifier.latestWindow, let vote = classifier.latestVote else {
            // Restarted after a gap (or nothing yet): unknown again.
            if lastWindowEnd != nil {
                hold = .waitingForStillness
                settling.reset()
                settledAt = nil
            }
            lastWindowEnd = nil
            stowedWalk = false
            return
        }
        if case .onFoot? = hold, settling.quietFor(motion.timestamp) >= Self.quietToResume, facing {
            hold = nil
            settledAt = motion.timestamp
            return
        }
        if let since = settledAt, hold == nil, settling.stepsSince(since) >= Self.stepsToHoldAgain {
            hold = .onFoot(.walking)
            settledAt = nil
            return
        }
        guard window.end != lastWindowEnd else { return }
        lastWindowEnd = window.end
        let call = classifier.current.kind
        // A whole still window (4 s) ends a hold at once, before the call catches up.
        let gait = vote.isOnFoot || window.showsGait(classifier.settings)
        quietWindows = gait ? 0 : quietWindows + 1
        let evidence = strokes.evidence(stepRate: window.stepRate)
        let handVote: HandVote = handTurning.isTurningInHand || (evidence != nil && evidence != .reversedSteps) ? .shape
            : evidence == .reversedSteps ? .reversedSteps : .steps
        handVotes.append(handVote)
        let keep = Self.reversalAgreement.of
        if handVotes.count > keep { handVotes.removeFirst(handVotes.count - keep) }
        func agreed(_ level: HandVote, _ need: MotionActivitySettings.Agreement) -> Bool {
            handVotes.suffix(need.of).filter { $0 >= level }.count >= need.count
        }
        // Since the steps stopped, windows holding some of them say nothing new.
        if let since = settledAt {
            if !call.isOnFoot { settledAt = nil }
            if window.start < since { return }
        }
        let handNow = handVote != .steps
        let handAgreed = agreed(.shape, Self.shapeAgreement) || agreed(.reversedSteps, Self.reversalAgreement)
        if handNow && (!call.isOnFoot || handAgreed) {
            // Jolts from a hand turning the device fast (a player's tips and rolls) are no steps.
            // A hold for a walk ends; one waiting for a first stillness still waits for it.
            if case .onFoot? = hold { hold = nil } else if vote == .stationary { hold = nil }
        } else if vote.isOnFoot {
            hold = .onFoot(vote)
            settledAt = nil
        } else if window.showsGait(classifier.settings) {
            // A walk starting: its first steps already fill part of the window.
            hold = .onFoot(.walking)
            settledAt = nil
        } else if vote == .stationary {
            if !stepsResumed(motion.timestamp) { hold = nil }
        } else if call.isOnFoot && settledAt == nil && quietWindows < ActivityGate.quietWindowsToResume {
            hold = .onFoot(call)
        } else if case .onFoot? = hold, quietWindows >= ActivityGate.quietWindowsToResume, !stepsResumed(motion.timestamp) {
            hold = nil
        }
    }
}
