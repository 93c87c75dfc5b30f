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
    let profile = try db.profile(named: nil)
    // The workouts on their scheduled days (moved, dropped, blackout days kept free), as on the calendar.
    let state = try TrainingState.read(saved, db: db, profile: profile)
    let today = try clock.today(inZone: localZone(profile: profile, state: state))
    let runs = try db.completions()
    var lines: [String] = []
    if let workout = state.plan.workouts.first(where: { $0.date == today }) {
      let done = runs.contains { $0.workoutID == workout.id }
      let weight = profile?.weightKg
      let energy = weight.map { " · about \(wholeNumber($0 * workout.distanceKm)) kcal" } ?? ""
      let time = state.workouts.first { $0.workoutID == workout.id }?.startText.map { " at \($0)" } ?? ""
      lines.append("Today, \(today.shortLabel): \(workout.title)\(time)\(energy)\(done ? " (done, well run!)" : "")")
      lines.append(workout.description)
    } else if today < saved.plan.goal.start {
      lines.append("The plan starts on \(saved.plan.goal.start.shortLabel).")
    } else if today > saved.plan.goal.raceDate {
      lines.append("The plan ended with the race on \(saved.plan.goal.raceDate.shortLabel).")
    } else {
      lines.append("Today, \(today.shortLabel): rest day. Recovery is training too.")
    }
    if let next = state.plan.workouts.first(where: { $0.date > today }) {
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
    let profile = try db.profile(named: nil)
    let state = try TrainingState.read(saved, db: db, profile: profile)
    let scheduled = state.plan
    let today = try clock.today(inZone: localZone(profile: profile, state: state))
    guard let week = scheduled.weeks.first(where: { $0.start <= today && today <= $0.start.adding(days: 6) }) else {
      try writeText("No plan week contains \(today.shortLabel) (the plan runs \(saved.plan.goal.start) to "
        + "\(saved.plan.goal.raceDate)).\n")
      return
    }
    let runs = try db.completions()
    let report = makeProgress(plan: scheduled, completions: runs, today: today)
    guard let progress = report.weeks.first(where: { $0.number == week.number }) else { return }
    var lines = ["Week \(week.number) of \(saved.plan.goal.weeks) (\(week.phase.rawValue)\(week.cutback ? ", cut-back" : "")): "
      + "\(oneDecimal(progress.doneKm)) of \(oneDecimal(week.plannedKm)) km, \(progress.doneSessions) of "
      + "\(progress.plannedSessions) sessions done"]
    if let rule = week.rules.first { lines.append("Why: \(rule)") }
    let matched = Set(runs.compactMap(\.workoutID))
    let times = Dictionary(state.workouts.compactMap { item in item.startText.map { (item.workoutID, $0) } },
                           uniquingKeysWith: { first, _ in first })
    for workout in week.workouts {
      let mark = matched.contains(workout.id) ? "✔" : workout.date < today ? "✘" : workout.date == today ? "→" : " "
      let time = times[workout.id].map { "\($0)  " } ?? ""
      lines.append("  \(mark) \(workout.date.shortLabel)  \(time)\(workout.title)")
    }
    try writeText(lines.joined(separator: "\n") + "\n")
  }
}

/// The zone of the runner's local day: the profile's, else the plan's saved settings'; nil (the old clock) when
/// neither names one.
func localZone(profile: Profile?, state: TrainingState) -> String? {
  profile?.timeZone ?? state.stored?.timeZone
}
