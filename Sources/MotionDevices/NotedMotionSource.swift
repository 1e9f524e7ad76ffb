import Motion

/// A source with something to tell the user about how it was opened (an IIO sensor hub at rest
/// that was asked for a rate), one line each; `SourceSpec.makeSource` passes them on.
public protocol NotedMotionSource: MotionSource {
    var notes: [String] { get }
}

extension IIOPollingSource: NotedMotionSource {}
extension IIOBufferSource: NotedMotionSource {}
