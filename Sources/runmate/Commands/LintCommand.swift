import ArgumentParser
import Foundation
import PlanEngine
import Training

/// `runmate lint FILE`: judges a plan (a runmate plan, or a calendar-hack YAML plan) with the engine's own rules.
struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check a plan against the training rules: ramp, long-run spikes, cut-backs, taper, week shape.",
    discussion: """
      FILE is a runmate plan (`runmate plan --format json`, or `runmate plans export`) or a plan in \
      calendar-hack's YAML schema (weeks of seven workouts, Monday to Sunday, the race on the last day). \
      Exit status: 0 when the plan is clean, 1 when there are findings, 65 when FILE is not a plan, 66 when it \
      is missing.

      Examples:
        runmate plan --distance half --level beginner --weeks 12 \\
          --format json > half.json
        runmate lint half.json
        runmate lint higdon_nov_mara1.yaml --format json
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

  @Argument(help: "The plan file.", completion: .file())
  var file: String

  @Option(
    name: .long, help: "Output format: text or json.", completion: .list(Format.allCases.map(\.rawValue)),
    transform: Format.named)
  var format: Format = .text

  @Option(name: .long, help: "The race distance, when the file does not say it (it selects the taper rules).")
  var distance: String?

  @OptionGroup var templates: TemplateOptions

  func run() throws {
    let race = try distance.map { distance in
      guard let parsed = RaceDistance(parsing: distance) else {
        throw CLIError.invalidOption(
          option: "--distance", value: distance, allowed: RaceDistance.allCases.map(\.rawValue).joined(separator: ", "),
          suggestion: RaceDistance.suggestion(for: distance))
      }
      return parsed
    }
    let result = try lintPlanFile(file, distance: race, rules: try templates.loadRules())
    switch format {
    case .json: try writeStandardOutput(JSONOutput.encode(result))
    case .text: try writeText(LintCommand.text(result.plan, result.findings))
    }
    // Findings are not an error: the report is on standard output, the status says the plan is not clean.
    if !result.findings.isEmpty { Foundation.exit(1) }
  }

  /// One line per finding, a blank line between weeks, and a summary line.
  static func text(_ plan: LintPlan, _ findings: [LintFinding]) -> String {
    var lines: [String] = []
    var week: Int?
    for finding in findings {
      if let week, week != finding.week { lines.append("") }
      week = finding.week
      lines.append(finding.line)
    }
    let weeks = Set(findings.map(\.week)).count
    let name = plan.name
    if findings.isEmpty {
      lines.append("\(name): clean: \(plan.weeks.count) weeks, no findings")
    } else {
      let byRule = LintRule.allCases.compactMap { rule -> String? in
        let count = findings.filter { $0.rule == rule }.count
        return count == 0 ? nil : "\(rule.rawValue) \(count)"
      }
      if !lines.isEmpty { lines.append("") }
      lines.append(
        "\(name): \(findings.count) finding\(findings.count == 1 ? "" : "s") in \(weeks) of \(plan.weeks.count) "
          + "weeks (\(byRule.joined(separator: ", ")))")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// A file `runmate lint` cannot read as a plan: one line naming the file (65).
extension LintFileProblem: RunMateError {
  var message: String { "\(terminalSafe(path)): \(terminalSafe(problem))" }
  var exitCode: Int32 { ExitCodes.dataError }
}
