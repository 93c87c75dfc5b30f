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
      let coach = try db.requiredProfile(named: profile)
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
      let roster = try coachRoster(
        coach: profile, in: try database.open(), systemZone: TimeZone.current.identifier
      ) { zone in try clock.today(inZone: zone) }
      switch format {
      case .json: try writeStandardOutput(JSONOutput.encode(roster))
      case .table: try writeText(Self.table(roster))
      }
    }

    /// One line per athlete: the plan, the week, done of planned in the coach's unit, compliance.
    static func table(_ roster: Roster) -> String {
      let units = roster.units
      var lines = ["Athletes of \(terminalSafe(roster.coach)) on \(roster.today.shortLabel):"]
      for row in roster.athletes {
        guard let plan = row.plan else {
          lines.append("  \(terminalSafe(row.name)): no plan yet")
          continue
        }
        let week = row.week.map {
          "\(units.number($0.done)) of \(units.format($0.planned)), \($0.standing.label(nothingDue: "nothing due yet"))"
        }
        lines.append(
          "  \(terminalSafe(row.name)): \(terminalSafe(plan)), week \(row.week?.number ?? 0), "
            + (week ?? "not started"))
      }
      return lines.joined(separator: "\n") + "\n"
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show a coach with contact links.")
    @Option(name: .long, help: "The coach's profile (default: the default profile).") var profile: String?
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let db = try database.open()
      let coach = try db.requiredProfile(named: profile)
      guard coach.isCoach else { throw LogbookError.notACoach(name: coach.name) }
      try writeText(describe(coach))
    }
  }
}
