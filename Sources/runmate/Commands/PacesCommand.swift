import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate paces`: the current VDOT, where it comes from, the training paces and race predictions.
struct PacesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "paces",
    abstract: "Your current VDOT (the plan's, moved by the races you log), training paces and race predictions.",
    discussion: """
      Examples:
        runmate log 2026-12-12 --distance 10km --time 45:00 --race
        runmate paces
        runmate paces --format json
      """)

  @OptionGroup var plan: PlanSelection
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    let runner = try RunnerPlan(database, plan: plan, clock: clock)
    let (db, saved, profile, state, today) = (runner.db, runner.saved, runner.profile, runner.state, runner.today)
    let report = PacesReport(
      saved, completions: try db.completions(), rules: try templates.loadRules().base, today: today,
      profile: profile)
    switch output.format {
    case .json:
      _ = try output.chosenUnit()
      try writeStandardOutput(JSONOutput.encode(report))
    case .table:
      try writeText(PacesCommand.render(report, units: try displayUnit(output, profile: profile, state: state)))
    }
  }

  /// The report as a table, paces and distances in `units`.
  static func render(_ report: PacesReport, units: DistanceUnit) -> String {
    let tenth = { (value: Double) in String(format: "%.1f", value) }
    var lines = ["Paces of '\(terminalSafe(report.planName))' on \(report.today.shortLabel)"]
    var vdotLine = "VDOT \(tenth(report.vdot)) from \(report.sourceText)"
    if report.source == "race" || report.source == "effort" {
      vdotLine += " (the plan uses \(tenth(report.planVDOT))"
      vdotLine +=
        report.capped
        ? "; moved at most \(tenth(report.maxStepVdot)) \(report.source == "effort" ? "a run" : "a race"))" : ")"
    }
    lines.append(vdotLine)
    if let check = report.goalCheck { lines.append(check.text) }
    lines.append("")
    lines.append("Training paces:")
    for pace in report.paces {
      let text =
        pace.fast == pace.slow ? units.format(pace.fast) : formatPaceRange(pace.fast...pace.slow, perMile: units == .mi)
      lines.append("  \(pad(pace.zone, 11)) \(text)")
    }
    lines.append("")
    if let heart = report.heartRateZones {
      let model = heart.model == .karvonen ? "Karvonen, % of heart-rate reserve" : "Friel, % of lactate-threshold HR"
      lines.append("Heart-rate zones (\(model)):")
      let names: [Intensity: String] = [
        .easy: "easy", .marathon: "marathon", .threshold: "threshold", .interval: "interval", .race: "race",
      ]
      for zone in heart.zones {
        let paces = intensities(inHeartRateZone: zone.number).compactMap { names[$0] }
        let bpm = "\(zone.low)-\(zone.high) bpm"
        lines.append(
          "  Z\(zone.number) \(pad(zone.name, 9)) "
            + (paces.isEmpty ? bpm : "\(pad(bpm, 12)) \(paces.joined(separator: ", "))"))
      }
    } else {
      lines.append(
        "Heart-rate zones: none yet: the profile needs the \(report.heartRateMissing ?? "heart rates") "
          + "(`runmate profile set --max-hr 188 --resting-hr 52` or `--lthr 170`)")
    }
    lines.append("")
    lines.append("Race predictions   Daniels (VDOT \(tenth(report.vdot)))   Riegel (from \(report.riegelFrom.text))")
    for prediction in report.predictions {
      lines.append(
        "  \(pad(prediction.distance.displayName, 16)) \(pad(formatRaceTime(prediction.danielsSeconds), 20)) "
          + formatRaceTime(prediction.riegelSeconds))
    }
    let left = report.races.filter { !$0.counted }
    if !left.isEmpty {
      lines.append("")
      for race in left {
        lines.append(
          "Not counted: \(units.format(race.distance)) race on \(race.date), \(formatRaceTime(race.timeSeconds)): "
            + (race.reason ?? ""))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
