import ArgumentParser
import Foundation
import PlanEngine

/// `runmate templates list|check`.
struct TemplatesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "templates",
    abstract: "List or check the plan templates (the training rules as data).",
    subcommands: [List.self, Check.self])

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the distances, levels and workouts the templates define.")
    @OptionGroup var templates: TemplateOptions

    func run() throws {
      let directory = try templates.directory()
      let rules = try templates.loadRules(from: directory)
      var lines = ["Templates in \(directory)", ""]
      lines.append("distance  level         weeks (min/recommended)  start km/wk  peak km/wk  peak long run  runs/wk")
      for name in ["5k", "10k", "15k", "half", "marathon"] {
        guard let distance = rules.distances[name] else { continue }
        for level in Level.allCases {
          let l = distance.levels[level]
          let minimum = distance.minimumWeeks[level]
          let long = l.peakLongRunKm.lower == l.peakLongRunKm.upper
            ? "\(formatNumber(l.peakLongRunKm.lower)) km" : "\(formatNumber(l.peakLongRunKm.lower))–\(formatNumber(l.peakLongRunKm.upper)) km"
          lines.append([pad(name, 8), pad(level.rawValue, 12), pad("\(minimum.absolute)/\(minimum.recommended)", 23),
                        pad(formatNumber(l.startWeeklyKm), 11), pad(formatNumber(l.peakWeeklyKm), 10), pad(long, 13),
                        String(l.runsPerWeek)].joined(separator: "  "))
        }
      }
      lines.append("")
      lines.append("Workouts: " + rules.workouts.keys.sorted().joined(separator: ", "))
      lines.append("10mi uses the 15k rules.")
      try writeStandardOutput(lines.joined(separator: "\n") + "\n")
    }
  }

  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Validate a templates directory; exit 65 on the first problem.")
    @Argument(help: "Templates directory (default: the one runmate uses).") var directory: String?
    @OptionGroup var templates: TemplateOptions

    func run() throws {
      let directory = try self.directory ?? templates.directory()
      let rules = try templates.loadRules(from: directory)
      try writeStandardOutput("ok: \(directory): \(rules.sources.count) files, \(rules.distances.count) distances, "
        + "\(rules.workouts.count) workouts\n")
    }
  }
}

func formatNumber(_ value: Double) -> String {
  value == value.rounded() ? String(Int(value)) : String(value)
}

func pad(_ text: String, _ width: Int) -> String {
  text + String(repeating: " ", count: max(0, width - text.count))
}
