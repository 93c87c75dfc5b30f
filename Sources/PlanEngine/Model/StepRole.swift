extension Workout {
  /// True when `step` is the easy running of a strides run: the run itself, with the strides at its end. The engine
  /// files it as the warm-up (it comes before the fast part), but the runner is told "Easy", on the watch and in the
  /// calendar, since there is no main set after it to warm up for.
  public func isEasyRunning(_ step: WorkoutStep) -> Bool {
    kind == .strides && step.kind == .warmup && step.zone == .easy
  }
}
