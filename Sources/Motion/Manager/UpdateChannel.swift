/// One update type's push channel: its data in order, with the rare error in its place among them,
/// to a handler of Core Motion's shape `(Data?, Error?)`.
///
///     let channel = UpdateChannel<DeviceMotion>(queue: queue) { motion, error in draw(motion) }
///     channel.send(moving: &staged)        // a batch of outputs, one lock
///     channel.report(.sourceDisconnected(reason: "unplugged"))   // after the data already sent
///
/// The data travel through a `DeliveryChannel` as `Data?`, plain bytes copied in bulk; an error
/// travels as a `nil` there, its value waiting in `errors` (first in, first out), so it still
/// reaches the handler after the data sent before it. Elements of `Result<Data, MotionManagerError>`,
/// as this channel carried before, are not plain bytes (the error's messages are strings): each one
/// was copied into the list, copied out and destroyed through its value witnesses, about 230
/// instructions per pushed sample (valgrind --tool=callgrind on a replay pushed as fast as possible).
final class UpdateChannel<Data: Sendable>: Sendable {
    private let channel: DeliveryChannel<Data?>
    private let errors: Locked<[MotionManagerError]>

    /// Always inlined, so the closure below is specialised for each call site's `Data`: left generic,
    /// it looked up its types' metadata and copied through their witnesses for every sample.
    @inline(__always)
    init(queue: any MotionHandlerQueue, handler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        let errors = Locked<[MotionManagerError]>([])
        self.errors = errors
        channel = DeliveryChannel(queue: queue) { data in
            // lent on as it is: unwrapped first, the value was copied out and wrapped again
            if data != nil {
                handler(data, nil)
            } else if let error = errors.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                handler(nil, error)
            }
        }
    }

    /// Sends `data`, in order, taking the elements out of it (see `DeliveryChannel.send(moving:)`).
    func send(moving data: inout [Data?]) { channel.send(moving: &data) }

    /// Sends `error` after every element sent so far.
    func report(_ error: MotionManagerError) {
        errors.withLock { $0.append(error) }
        channel.send(nil)
    }
}
