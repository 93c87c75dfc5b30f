import ArgumentParser
import Foundation
import Logbook
import PlanEngine
import TrainingProgress

/// `runmate today`: today's workout, or rest.
struct TodayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "today", abstract: "Today's workout from the active plan.")
  @Option(name: .long, help: ArgumentHelp("The saved plan (default: the active plan).", valueName: "name"))
  var plan: String?
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions

  func run() throws {
    let db = try database.open()
    let saved = try db.plan(named: plan)
    let today = try clock.today()
    let runs = try db.completions()
    var lines: [String] = []
    if let workout = saved.plan.workouts.first(where: { $0.date == today }) {
      let done = runs.contains { $0.workoutID == workout.id }
      let weight = try db.profile(named: nil)?.weightKg
      let energy = weight.map { " · about \(wholeNumber($0 * workout.distanceKm)) kcal" } ?? ""
      lines.append("Today, \(today.shortLabel): \(workout.title)\(energy)\(done ? " (done, well run!)" : "")")
      lines.append(workout.description)
    } else if today < saved.plan.goal.start {
      lines.append("The plan starts on \(saved.plan.goal.start.shortLabel).")
    } else if today > saved.plan.goal.raceDate {
      lines.append("The plan ended with the race on \(saved.plan.goal.raceDate.shortLabel).")
    } else {
      lines.append("Today, \(today.shortLabel): rest day. Recovery is training too.")
    }
    if let next = saved.plan.workouts.first(where: { $0.date > today }) {
      lines.append("Next: \(next.date.shortLabel), \(next.title)")
    }
    try writeText(lines.joined(separator: "\n") + "\n")
  }
}

/// `runmate week`: this week's goal and how far along it is.
struct WeekCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "week", abstract: "This week's goal and how far along it is.")
  @Option(name: .long, help: ArgumentHelp("The saved plan (default: the active plan).", valueName: "name"))
  var plan: String?
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions

  func run() throws {
    let db = try database.open()
    let saved = try db.plan(named: plan)
    let today = try clock.today()
    guard let week = saved.plan.weeks.first(where: { $0.start <= today && today <= $0.start.adding(days: 6) }) else {
      try writeText("No plan week contains \(today.shortLabel) (the plan runs \(saved.plan.goal.start) to "
        + "\(saved.plan.goal.raceDate)).\n")
      return
    }
    let runs = try db.completions()
    let report = makeProgress(plan: saved.plan, completions: runs, today: today)
    guard let progress = report.weeks.first(where: { $0.number == week.number }) else { return }
    var lines = ["Week \(week.number) of \(saved.plan.goal.weeks) (\(week.phase.rawValue)\(week.cutback ? ", cut-back" : "")): "
      + "\(oneDecimal(progress.doneKm)) of \(oneDecimal(week.plannedKm)) km, \(progress.doneSessions) of "
      + "\(progress.plannedSessions) sessions done"]
    if let rule = week.rules.first { lines.append("Why: \(rule)") }
    let matched = Set(runs.compactMap(\.workoutID))
    for workout in week.workouts {
      let mark = matched.contains(workout.id) ? "✔" : workout.date < today ? "✘" : workout.date == today ? "→" : " "
      lines.append("  \(mark) \(workout.date.shortLabel)  \(workout.title)")
    }
    try writeText(lines.joined(separator: "\n") + "\n")
  }
}
