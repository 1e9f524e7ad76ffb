import DSU
import Mapper

extension DSUPadInput {
    /// A pad's controls (buttons by position, sticks up-positive, trigger travel) as DSU sends
    /// them. Face buttons go by position, as the protocol's own names do (Y, B, A, X =
    /// west, south, east, north): south → Cross, east → Circle, west → Square, north →
    /// Triangle; MINUS → Share, PLUS → Options, HOME → PS, a Switch pad's Capture → the touchpad
    /// click (DSU has no Capture; a pad with a touchpad has no Capture). A trigger without analog
    /// travel (a Switch pad's ZL/ZR) reads 255 while its click is held.
    ///
    ///     let input = DSUPadInput(controls: PadControls(buttons: [.south], leftStick: .init(x: 1, y: 0)))
    ///     // input.buttons == [.cross], input.leftStick == DSUStick(x: 255, y: 128)
    public init(controls c: PadControls, touches: [DSUTouch] = [], touchpadClicked: Bool = false) {
        var buttons: DSUButtons = []
        for (button, dsu) in Self.buttonMap where c.buttons.contains(button) { buttons.insert(dsu) }
        if touchpadClicked { buttons.insert(.touchpad) }
        func trigger(_ travel: Double, held: Bool) -> UInt8 {
            let byte = UInt8((min(max(travel.isFinite ? travel : 0, 0), 1) * 255).rounded())
            return byte == 0 && held ? 255 : byte
        }
        self.init(buttons: buttons,
                  leftStick: DSUStick(deflectionX: c.leftStick.x, deflectionY: c.leftStick.y),
                  rightStick: DSUStick(deflectionX: c.rightStick.x, deflectionY: c.rightStick.y),
                  leftTrigger: trigger(c.leftTrigger, held: c.buttons.contains(.leftTrigger)),
                  rightTrigger: trigger(c.rightTrigger, held: c.buttons.contains(.rightTrigger)),
                  firstTouch: touches.first, secondTouch: touches.dropFirst().first)
    }

    static let buttonMap: [(PadButton, DSUButtons)] = [
        (.south, .cross), (.east, .circle), (.west, .square), (.north, .triangle),
        (.leftShoulder, .l1), (.rightShoulder, .r1), (.leftTrigger, .l2), (.rightTrigger, .r2),
        (.select, .share), (.start, .options), (.home, .ps), (.capture, .touchpad),
        (.leftStick, .l3), (.rightStick, .r3),
        (.dpadUp, .dpadUp), (.dpadDown, .dpadDown), (.dpadLeft, .dpadLeft), (.dpadRight, .dpadRight),
    ]
}
