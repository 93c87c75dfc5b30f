import Activity
import CalendarExport
import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training

/// A 10K in 50:00: paces known, so every step at pace has a target.
private let tenK50 = RecentRace(distanceKm: 10, timeSeconds: 50 * 60)

/// Every distance × level at its recommended weeks, with paces; and a half without a race (no paces).
private func samplePlans() -> [Plan] {
  var plans: [Plan] = []
  for distance in RaceDistance.allCases {
    for level in Level.allCases {
      let weeks = repositoryRules.rules(for: distance)?.minimumWeeks[level].recommended ?? 16
      if let plan = try? makePlan(
        goal: goal(distance, level, weeks: weeks, recentRace: tenK50), rules: repositoryRules)
      {
        plans.append(plan)
      }
    }
  }
  if let plan = try? makePlan(goal: goal(.half, .beginner, weeks: 14), rules: repositoryRules) { plans.append(plan) }
  return plans
}

/// The steps a watch runs: repeat steps followed, as the FIT protocol defines them.
private func expanded(_ steps: [FITWorkoutStep]) -> [FITWorkoutStep] {
  var result: [FITWorkoutStep] = []
  var left: [Int: UInt32] = [:]
  var index = 0
  while index < steps.count, result.count < 10_000 {
    if case .repeatSteps(let from, let count) = steps[index].duration {
      let remaining = (left[index] ?? count) - 1
      if remaining > 0 {
        left[index] = remaining
        index = Int(from)
      } else {
        left[index] = nil
        index += 1
      }
      continue
    }
    result.append(steps[index])
    index += 1
  }
  return result
}

/// The plan's steps in the order they are run: a work step done N times takes its recovery between (N − 1 times)
/// or after each (N times).
private func runOrder(_ steps: [WorkoutStep]) -> [WorkoutStep] {
  var result: [WorkoutStep] = []
  var index = 0
  while index < steps.count {
    let step = steps[index]
    if index + 1 < steps.count, steps[index + 1].kind == .recovery, step.repeat > 1 {
      let recovery = steps[index + 1]
      for rep in 0..<step.repeat {
        result.append(step)
        if rep < recovery.repeat { result.append(recovery) }
      }
      index += 2
      continue
    }
    result += Array(repeating: step, count: step.repeat)
    index += 1
  }
  return result
}

private func week(of workout: Workout, in plan: Plan) -> Int {
  plan.weeks.first { $0.workouts.contains(workout) }?.number ?? 0
}

/// Checks one workout's FIT file against its plan: same steps in the run order, each its plan step's time or
/// distance, the total distance the workout's, every step at pace with a speed target around that pace.
private func checkAgainstPlan(_ decoded: FITWorkoutFile, _ workout: Workout) {
  let run = expanded(decoded.steps)
  let planned = runOrder(workout.steps)
  #expect(run.count == planned.count, "\(workout.id): \(run.count) steps run, the plan has \(planned.count)")
  guard run.count == planned.count else { return }
  var km = 0.0
  for (fit, step) in zip(run, planned) {
    switch fit.duration {
    case .milliseconds(let ms):
      #expect(Int(ms) == step.durationSeconds * 1000, "\(workout.id) \(step)")
      km += step.distanceKm
    case .centimeters(let cm):
      #expect(abs(Double(cm) / 100_000 - step.distanceKm) < 1e-6, "\(workout.id) \(step)")
      km += Double(cm) / 100_000
    default: Issue.record("\(workout.id): a \(fit.duration) step")
    }
    if let pace = step.pace {
      guard case .speed(let low, let high) = fit.target else {
        Issue.record("\(workout.id): step at \(pace) has no speed target")
        continue
      }
      #expect(low < high && low > 1000 && high < 10_000, "\(workout.id): \(low)-\(high) mm/s for \(pace)")
    } else {
      #expect(fit.target == .open, "\(workout.id): a step without a pace has a target")
    }
  }
  // Steps are rounded to 10 m and the workout to 100 m.
  #expect(abs(km - workout.distanceKm) <= 0.06 + 0.005 * Double(planned.count), "\(workout.id): \(km) km")
}

