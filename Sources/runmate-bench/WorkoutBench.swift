import Activity
import Foundation
import PlanEngine
import RunningCore
import Training

/// The workout-file benchmark (`runmate-bench workouts DIR [ROUNDS]`, run by scripts/bench-workouts.sh): every run
/// of a plan per distance × level (recommended weeks, paces from a 10K in 50:00, so every step at pace has a speed
/// target) written as FIT workout files by our writer (``workoutFiles(of:format:from:to:targets:)``: steps, repeats,
/// targets, encoding, both CRCs) in memory, best of `rounds`, then read back by our reader
/// (``FITWorkoutFile/decode(_:file:)``), best of `rounds`; one round's files are written to `directory` for the
/// reference decoders. Prints one line the script parses:
/// `workouts: <files> files, <bytes> bytes, write best <s> s = <n> workouts/s, read best <s> s = <n> workouts/s`.
func runWorkoutBenchmark(directory: String, rounds: Int, templates: String = "plan-templates") -> Int32 {
  func fail(_ message: String, _ code: Int32) -> Int32 {
    FileHandle.standardError.write(Data("runmate-bench: \(message)\n".utf8))
    return code
  }
  let names = (try? FileManager.default.contentsOfDirectory(atPath: templates)) ?? []
  let files = names.filter { $0.hasSuffix(".yaml") }.sorted().compactMap { name -> TemplateFile? in
    let path = (templates as NSString).appendingPathComponent(name)
    return (try? String(contentsOfFile: path, encoding: .utf8)).map { TemplateFile(name: path, text: $0) }
  }
  guard let rules = try? PlanRules(files: files, directory: templates), let start = CivilDate(iso: "2027-01-04")
  else { return fail("cannot load the plan templates in \(templates)", 65) }
  var plans: [Plan] = []
  for distance in RaceDistance.allCases {
    for level in Level.allCases {
      let weeks = rules.rules(for: distance)?.minimumWeeks[level].recommended ?? 16
      let goal = Goal(
        distance: distance, level: level,
        timeline: Timeline(start: start, raceDate: start.adding(days: 7 * weeks - 1), weeks: weeks),
        recentRace: RecentRace(distanceKm: 10, timeSeconds: 50 * 60))
      if let plan = try? makePlan(goal: goal, rules: rules) { plans.append(plan) }
    }
  }
  let clock = ContinuousClock()
  var written: [[WorkoutFile]] = []
  var bestWrite = Duration.seconds(1_000_000)
  for _ in 0..<max(1, rounds) {
    let begin = clock.now
    do {
      written = try plans.map { try workoutFiles(of: $0, format: .fit) }
    } catch {
      return fail("\(error)", 65)
    }
    bestWrite = min(bestWrite, clock.now - begin)
  }
  let all = written.enumerated().flatMap { index, files in files.map { (name: "\(index)-\($0.name)", bytes: $0.bytes) }
  }
  var bestRead = Duration.seconds(1_000_000)
  var steps = 0
  for _ in 0..<max(1, rounds) {
    let begin = clock.now
    steps = 0
    for file in all {
      guard let decoded = try? FITWorkoutFile.decode(file.bytes, file: file.name) else {
        return fail("our reader refused \(file.name)", 65)
      }
      steps += decoded.steps.count
    }
    bestRead = min(bestRead, clock.now - begin)
  }
  do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for file in all {
      try Data(file.bytes).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(file.name)))
    }
  } catch {
    return fail("cannot write \(directory): \(error)", 73)
  }
  func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
  let (write, read) = (seconds(bestWrite), seconds(bestRead))
  let bytes = all.reduce(0) { $0 + $1.bytes.count }
  print(
    "workouts: \(all.count) files, \(bytes) bytes, \(steps) steps, \(plans.count) plans, "
      + "write best \(String(format: "%.4f", write)) s = \(Int((Double(all.count) / write).rounded())) workouts/s, "
      + "read best \(String(format: "%.4f", read)) s = \(Int((Double(all.count) / read).rounded())) workouts/s")
  return 0
}
