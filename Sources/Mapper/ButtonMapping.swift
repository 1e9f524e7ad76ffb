/// Physical buttons to the virtual pad's buttons and triggers, the mouse's buttons and its wheel,
/// as the profile's `buttons` table says (an absent button mirrors to itself). Pure.
struct ButtonMapping: Sendable {
    /// Each physical button with what it does: looked up once per profile, so a step does no
    /// dictionary work.
    private let targets: [(button: PadButton, target: ButtonTarget)]

    init(_ profile: MapperProfile) {
        targets = PadButton.allCases.map { ($0, profile.target(of: $0)) }
    }

    struct Result: Hashable, Sendable {
        var pad: PadButtons = []
        var mouse: MouseButtons = []
        /// Wheel detents for buttons pressed since `previous`, up positive.
        var wheel: Int32 = 0
        /// Whether a physical trigger reaches its own virtual trigger (its travel passes) and
        /// whether another button presses it (the travel reads full).
        var leftTriggerPasses = false, rightTriggerPasses = false
        var leftTriggerPressed = false, rightTriggerPressed = false
    }

    func map(_ held: PadButtons, previous: PadButtons) -> Result {
        var result = Result()
        // By index: iterating the array of tuples directly allocated per element in debug builds.
        for index in targets.indices {
            let (button, target) = targets[index]
            if case .pad(let to) = target, to == button {
                if button == .leftTrigger { result.leftTriggerPasses = true }
                if button == .rightTrigger { result.rightTriggerPasses = true }
            }
            guard held.contains(button) else { continue }
            switch target {
            case .pad(let to):
                result.pad.insert(PadButtons(to))
                if to == .leftTrigger && button != to { result.leftTriggerPressed = true }
                if to == .rightTrigger && button != to { result.rightTriggerPressed = true }
            case .mouse(let buttons): result.mouse.formUnion(buttons)
            case .wheelUp: if !previous.contains(button) { result.wheel += 1 }
            case .wheelDown: if !previous.contains(button) { result.wheel -= 1 }
            case .none: break
            }
        }
        return result
    }
}
