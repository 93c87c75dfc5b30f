import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate coaches --search TEXT`.
struct CoachesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "coaches", abstract: "List coaches, filtered by name or specialty.")
  @Option(name: .long, help: "Text to find in the name or specialty.") var search: String?
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    let needle = search?.lowercased()
    let coaches = try database.open().profiles().filter(\.isCoach).filter { coach in
      guard let needle else { return true }
      return coach.name.lowercased().contains(needle) || (coach.specialty?.lowercased().contains(needle) ?? false)
    }
    let lines = coaches.map { coach in
      terminalSafe(coach.name) + (coach.specialty.map { " · \(terminalSafe($0))" } ?? "")
        + (coach.contactLinks.first.map { " · \(terminalSafe($0))" } ?? "")
    }
    try writeText(lines.isEmpty ? "no coaches found\n" : lines.joined(separator: "\n") + "\n")
  }
}
