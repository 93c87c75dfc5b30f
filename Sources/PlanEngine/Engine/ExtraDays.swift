import RunningCore

/// Places the cross-training and strength days the goal asks for (`Goal.crossTrainingPerWeek`,
/// `Goal.strengthPerWeek`) on the finished weeks, by the rules of `base.yaml` `extraDays`.
///
/// They go on days without a run, one a day, strength first (fewer days are open to it), none in race week;
/// runs are never touched, so the running volume and every "why" number stay as they were. A week with fewer
/// open days than asked gets what fits and a "why" line saying so; every week with any gets a line counting them.
enum ExtraDays {
  /// One kind of extra day, as the placement needs it.
  private struct Ask {
    let kind: WorkoutKind
    let slotPrefix: String
    let name: String
    let count: Int
    let rules: ExtraDayKind
  }

  static func place(on weeks: [Week], context: PlanContext, planID: String) -> [Week] {
    let goal = context.goal
    let rules = context.base.extraDays
    let asks = [
      Ask(
        kind: .strength, slotPrefix: "strength", name: "strength", count: goal.strengthPerWeek, rules: rules.strength),
      Ask(
        kind: .crossTraining, slotPrefix: "cross", name: "cross-training", count: goal.crossTrainingPerWeek,
        rules: rules.crossTraining),
    ].filter { $0.count > 0 }
    guard !asks.isEmpty else { return weeks }
    let hardDays = Set(weeks.flatMap(\.workouts).filter(\.hard).map(\.date.dayNumber))
    let sortedHard = hardDays.sorted()
    /// Days from `day` to the next hard day after it (a large number when none follows).
    func daysToNextHard(_ day: Int) -> Int {
      (sortedHard.first { $0 > day }).map { $0 - day } ?? 99
    }
    return weeks.map { week in
      guard week.phase != .race else { return week }
      var week = week
      let runDays = Set(week.workouts.map(\.date.dayNumber))
      var open = (0..<7).map { week.start.dayNumber + $0 }.filter { !runDays.contains($0) }
      var added: [Workout] = []
      var counts: [String] = []
      var shortfalls: [String] = []
      for ask in asks {
        let minutes = ask.rules.minutes[week.phase]
        var chosen: [Int] = []
        var allowed = open.filter { !ask.rules.notBeforeHardDay || !hardDays.contains($0 + 1) }
        while chosen.count < ask.count, !allowed.isEmpty {
          // Not beside another day of the same kind when there is a choice, then the rule's preference, then
          // the earlier day.
          func key(_ day: Int) -> (Int, Int, Int) {
            let beside = chosen.contains { abs($0 - day) == 1 } ? 1 : 0
            let preference = ask.rules.afterHardDay ? (hardDays.contains(day - 1) ? 0 : 1) : -daysToNextHard(day)
            return (beside, preference, day)
          }
          guard let best = allowed.min(by: { key($0) < key($1) }) else { break }
          chosen.append(best)
          allowed.removeAll { $0 == best }
          open.removeAll { $0 == best }
        }
        for (index, day) in chosen.sorted().enumerated() {
          added.append(
            workout(
              ask, minutes: minutes, date: CivilDate(dayNumber: day),
              id: "\(planID)-w\(week.number < 10 ? "0" : "")\(week.number)-\(ask.slotPrefix)\(index + 1)",
              slot: "\(ask.slotPrefix)\(index + 1)", context: context))
        }
        if !chosen.isEmpty { counts.append("\(ask.name) \(chosen.count) × \(minutes) min") }
        if chosen.count < ask.count {
          let why =
            ask.rules.notBeforeHardDay
            ? "the week has \(chosen.count == 0 ? "no" : "only \(chosen.count)") day(s) without a run that is not "
              + "the day before a hard day"
            : "the week has \(chosen.count == 0 ? "no" : "only \(chosen.count)") day(s) without a run left"
          shortfalls.append("\(ask.name) \(chosen.count) of \(ask.count): \(why)")
        }
      }
      if !counts.isEmpty {
        week.rules.append(
          "Besides running: \(counts.joined(separator: ", ")) on days without a run; not counted in the running "
            + "volume.")
      }
      for text in shortfalls { week.rules.append(text.prefix(1).uppercased() + text.dropFirst() + ".") }
      week.workouts = (week.workouts + added).sorted { $0.date < $1.date }
      return week
    }
  }

  private static func workout(
    _ ask: Ask, minutes: Int, date: CivilDate, id: String, slot: String, context: PlanContext
  ) -> Workout {
    let text = TextPlaceholders.fill(ask.rules.text, ["minutes": String(minutes)])
    let step = WorkoutStep(
      kind: .work, distanceKm: 0, durationMin: minutes, durationSeconds: minutes * 60, pace: nil,
      effort: context.effort(.easy), zone: .easy, repeat: 1)
    return Workout(
      id: id, slot: slot, date: date, kind: ask.kind, distanceKm: 0, durationMin: minutes, hard: false,
      title: "\(ask.kind.displayName) \(minutes) min",
      description: "\(text). Not counted in the running volume.", steps: [step])
  }
}
