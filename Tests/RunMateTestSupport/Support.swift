import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

// Shared by the test targets: the repository, its real templates, goals with fixed dates.

/// The repository root, found from this file's path.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Reads every template file in `directory` (default: the repository's `plan-templates/`).
public func templateFiles(in directory: URL = repositoryRoot.appendingPathComponent("plan-templates")) throws
  -> [TemplateFile]
{
  try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }.sorted().map {
    TemplateFile(
      name: "plan-templates/\($0)",
      text: try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8))
  }
}

/// The repository's real rules, loaded once.
public let repositoryRules: PlanRules = {
  do {
    return try PlanRules(files: try templateFiles())
  } catch {
    fatalError("plan-templates/ does not load: \(error)")
  }
}()

/// The error the repository's templates give with `old` replaced by `new` in base.yaml (which must hold `old`), nil
/// when they still load.
public func baseRulesError(replacing old: String, with new: String) throws -> (any Error)? {
  var files = try templateFiles()
  guard let index = files.firstIndex(where: { $0.name.hasSuffix("base.yaml") }), files[index].text.contains(old) else {
    throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "base.yaml has no '\(old)'"])
  }
  files[index].text = files[index].text.replacingOccurrences(of: old, with: new)
  do {
    _ = try PlanRules(files: files)
    return nil
  } catch {
    return error
  }
}

/// A fixed Monday for timelines in tests.
public let testStart = CivilDate(iso: "2027-01-04") ?? CivilDate(dayNumber: 0)

/// A goal with a `weeks`-week timeline from `testStart`.
public func goal(
  _ distance: RaceDistance, _ level: Level, weeks: Int, runs: Int? = nil, currentKm: Double? = nil,
  longestKm: Double? = nil, recentRace: RecentRace? = nil
) -> Goal {
  Goal(
    distance: distance, level: level,
    timeline: Timeline(start: testStart, raceDate: testStart.adding(days: 7 * weeks - 1), weeks: weeks),
    runsPerWeek: runs, currentWeeklyKm: currentKm, longestRecentRunKm: longestKm, recentRace: recentRace)
}

extension TrainingStore {
  /// Saves a plan now (the wall clock): the store tests' shorthand, where the day a plan is saved plays no part. The
  /// use cases pass their own `now` (``TrainingStore/savePlan(_:name:activate:schedule:replacing:savedAt:)``).
  public func savePlan(
    _ plan: Plan, name: String, activate: Bool,
    schedule: (settings: ScheduleSettings?, workouts: [DatedWorkout])? = nil, replacing: Bool = true
  ) throws(LogbookError) -> SavedPlan {
    try savePlan(plan, name: name, activate: activate, schedule: schedule, replacing: replacing, savedAt: Date())
  }
}
