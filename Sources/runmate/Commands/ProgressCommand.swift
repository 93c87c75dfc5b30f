import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate progress`: planned against done, week by week.
struct ProgressCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "progress",
    abstract: "Planned against done, week by week, with a chart of the last weeks.")

  @Option(name: .long, help: ArgumentHelp("How many weeks up to this one (default: 8).", valueName: "n"))
  var weeks: Int = 8
  @OptionGroup var plan: PlanSelection
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    guard (1...60).contains(weeks) else {
      throw CLIError.invalidOption(option: "--weeks", value: String(weeks), allowed: "1 to 60", suggestion: nil)
    }
    let runner = try RunnerPlan(database, plan: plan, clock: clock)
    let (db, saved, profile, state, today) = (runner.db, runner.saved, runner.profile, runner.state, runner.today)
    let profileName = profile?.name ?? ""
    let report = state.progress(
      try db.completions(), today: today, health: try db.healthDays(profile: profileName))
    switch output.format {
    case .json:
      _ = try output.chosenUnit()
      try writeStandardOutput(JSONOutput.encode(report))
    case .table:
      try writeText(render(report, name: saved.name, units: try displayUnit(output, profile: profile, state: state)))
    }
  }

  func render(_ report: ProgressReport, name: String, units: DistanceUnit) -> String {
    let current = report.weeks.lastIndex { $0.start <= report.today } ?? 0
    let shown = report.weeks[max(0, current - weeks + 1)...current]
    let scale = max(1, shown.map { max($0.planned, $0.done).kilometers }.filter(\.isFinite).max() ?? 1)
    var lines = ["Progress of '\(terminalSafe(name))' on \(report.today.shortLabel)", ""]
    lines.append(
      [
        pad("Wk", 3), pad("Phase", 6), pad("Planned", 9), pad("Done", 9), pad("Sessions", 8),
        pad("Compliance", 10), pad("Longest", 8), "Easy pace",
      ].joined(separator: "  "))
    for week in shown {
      let pace = week.averageEasyPace.map(units.format) ?? "-"
      lines.append(
        [
          pad(String(week.number), 3), pad(week.phase.rawValue, 6), pad(units.format(week.planned), 9),
          pad(units.format(week.done), 9), pad("\(week.doneSessions)/\(week.plannedSessions)", 8),
          pad(week.standing.label(nothingDue: "-"), 10),
          pad(units.format(week.longestRun), 8), pace,
        ]
        .joined(separator: "  "))
    }
    let withHealth = shown.filter { $0.steps != nil }
    if !withHealth.isEmpty {
      lines.append("")
      for week in withHealth {
        lines.append(
          "W\(week.number): \(wholeNumber(week.steps ?? 0)) steps, "
            + "\(wholeNumber(week.activeKcal ?? 0)) kcal active energy")
      }
    }
    lines.append("")
    lines.append("Planned ░ against done █ (\(units.rawValue)):")
    for week in shown {
      let width = 40.0
      let planned = barLength(week.planned.kilometers / scale * width)
      let done = barLength(week.done.kilometers / scale * width)
      lines.append(
        "W\(pad(String(week.number), 3)) " + String(repeating: "█", count: min(done, planned))
          + String(repeating: done > planned ? "█" : "░", count: abs(planned - done)) + " \(units.format(week.done))")
    }
    lines.append("")
    // Ratios of absurd stored runs can be nan or inf: those are left out rather than printed.
    let monotony = report.monotony.flatMap { $0.isFinite ? $0 : nil }
    lines.append(
      "Streak: \(report.currentStreakDays) day(s)"
        + (loadSummary(report).map { " · \($0)" } ?? "")
        + (monotony.map { String(format: " · monotony %.2f", $0) } ?? "") + " (information, not a rule)")
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Fitness, fatigue, form and the weekly fitness ramp in words (`fitness 28 · fatigue 32 · form +2 · fitness +0.2 a
/// week`), saying when the load came from heart rate; nil before the first run.
func loadSummary(_ report: ProgressReport) -> String? {
  guard let fitness = report.fitness, let fatigue = report.fatigue, let form = report.form,
    let ramp = report.fitnessRampPerWeek
  else { return nil }
  return "fitness \(Int(fitness.rounded())) · fatigue \(Int(fatigue.rounded())) · form "
    + "\(signed(form, digits: 0)) · fitness \(signed(ramp, digits: 1)) a week"
    + (report.loadSource == .heartRate ? " (load from heart rate)" : "")
}

/// `+3`, `-10`, `0` (never `-0`), or with `digits` decimals.
private func signed(_ value: Double, digits: Int) -> String {
  let text = String(format: "%.\(digits)f", value)
  if Double(text) == 0 { return String(format: "%.\(digits)f", 0.0) }
  return value > 0 ? "+" + text : text
}

extension WeekProgress.Standing {
  /// The standing as the terminal writes it, `nothingDue` in the caller's words (a table's "-", a sentence's
  /// "nothing due yet").
  func label(nothingDue: String) -> String {
    switch self {
    case .paused: "paused"
    case .percent(let percent): "\(percent) %"
    case .nothingDue: nothingDue
    }
  }
}
