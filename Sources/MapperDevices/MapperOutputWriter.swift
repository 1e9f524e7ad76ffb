import Mapper

/// What one step's output sent: mouse counts moved (|x| + |y|) and events, pad events (SYN_REPORT
/// not counted), for the status line.
public struct WriteCounts: Hashable, Sendable {
    public var mouseCounts = 0
    public var mouseEvents = 0
    public var padEvents = 0
    public init() {}
    public var sentAnything: Bool { mouseEvents + padEvents > 0 }
}

/// Where `MapperSession` puts each step's output: the virtual devices (`VirtualDevices`), or
/// text for a dry run (`DryRunWriter`).
public protocol MapperOutputWriter: AnyObject {
    /// One step's output at `time` (seconds, the motion samples' clock).
    func write(_ output: MapperOutput, time: Double) throws(UInputError) -> WriteCounts
}

/// The virtual mouse and gamepad together.
public final class VirtualDevices: MapperOutputWriter {
    public let mouse: VirtualMouse
    public let pad: VirtualGamepad

    public init(mouse: VirtualMouse, pad: VirtualGamepad) {
        self.mouse = mouse
        self.pad = pad
    }

    /// Both devices through /dev/uinput (or `path`).
    public static func create(path: String = UInputDevice.defaultPath) throws(UInputError) -> VirtualDevices {
        VirtualDevices(mouse: try VirtualMouse.create(path: path), pad: try VirtualGamepad.create(path: path))
    }

    public func write(_ output: MapperOutput, time: Double) throws(UInputError) -> WriteCounts {
        var counts = WriteCounts()
        counts.mouseEvents = try mouse.write(output)
        counts.mouseCounts = Int(output.mouseX.magnitude) + Int(output.mouseY.magnitude)
        counts.padEvents = try pad.write(output.pad)
        return counts
    }

    /// Removes both devices.
    public func destroy() {
        mouse.destroy()
        pad.destroy()
    }
}
