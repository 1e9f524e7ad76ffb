/// A Joy-Con pair's two halves as one pad's controls, as joycond combines them: each half's
/// gamepad node under hid-nintendo sends only its own controls (the left: its stick as ABS_X/Y,
/// the d-pad, L, ZL, minus, capture; the right: its stick as ABS_RX/RY, A B X Y, R, ZR, plus,
/// home; hid-nintendo.c joycon_input_create), so the pair is the left's left stick, the right's
/// right stick, and both halves' buttons.
///
///     let pad = PadControls.joyConPair(left: leftHalf, right: rightHalf)
extension PadControls {
    public static func joyConPair(left: PadControls, right: PadControls) -> PadControls {
        PadControls(buttons: left.buttons.union(right.buttons), leftStick: left.leftStick, rightStick: right.rightStick,
                    leftTrigger: left.leftTrigger, rightTrigger: right.rightTrigger)
    }
}
