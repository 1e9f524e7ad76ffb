import MotionDevices

/// Where a virtual device's events go: a uinput device (`UInputDevice`), or a test's array.
/// Each call is one batch the device's encoder made, SYN_REPORT last.
public protocol InputEventSink: AnyObject {
    func write(_ events: [InputEvent]) throws(UInputError)
}