@Suite("Workouts as FIT files and intervals.icu text (issue 25)", .tags(.endToEnd))
struct WorkoutFileTests {
  /// Every run of every sampled plan, written and read back with the project's own reader: the same file, and the
  /// steps the plan has.
  @Test(.timeLimit(.minutes(1))) func everyWorkoutReadsBackAsThePlanSaysIt() throws {
    let plans = samplePlans()
    #expect(plans.count >= 10)
    var count = 0
    for plan in plans {
      let files = try workoutFiles(of: plan, format: .fit)
      let runs = plan.workouts.filter { $0.kind != .crossTraining && $0.kind != .strength }
      #expect(files.count == runs.count)
      for (file, workout) in zip(files, runs) {
        #expect(file.workoutID == workout.id)
        let decoded = try FITWorkoutFile.decode(file.bytes, file: file.name)
        let expected = try fitWorkout(workout, week: week(of: workout, in: plan))
        #expect(decoded == expected)
        #expect(decoded.name.utf8.count < FITWorkoutFile.nameBytes && decoded.name.hasPrefix("W"))
        checkAgainstPlan(decoded, workout)
        count += 1
      }
    }
    #expect(count > 500)
  }

  /// Garmin's own decoder (garmin-fit-sdk) reads every run of a plan per distance × level: integrity true, no
  /// errors, the same steps, repeats and speed targets; fitdecode reads the same steps.
  @Test(.timeLimit(.minutes(1))) func garminsDecoderReadsEveryWorkout() throws {
    guard hasPython3 else { return }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var expected: [String: FITWorkoutFile] = [:]
    let plans = samplePlans()
    // The plans by pace, and the first one by heart rate and by both (heart-rate targets as Garmin reads them).
    let zones = HeartRateZones(resting: 52, maximum: 188, threshold: nil)
    let runs =
      plans.enumerated().map { ("\($0.offset)", $0.element, StepTargets.pace) }
      + [
        ("hr", plans[0], StepTargets(zones: zones, targets: .hr)),
        ("both", plans[0], StepTargets(zones: zones, targets: .both)),
      ]
    for (label, plan, targets) in runs {
      for file in try workoutFiles(of: plan, format: .fit, targets: targets) {
        let name = "\(label)-\(file.name)"
        try Data(file.bytes).write(to: directory.appendingPathComponent(name))
        expected[name] = try FITWorkoutFile.decode(file.bytes, file: name)
      }
    }
    #expect(expected.values.contains { $0.steps.contains { if case .heartRate = $0.target { true } else { false } } })
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments =
      [repositoryRoot.appendingPathComponent("scripts/fit_workout_check.py").path]
      + expected.keys.sorted().map { directory.appendingPathComponent($0).path }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if errorText.contains("No module named 'garmin_fit_sdk'") {
      Issue.record("garmin-fit-sdk is not installed: run scripts/setup.sh")
      return
    }
    #expect(process.terminationStatus == 0, "\(errorText)")
    var read = 0
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let path = try #require(json["file"] as? String)
      let file = try #require(expected[(path as NSString).lastPathComponent])
      #expect(json["integrity"] as? Bool == true, "\(path)")
      #expect((json["errors"] as? [Any])?.isEmpty == true, "\(path): \(json["errors"] ?? "")")
      #expect(json["type"] as? String == "workout" && json["sport"] as? String == "running", "\(path)")
      #expect(json["name"] as? String == file.name)
      #expect(json["num_valid_steps"] as? Int == file.steps.count)
      let steps = try #require(json["steps"] as? [[String: Any]])
      #expect(steps.count == file.steps.count, "\(path)")
      for (garmin, step) in zip(steps, file.steps) {
        switch step.duration {
        case .milliseconds(let ms):
          #expect(garmin["duration"] as? String == "time")
          #expect(abs((garmin["seconds"] as? Double ?? -1) - Double(ms) / 1000) < 1e-6, "\(path) \(garmin)")
        case .centimeters(let cm):
          #expect(garmin["duration"] as? String == "distance")
          #expect(abs((garmin["meters"] as? Double ?? -1) - Double(cm) / 100) < 1e-6, "\(path) \(garmin)")
        case .repeatSteps(let from, let count):
          #expect(garmin["duration"] as? String == "repeat_until_steps_cmplt")
          #expect(garmin["from"] as? Int == Int(from) && garmin["count"] as? Int == Int(count), "\(path) \(garmin)")
        case .open: #expect(garmin["duration"] as? String == "open")
        }
        if case .speed(let low, let high) = step.target {
          #expect(garmin["target"] as? String == "speed")
          #expect(abs((garmin["low"] as? Double ?? -1) - Double(low) / 1000) < 1e-6, "\(path) \(garmin)")
          #expect(abs((garmin["high"] as? Double ?? -1) - Double(high) / 1000) < 1e-6, "\(path) \(garmin)")
        }
        if case .heartRate(let low, let high) = step.target {
          // The SDK gives custom heart rates as stored: bpm + 100.
          #expect(garmin["target"] as? String == "heart_rate")
          #expect(garmin["low_bpm"] as? Int == Int(low) + 100, "\(path) \(garmin)")
          #expect(garmin["high_bpm"] as? Int == Int(high) + 100, "\(path) \(garmin)")
        }
      }
      // fitdecode reads the same file the same way: both CRCs, no error, the same name and steps.
      guard let other = json["fitdecode"] as? [String: Any] else {
        Issue.record("fitdecode is not installed: run scripts/setup.sh")
        return
      }
      #expect((other["errors"] as? [Any])?.isEmpty == true, "\(path): \(other["errors"] ?? "")")
      #expect(other["name"] as? String == file.name)
      #expect((other["steps"] as? NSArray)?.isEqual(to: steps) == true, "\(path): fitdecode \(other["steps"] ?? "")")
      read += 1
    }
    #expect(read == expected.count)
  }

  /// Three workouts byte for byte: an easy run, intervals with repeats and a long run with a race-pace finish
  /// (`RUNMATE_UPDATE_GOLDENS=1` rewrites them).
  @Test func goldenFiles() throws {
    let plan = try makePlan(
      goal: goal(.marathon, .intermediate, weeks: 18, recentRace: tenK50), rules: repositoryRules)
    let easy = try #require(plan.workouts.first { $0.kind == .easy && $0.steps.count == 1 })
    let intervals = try #require(
      plan.workouts.first { $0.kind == .intervals && $0.steps.contains { $0.kind == .recovery } })
    let finish = try #require(
      plan.workouts.first { $0.kind == .long && $0.steps.count == 2 && $0.steps[1].zone != .easy })
    let folder = repositoryRoot.appendingPathComponent("examples/workouts")
    let update = ProcessInfo.processInfo.environment["RUNMATE_UPDATE_GOLDENS"] == "1"
    for (name, workout) in [("easy", easy), ("intervals", intervals), ("long-run-race-pace-finish", finish)] {
      let fit = try fitWorkout(workout, week: week(of: workout, in: plan)).encoded()
      let icu = try icuWorkout(workout, week: week(of: workout, in: plan))
      let fitURL = folder.appendingPathComponent("\(name).fit")
      let icuURL = folder.appendingPathComponent("\(name).txt")
      if update {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(fit).write(to: fitURL)
        try Data(icu.utf8).write(to: icuURL)
        continue
      }
      #expect(Array(try Data(contentsOf: fitURL)) == fit, "\(name).fit differs from examples/workouts")
      try expectMatchesGolden(icu, icuURL)
    }
  }

  /// A strides run is an easy run with strides at its end: its easy running is "Easy" on the watch (an active step,
  /// not a warm-up), in intervals.icu (no Warmup header) and in the calendar, while a tempo keeps its warm-up.
  @Test func aStridesRunsEasyPartIsNotAWarmUp() throws {
    let plan = try makePlan(goal: goal(.fiveK, .intermediate, weeks: 10, recentRace: tenK50), rules: repositoryRules)
    let strides = try #require(plan.workouts.first { $0.kind == .strides && $0.steps.count > 1 })
    let number = week(of: strides, in: plan)
    let fit = try FITWorkoutFile.decode(fitWorkout(strides, week: number).encoded(), file: "strides.fit")
    #expect(fit.steps.first?.name == "Easy")
    #expect(fit.steps.first?.intensity == .active)
    #expect(!fit.steps.contains { $0.intensity == .warmup })
    let icu = try icuWorkout(strides, week: number)
    #expect(!icu.contains("Warmup"), "\(icu)")
    let lines = stepLines(strides)
    #expect(lines.first?.hasPrefix("Easy ") == true, "\(lines)")
    #expect(!lines.contains { $0.contains("Warm-up") }, "\(lines)")
    let tempo = try #require(plan.workouts.first { $0.kind == .tempo && $0.steps.first?.kind == .warmup })
    #expect(stepLines(tempo).first?.hasPrefix("Warm-up ") == true)
    let tempoFIT = try FITWorkoutFile.decode(fitWorkout(tempo, week: 1).encoded(), file: "tempo.fit")
    #expect(tempoFIT.steps.first?.intensity == .warmup)
  }

  /// A workout of `steps` (as the plan JSON writes one; the model has no public memberwise initializer).
  private func workout(_ steps: [[String: Any]]) throws -> Workout {
    let km = steps.reduce(0.0) { $0 + ($1["distance_km"] as? Double ?? 0) * Double($1["repeat"] as? Int ?? 1) }
    let json: [String: Any] = [
      "id": "p-w01-q1", "slot": "q1", "date": "2027-01-12", "kind": "intervals", "distance_km": km,
      "duration_min": 60, "hard": true, "title": "Intervals 8 km: 5 × 800 m", "description": "", "steps": steps,
    ]
    return try JSONDecoder().decode(Workout.self, from: JSONSerialization.data(withJSONObject: json))
  }

  private func step(
    _ kind: String, km: Double, seconds: Int, pace: String? = "4:30-4:40/km", repeat count: Int = 1
  ) -> [String: Any] {
    var step: [String: Any] = [
      "kind": kind, "distance_km": km, "duration_min": seconds / 60, "duration_s": seconds, "effort": "hard",
      "zone": kind == "work" ? "I" : "E", "repeat": count,
    ]
    if let pace { step["pace"] = pace }
    return step
  }

  @Test func hostileWorkoutsGiveClearErrors() throws {
    // 200 steps: more than a watch takes.
    let many = try workout((0..<200).map { _ in step("work", km: 0.4, seconds: 90) })
    #expect(throws: WorkoutFileError.tooManySteps(workout: "p-w01-q1", count: 200, maximum: 100)) {
      try fitWorkout(many, week: 1)
    }
    // A step of no length, and one done 0 times.
    let empty = try workout([step("warmup", km: 2, seconds: 700), step("work", km: 0, seconds: 0)])
    #expect(throws: WorkoutFileError.emptyStep(workout: "p-w01-q1", step: 2)) { try fitWorkout(empty, week: 1) }
    let never = try workout([step("work", km: 0.8, seconds: 200, repeat: 0)])
    #expect(throws: WorkoutFileError.emptyStep(workout: "p-w01-q1", step: 1)) { try icuWorkout(never, week: 1) }
    // A pace that is not a pace.
    let bad = try workout([step("work", km: 0.8, seconds: 200, pace: "fast/km")])
    #expect(throws: WorkoutFileError.badPace(workout: "p-w01-q1", step: 1, pace: "fast/km")) {
      try fitWorkout(bad, week: 1)
    }
    #expect("\(WorkoutFileError.badPace(workout: "p-w01-q1", step: 1, pace: "fast/km"))".contains("m:ss-m:ss/km"))
    // No paces at all: open targets, the steps still there.
    let open = try workout([
      step("warmup", km: 2, seconds: 700, pace: nil), step("work", km: 0.8, seconds: 200, pace: nil, repeat: 5),
      step("recovery", km: 0.25, seconds: 90, pace: nil, repeat: 4), step("cooldown", km: 1.5, seconds: 540, pace: nil),
    ])
    let file = try fitWorkout(open, week: 1)
    #expect(file.steps.allSatisfy { $0.target == .open })
    #expect(expanded(file.steps).count == 1 + 5 + 4 + 1)
    #expect(file.steps.contains { $0.duration == .repeatSteps(fromStep: 1, count: 4) })
    let text = try icuWorkout(open, week: 1)
    #expect(text.contains("4x\n- 800mtr Z5 Pace\n- 1m30s Z2 Pace\n\n- 800mtr Z5 Pace"), "\(text)")
    // A range the wrong way round.
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: repositoryRules)
    let day = CivilDate(year: 2027, month: 1, day: 12)!
    #expect(throws: WorkoutFileError.badRange(from: day, to: day.adding(days: -1))) {
      try workoutFiles(of: plan, format: .fit, from: day, to: day.adding(days: -1))
    }
  }

  /// Prescribed by heart rate: with `hr` every step but repetitions carries its zone's bpm (easy running a cap from
  /// the bottom of Z1 to the top of Z2), with `both` easy running by heart rate and quality by pace; the icu text
  /// says `Z2 HR`.
  @Test func heartRateTargetsFollowTheRunnersChoice() throws {
    let zones = try #require(HeartRateZones(resting: 52, maximum: 188, threshold: nil))
    let plan = try makePlan(
      goal: goal(.marathon, .intermediate, weeks: 18, recentRace: tenK50), rules: repositoryRules)
    let intervals = try #require(
      plan.workouts.first { $0.kind == .intervals && $0.steps.contains { $0.kind == .recovery } })
    let easy = try #require(plan.workouts.first { $0.kind == .easy && $0.steps.count == 1 })
    let number = week(of: intervals, in: plan)

    let byHeart = try fitWorkout(intervals, week: number, targets: StepTargets(zones: zones, targets: .hr))
    let warmup = try #require(byHeart.steps.first)
    #expect(warmup.target == .heartRate(lowBPM: 120, highBPM: 146), "\(warmup)")
    let work = try #require(byHeart.steps.first { $0.intensity == .active })
    #expect(work.target == .heartRate(lowBPM: 174, highBPM: 188), "interval steps are Z5: \(work)")
    let decoded = try FITWorkoutFile.decode(byHeart.encoded(), file: "hr.fit")
    #expect(decoded == byHeart)

    let mixed = try fitWorkout(intervals, week: number, targets: StepTargets(zones: zones, targets: .both))
    #expect(mixed.steps.first?.target == .heartRate(lowBPM: 120, highBPM: 146))
    let quality = try #require(mixed.steps.first { $0.intensity == .active })
    guard case .speed = quality.target else {
      Issue.record("with both, quality stays by pace: \(quality)")
      return
    }
    let easyText = try icuWorkout(
      easy, week: week(of: easy, in: plan), targets: StepTargets(zones: zones, targets: .both))
    #expect(easyText.contains("Z2 HR") && !easyText.contains("/km"), "\(easyText)")
    // Without zones the choice falls back to pace.
    #expect(StepTargets(zones: nil, targets: .hr) == .pace)
    #expect(
      try fitWorkout(intervals, week: number, targets: StepTargets(zones: nil, targets: .hr))
        == fitWorkout(intervals, week: number))
  }

  /// A damaged file is refused with the byte at fault, not read as a workout.
  @Test func aCorruptFileIsRefused() throws {
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 10, recentRace: tenK50), rules: repositoryRules)
    let file = try #require(try workoutFiles(of: plan, format: .fit).first)
    var bytes = file.bytes
    bytes[20] ^= 0x01
    #expect(throws: ActivityError.self) { try FITWorkoutFile.decode(bytes, file: "x.fit") }
    #expect(throws: ActivityError.self) { try FITWorkoutFile.decode(Array(bytes.prefix(10)), file: "x.fit") }
  }

  /// `runmate workouts` through the binary: files named by date, week, day and kind for the days asked; a file in
  /// place of the folder is refused with 73, a bad format with 64.
  @Test(.timeLimit(.minutes(1))) func theCommandWritesOneFilePerRun() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")
    let out = directory.appendingPathComponent("watch")
    let made = try runRunmate(
      ["workouts", "--format", "fit", "--out", out.path, "--from", "2026-11-23", "--to", "2026-11-29"], database: db)
    #expect(made.status == 0, "\(made.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(!names.isEmpty && names.allSatisfy { $0.hasPrefix("2026-11-2") && $0.hasSuffix(".fit") }, "\(names)")
    #expect(names.allSatisfy { $0.contains("-W01-") })
    for name in names {
      _ = try FITWorkoutFile.decode(Array(try Data(contentsOf: out.appendingPathComponent(name))), file: name)
    }
    // A run moved to another day is on the watch on its new day, as on the calendar.
    let moved = try runRunmate(["move", "2026-11-24", "2026-11-25", "--now", "2026-11-23"], database: db)
    #expect(moved.status == 0, "\(moved.stderr)")
    let week1 = directory.appendingPathComponent("week1")
    let again = try runRunmate(
      ["workouts", "--out", week1.path, "--from", "2026-11-23", "--to", "2026-11-29"], database: db)
    #expect(again.status == 0, "\(again.stderr)")
    let movedNames = try FileManager.default.contentsOfDirectory(atPath: week1.path)
    #expect(movedNames.contains { $0.hasPrefix("2026-11-25-W01-Wed-") }, "\(movedNames)")
    #expect(!movedNames.contains { $0.hasPrefix("2026-11-24") }, "\(movedNames)")
    // Days in words, read from the runner's today: the same week.
    let spoken = directory.appendingPathComponent("spoken")
    let words = try runRunmate(
      ["workouts", "--out", spoken.path, "--from", "today", "--to", "sunday", "--now", "2026-11-23"], database: db)
    #expect(words.status == 0, "\(words.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: spoken.path).sorted() == movedNames.sorted())
    let icu = try runRunmate(["workouts", "--format", "icu", "--out", out.path], database: db)
    #expect(icu.status == 0, "\(icu.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).contains { $0.hasSuffix(".txt") })

    let file = directory.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: file)
    let refused = try runRunmate(["workouts", "--out", file.path], database: db)
    #expect(refused.status == 73 && refused.stderr.contains("it is a file, not a folder"), "\(refused.stderr)")
    let badFormat = try runRunmate(["workouts", "--format", "zwo", "--out", out.path], database: db)
    #expect(badFormat.status == 64 && badFormat.stderr.contains("--format"), "\(badFormat.stderr)")
    let backwards = try runRunmate(
      ["workouts", "--out", out.path, "--from", "2026-12-01", "--to", "2026-11-01"], database: db)
    #expect(backwards.status == 64, "\(backwards.stderr)")
  }
}
