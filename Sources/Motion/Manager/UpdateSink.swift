/// Where updates that come one at a time go (the pedometer's counts, the activity manager's calls):
/// a handler on a queue, or an `AsyncStream`'s feed.
///
///     state.sink = .stream(feed)
///     state.sink?.send(data)
///     state.sink?.finish()        // replaced or stopped: a stream's iteration ends
enum UpdateSink<Data: Sendable>: Sendable {
    case handler(DeliveryChannel<Data>)
    case stream(UpdateFeed<Data>)

    func send(_ data: Data) {
        switch self {
        case .handler(let channel): channel.send(data)
        case .stream(let feed): feed.yield(data)
        }
    }

    /// Ends a stream after the data it has; a handler simply gets nothing more.
    func finish() {
        if case .stream(let feed) = self { feed.finish() }
    }

    func isFed(by feed: UpdateFeed<Data>) -> Bool {
        if case .stream(let mine) = self { return mine === feed }
        return false
    }
}
