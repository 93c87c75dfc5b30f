import PlanEngine
import RunningCore

/// The plan as a week-by-week table for a terminal.
struct PlanTable {
  let plan: Plan
  let units: DistanceUnit

  /// The title, the facts line and the warnings.
  func header() -> [String] {
    let goal = plan.goal
    var lines: [String] = []
    let level = goal.level.rawValue.prefix(1).uppercased() + goal.level.rawValue.dropFirst()
    // A race off the long-run day says so: "(long runs on Sun)".
    let longRunsDay =
      goal.longRunWeekday == goal.raceDate.weekday ? "" : " (long runs on \(goal.longRunWeekday.shortName))"
    lines.append(
      "\(level) \(goal.distance.displayName) plan · \(goal.weeks) weeks · "
        + "\(goal.start) → race \(goal.raceDate.shortLabel) \(goal.raceDate.year)\(longRunsDay) · id \(plan.id)")
    var facts =
      "\(goal.runsPerWeek) runs a week · from \(units.format(goal.currentWeeklyKm)) a week · "
      + "longest recent run \(units.format(goal.longestRecentRunKm))"
    if let vdot = goal.vdot, let time = goal.goalTimeSeconds, let goalVDOT = goal.goalVDOT,
      goal.vdotSource == .recentRace
    {
      facts += " · goal \(formatRaceTime(Double(time))) (VDOT \(goalVDOT)) · paces at VDOT \(vdot)"
    } else if let vdot = goal.vdot, let time = goal.goalTimeSeconds {
      facts += " · goal \(formatRaceTime(Double(time))) (VDOT \(vdot))"
    } else if let vdot = goal.vdot, let predicted = goal.predictedTimeSeconds {
      facts += " · VDOT \(vdot), predicted \(formatRaceTime(Double(predicted)))"
    } else {
      facts += " · effort targets (add --recent-race for paces)"
    }
    let extras = [(goal.crossTrainingPerWeek, "cross-training"), (goal.strengthPerWeek, "strength")]
      .filter { $0.0 > 0 }.map { "\($0.0) \($0.1) day\($0.0 == 1 ? "" : "s")" }
    if !extras.isEmpty { facts += " · " + extras.joined(separator: " and ") + " a week (not in the volume)" }
    lines.append(facts)
    for warning in plan.warnings { lines.append("warning: \(units.relabel(warning))") }
    return lines
  }

  func render() -> String {
    var lines = header()
    lines.append("")

    let header = ["Wk", "Phase", "Dates", "Volume", "Workouts"]
    var rows: [[String]] = []
    var whys: [String] = []
    for week in plan.weeks {
      let end = week.start.adding(days: 6)
      let dates = "\(dayMonth(week.start))–\(dayMonth(end))"
      let phase = week.cutback ? "\(week.phase.rawValue)↓" : week.phase.rawValue
      let workouts = week.workouts.map { "\($0.date.weekday.shortName) \(shortForm($0))" }.joined(separator: " · ")
      rows.append([String(week.number), phase, dates, units.format(week.planned), workouts])
      whys.append(units.relabel(week.rules.prefix(2).joined(separator: "; ")))
    }
    let columns = Columns([header] + rows, rightAligned: [0, 3])
    lines.append(columns.line(header))
    let indent = String(repeating: " ", count: columns.widths[0] + 2)
    for (row, why) in zip(rows, whys) {
      lines.append(columns.line(row))
      lines.append("\(indent)why: \(why)")
    }
    lines.append("")
    lines.append("↓ cut-back week. Distances in \(units.rawValue); `--format json` for every detail.")
    // A long run set by time, explained with the plan's own first one.
    if let timed = plan.workouts.first(where: { $0.timeTarget != nil }), let target = timed.timeTarget {
      var text =
        "\(shortForm(timed)): a long run set by time, \(target.clock) (the long-run time cap), about "
        + units.format(timed.distance)
      if let run = target.runMinutes, let walk = target.walkMinutes {
        text += " as run/walk: run \(run) min, walk \(walk) min, repeated"
      }
      lines.append(text + ".")
    }
    if plan.workouts.contains(where: { $0.kind == .long && $0.steps.count > 1 && $0.timeTarget == nil }) {
      lines.append("long … w/ N MP (RP): the long run's last N \(units.rawValue) at marathon pace (goal race pace).")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func dayMonth(_ date: CivilDate) -> String {
    let label = date.shortLabel
    return String(label.dropFirst(4))
  }

  private func shortForm(_ workout: Workout) -> String {
    if !workout.kind.isRun {
      return "\(workout.kind == .strength ? "strength" : "cross") \(workout.durationMin) min"
    }
    let distance = units.number(workout.distance)
    let name: String =
      switch workout.kind {
      case .easy:
        workout.slot.hasPrefix("easy") || workout.slot.hasPrefix("q")
          ? (workout.title.hasPrefix("Shakeout") ? "shakeout" : "easy") : "easy"
      case .recovery: "recovery"
      case .mediumLong: "medium-long"
      case .long: "long"
      case .tempo: "tempo"
      case .intervals: "intervals"
      case .hills: "hills"
      case .fartlek: "fartlek"
      case .strides: "easy+strides"
      case .race: "RACE"
      case .crossTraining: "cross"
      case .strength: "strength"
      }
    // A long run set by time: `long 3:00 ≈25.3`, as run/walk `long 3:00 r/w 9/1 ≈24.7`.
    if let target = workout.timeTarget {
      return "\(name) \(target.clock)\(target.runWalkSuffix) ≈\(distance)"
    }
    // A long run with a marathon-pace segment or fast finish: `long 28 w/ 8 MP` (RP: goal race pace).
    if workout.kind == .long, let last = workout.steps.last, workout.steps.count > 1, last.zone != .easy {
      let km = units.number(last.distance)
      return "\(name) \(distance) w/ \(km) \(last.zone == .marathon ? "MP" : "RP")"
    }
    return "\(name) \(distance)"
  }
}
