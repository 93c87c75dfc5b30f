import Synchronization

/// What `body` gives, or nil when `deadline` passes first: the two race, and the loser is cancelled (a network read
/// that honours cancellation closes its connection) but not waited for, so a read that does not honour it at once (a
/// client dripping a request body) cannot hold the caller past the deadline. For a remote party that may never
/// answer: a CalDAV server, a client sending a body.
public func outcome<T: Sendable>(
  within deadline: Duration, of body: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
  let race = Race<T>()
  return await withCheckedContinuation { continuation in
    race.start(continuation)
    let work = Task {
      do {
        race.finish(.success(try await body()))
      } catch {
        race.finish(.failure(error))
      }
    }
    let timer = Task {
      try? await Task.sleep(for: deadline)
      // Decided first, cancelled after: a body that ends on cancellation must not win the race it lost.
      guard !Task.isCancelled else { return }
      race.finish(nil)
      work.cancel()
    }
    race.onFinish { timer.cancel() }
  }
}

/// The one answer of ``outcome(within:of:)``: the first to finish resumes the caller; the other is dropped.
private final class Race<T: Sendable>: Sendable {
  private struct State: ~Copyable {
    var continuation: CheckedContinuation<Result<T, any Error>?, Never>?
    var finished = false
    var cleanup: (@Sendable () -> Void)?
  }
  private let state = Mutex(State())

  func start(_ continuation: CheckedContinuation<Result<T, any Error>?, Never>) {
    state.withLock { $0.continuation = continuation }
  }

  /// Runs `cleanup` once the race is decided (at once when it is).
  func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      if state.finished { return true }
      state.cleanup = cleanup
      return false
    }
    if now { cleanup() }
  }

  func finish(_ value: Result<T, any Error>?) {
    let (continuation, cleanup) = state.withLock {
      state -> (CheckedContinuation<Result<T, any Error>?, Never>?, (@Sendable () -> Void)?) in
      guard !state.finished else { return (nil, nil) }
      state.finished = true
      defer {
        state.continuation = nil
        state.cleanup = nil
      }
      return (state.continuation, state.cleanup)
    }
    continuation?.resume(returning: value)
    cleanup?()
  }
}
