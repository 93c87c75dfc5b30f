/// Text written when it is read: a workout's title and description, a week's "why" lines. Most plans the engine
/// builds are never printed (a replan's trials, the refusal's searches, the property suites, the benchmark), so the
/// engine keeps what it needs to write the text (a few numbers and the plan's context, shared) and writes it on each
/// read, the same text as writing it at once. Text given (decoded, or set) is kept as it is.
struct DeferredText<Value: Sendable>: Sendable {
  private enum Source: Sendable {
    case given(Value)
    case deferred(@Sendable () -> Value)
  }

  private let source: Source

  /// Text given.
  init(_ value: Value) { source = .given(value) }

  /// Text written by `write` whenever it is read.
  init(deferred write: @escaping @Sendable () -> Value) { source = .deferred(write) }

  /// The text.
  var value: Value {
    switch source {
    case .given(let value): value
    case .deferred(let write): write()
    }
  }
}
