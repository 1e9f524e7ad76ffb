/// Whether gyro output is on, from JoyShockMapper's GYRO_OFF, GYRO_ON and a toggle (its README,
/// "Gyro mouse inputs"): gyro runs unless a GYRO_OFF button is held; with GYRO_ON buttons set it
/// runs only while one is held; each press of a toggle button flips the result.
struct GyroSwitch: Hashable, Sendable {
    var off: PadButtons
    var on: PadButtons
    var toggle: PadButtons
    private(set) var toggled = false
    private var held: PadButtons = []

    /// `toggled` and `held` carry a previous switch's state (a reloaded profile): a button held
    /// across the reload is not a new press.
    init(off: PadButtons, on: PadButtons, toggle: PadButtons, toggled: Bool = false, held: PadButtons = []) {
        self.off = off
        self.on = on
        self.toggle = toggle
        self.toggled = toggled
        self.held = held
    }

    /// Reads the buttons held now; returns whether the gyro is on.
    mutating func update(_ buttons: PadButtons) -> Bool {
        let pressed = buttons.subtracting(held)
        held = buttons
        if !pressed.intersection(toggle).isEmpty { toggled.toggle() }
        return enabled
    }

    var enabled: Bool {
        var base = on.isEmpty || !held.intersection(on).isEmpty
        if !held.intersection(off).isEmpty { base = false }
        return toggled ? !base : base
    }
}
