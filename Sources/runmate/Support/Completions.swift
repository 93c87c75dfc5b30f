import ArgumentParser
import Foundation
import PlanEngine
import RunningCore

/// Value completions for the scripts `runmate --generate-completion-script bash|zsh|fish` writes. Each list comes
/// from the type the option's value is checked against, so a new distance or workout kind completes without
/// touching this file. Saved plan and profile names are not completed: opening the database may create or migrate
/// it, which a key press must not do.
enum Completions {
  /// `--distance`: the canonical names `RaceDistance(parsing:)` accepts (5k, 10k, 15k, 10mi, half, marathon).
  static let distance = CompletionKind.list(RaceDistance.allCases.map(\.rawValue))

  /// `--level`: beginner, intermediate, advanced.
  static let level = CompletionKind.list(Level.allCases.map(\.rawValue))

  /// `--units`: km, mi.
  static let units = CompletionKind.list(DistanceUnit.allCases.map(\.rawValue))

  /// `--kind` of a logged run: easy, long, tempo, …
  static let workoutKind = CompletionKind.list(WorkoutKind.allCases.map(\.rawValue))

  /// One weekday (`--long-run-day`, `--week-start`): mon … sun.
  static let weekday = CompletionKind.list(Weekday.allCases.map(\.rawValue))

  /// `--days mon,wed,fri`: the word typed so far, plus each weekday not yet in it.
  static let weekdays = CompletionKind.custom { _, _, prefix in weekdayLists(after: prefix) }

  /// `--tz`: the IANA zone names the scheduler checks a zone against (Foundation's known identifiers).
  static let timeZone = CompletionKind.custom { _, _, prefix in timeZones(matching: prefix) }

  /// An iCalendar file (`--out` of export, `--busy`, `--previous`, `--diff`).
  static let calendarFile = CompletionKind.file(extensions: ["ics"])

  /// The database (`--db`).
  static let databaseFile = CompletionKind.file(extensions: ["sqlite"])

  /// `--days` candidates for `prefix`: `mon,w` gives `mon,wed`; `mon,wed,` gives `mon,wed,thu`, `mon,wed,fri`, …
  static func weekdayLists(after prefix: String) -> [String] {
    let parts = prefix.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let typed = parts.dropLast()
    let head = typed.isEmpty ? "" : typed.joined(separator: ",") + ","
    let partial = parts.last ?? ""
    return Weekday.allCases.map(\.rawValue)
      .filter { !typed.contains($0) && $0.hasPrefix(partial.lowercased()) }
      .map { head + $0 }
  }

  /// Zone names starting with `prefix` (case-insensitively), sorted.
  static func timeZones(matching prefix: String) -> [String] {
    let lower = prefix.lowercased()
    return TimeZone.knownTimeZoneIdentifiers.filter { $0.lowercased().hasPrefix(lower) }.sorted()
  }
}
