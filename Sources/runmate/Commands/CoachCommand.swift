import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate coach`: a coach's athletes.
struct CoachCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "coach",
    abstract: "Coaches: add athletes, see their weekly compliance, show contact links.",
    subcommands: [AddAthlete.self, Athletes.self, Show.self])

  struct AddAthlete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add-athlete", abstract: "Add an athlete (a profile) to a coach.")
    @Argument(help: "The athlete's profile name.") var athlete: String
    @Option(name: .long, help: "The coach's profile (default: the default profile).") var profile: String?
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let db = try database.open()
      guard let coach = try db.profile(named: profile) else {
        throw LogbookError.noSuchProfile(name: "(default)", known: [])
      }
      try db.addAthlete(athlete, toCoach: coach.name)
      try writeText("'\(terminalSafe(athlete))' is now coached by '\(terminalSafe(coach.name))'\n")
    }
  }

  struct Athletes: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "athletes", abstract: "A coach's athletes and their compliance this week.")
    @Option(name: .long, help: "The coach's profile (default: the default profile).") var profile: String?
    @Option(
      name: .long, help: "Output format: table or json (runmate.athletes/1).",
      completion: .list(OutputOptions.Format.allCases.map(\.rawValue)), transform: OutputOptions.Format.named)
    var format: OutputOptions.Format = .table
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var clock: ClockOptions

    func run() throws {
      let db = try database.open()
      guard let coach = try db.profile(named: profile) else {
        throw LogbookError.noSuchProfile(name: "(default)", known: [])
      }
      let today = try clock.today(inZone: coach.timeZone)
      let runs = try db.completions()
      var rows: [AthleteRow] = []
      for athlete in try db.athletes(ofCoach: coach.name) {
        guard let id = athlete.id, let saved = try db.plans(ofProfile: id).first else {
          rows.append(AthleteRow(name: athlete.name, plan: nil, planID: nil, week: nil))
          continue
        }
        // This week as the athlete's scheduled workouts have it, on the athlete's local day.
        let state = try TrainingState.read(saved, db: db, profile: athlete)
        let day = try clock.today(inZone: athlete.timeZone ?? coach.timeZone)
        let report = state.progress(runs.filter { $0.planID == saved.id }, today: day)
        rows.append(
          AthleteRow(
            name: athlete.name, plan: saved.name, planID: saved.id,
            week: report.weeks.last { $0.start <= day }))
      }
      switch format {
      case .json:
        try writeStandardOutput(JSONOutput.encode(AthletesDocument(coach: coach.name, today: today, athletes: rows)))
      case .table:
        var lines = ["Athletes of \(terminalSafe(coach.name)) on \(today.shortLabel):"]
        for row in rows {
          guard let plan = row.plan else {
            lines.append("  \(terminalSafe(row.name)): no plan yet")
            continue
          }
          let week = row.week.map {
            "\(oneDecimal($0.doneKm)) of \(oneDecimal($0.plannedKm)) km, \($0.compliancePercent ?? 0) %"
          }
          lines.append(
            "  \(terminalSafe(row.name)): \(terminalSafe(plan)), week \(row.week?.number ?? 0), "
              + (week ?? "not started"))
        }
        try writeText(lines.joined(separator: "\n") + "\n")
      }
    }
  }

  /// One athlete's line: the plan and this week's progress (nil before the plan starts).
  struct AthleteRow: Encodable {
    var name: String
    var plan: String?
    var planID: String?
    var week: WeekProgress?

    enum CodingKeys: String, CodingKey {
      case name, plan, week
      case planID = "plan_id"
      case weekStart = "week_start"
      case plannedKm = "planned_km"
      case doneKm = "done_km"
      case compliancePercent = "compliance_percent"
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(plan, forKey: .plan)
      try container.encode(planID, forKey: .planID)
      try container.encode(week?.number, forKey: .week)
      try container.encode(week?.start, forKey: .weekStart)
      try container.encode(week?.plannedKm, forKey: .plannedKm)
      try container.encode(week?.doneKm, forKey: .doneKm)
      try container.encode(week?.compliancePercent, forKey: .compliancePercent)
    }
  }

  /// `runmate.athletes/1`.
  struct AthletesDocument: Encodable {
    var schema = "runmate.athletes/1"
    var coach: String
    var today: CivilDate
    var athletes: [AthleteRow]
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show a coach with contact links.")
    @Option(name: .long, help: "The coach's profile (default: the default profile).") var profile: String?
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let db = try database.open()
      guard let coach = try db.profile(named: profile) else {
        throw LogbookError.noSuchProfile(name: "(default)", known: [])
      }
      guard coach.isCoach else { throw LogbookError.notACoach(name: coach.name) }
      try writeText(describe(coach))
    }
  }
}
