import ArgumentParser
import Foundation
import PlanEngine
import Training

/// `runmate templates list|check`.
struct TemplatesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "templates",
    abstract: "List or check the plan templates (the training rules as data).",
    subcommands: [List.self, Check.self])

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "Show the distances, levels and workouts the templates define.")
    @OptionGroup var templates: TemplateOptions

    func run() throws {
      let directory = try templates.directory()
      try writeText(List.render(templateRows(try templates.loadRules(from: directory)), directory: directory))
    }

    /// The table: a row per distance and level, then the workouts and the distance without rules of its own.
    static func render(_ table: TemplateTable, directory: String) -> String {
      var lines = ["Templates in \(terminalSafe(directory))", ""]
      lines.append("distance  level         weeks (min/recommended)  start km/wk  peak km/wk  peak long run  runs/wk")
      for row in table.rows {
        let (low, high) = (row.peakLongRunKm.lower, row.peakLongRunKm.upper)
        let long = low == high ? "\(formatNumber(low)) km" : "\(formatNumber(low))–\(formatNumber(high)) km"
        lines.append(
          [
            pad(row.distance, 8), pad(row.level.rawValue, 12), pad("\(row.minimumWeeks)/\(row.recommendedWeeks)", 23),
            pad(formatNumber(row.startWeeklyKm), 11), pad(formatNumber(row.peakWeeklyKm), 10),
            pad(long, 13), String(row.runsPerWeek),
          ].joined(separator: "  "))
      }
      lines.append("")
      lines.append("Workouts: " + table.workouts.joined(separator: ", "))
      lines.append("10mi uses the \(table.tenMilesUses) rules.")
      return lines.joined(separator: "\n") + "\n"
    }
  }

  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Validate a templates directory; exit 65 on the first problem.")
    @Argument(help: "Templates directory (default: the one runmate uses).", completion: .directory)
    var directory: String?
    @OptionGroup var templates: TemplateOptions

    func run() throws {
      let directory = try self.directory ?? templates.directory()
      let rules = try templates.loadRules(from: directory)
      try writeText(
        "ok: \(terminalSafe(directory)): \(rules.sources.count) files, \(rules.distances.count) distances, "
          + "\(rules.workouts.count) workouts\n")
    }
  }
}

/// `12`, `12.5`: whole numbers without a decimal point; huge and non-finite values as Swift prints them.
func formatNumber(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// `1234`: a count (steps, kcal) rounded to a whole number; `-` for a value that is not finite, and Swift's
/// shortest form for one too large for an integer, so no stored value can trap.
func wholeNumber(_ value: Double) -> String {
  guard value.isFinite else { return "-" }
  let rounded = value.rounded()
  return abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
}

/// The length of a chart bar, in characters: 0 to 80, 0 for a value that is not finite.
func barLength(_ value: Double) -> Int {
  guard value.isFinite else { return 0 }
  return Int(min(80, max(0, value.rounded())))
}
