import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// The use cases the short commands call (issue 23), in-process on a real SQLite file: what used to be decided in a
/// command's `run()` is asserted here on the values they return.
@Suite struct ShortCommandsUseCaseTests {
  /// A fresh store in its own folder; `body` gets it, the folder is removed afterwards.
  func withStore(_ body: (any TrainingStore, URL) throws -> Void) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(try openStore(at: directory.appendingPathComponent("runmate.sqlite").path), directory)
  }

  // MARK: No default profile

  @Test func aMissingDefaultProfileIsSaidAsSuchNotAsAProfileNamedDefault() throws {
    try withStore { store, _ in
      #expect(throws: LogbookError.noDefaultProfile(known: [])) { try store.requiredProfile(named: nil) }
      #expect(throws: LogbookError.noDefaultProfile(known: [])) {
        try store.updateProfile(named: nil) { $0 }
      }
      #expect(throws: LogbookError.noDefaultProfile(known: [])) {
        _ = try coachRoster(coach: nil, in: store, systemZone: "UTC") { _ in testStart }
      }
      let message = LogbookError.noDefaultProfile(known: []).message(naming: { "--\($0.rawValue)" })
      #expect(message.contains("runmate profile init NAME") && !message.contains("(default)"), "\(message)")
      let among = LogbookError.noDefaultProfile(known: ["ana", "bo"]).message(naming: { "--\($0.rawValue)" })
      #expect(among.contains("ana, bo") && among.contains("--profile NAME"), "\(among)")
      // A name that is not there is still that name's error.
      _ = try store.createProfile(Profile(name: "ana"))
      #expect(throws: LogbookError.noSuchProfile(name: "bo", known: ["ana"])) { try store.requiredProfile(named: "bo") }
      #expect(try store.requiredProfile(named: nil).name == "ana")
    }
  }

  // MARK: profile set

  @Test func profileSetTakesHeightAndWeightFromHealthToATenth() throws {
    try withStore { store, _ in
      _ = try store.createProfile(Profile(name: "ana"))
      #expect(throws: SettingError.self) {
        _ = try store.setProfile(named: nil, fromHealth: true, makeDefault: false) { $0 }
      }
      let day = Date(timeIntervalSince1970: 1_790_000_000)
      _ = try store.saveHealth(
        days: [], measures: [BodyMeasure(kind: .bodyMassKg, date: day, value: 61.26)], runs: [], profile: "ana")
      let updated = try store.setProfile(named: "ana", fromHealth: true, makeDefault: true) { profile in
        var changed = profile
        changed.level = .intermediate
        return changed
      }
      #expect(updated.weightKg == 61.3 && updated.heightCm == nil && updated.level == .intermediate)
      #expect(try store.profile(named: "ana")?.weightKg == 61.3)
    }
  }

  // MARK: log

  @Test func aLoggedRunIsCheckedByTheRulesOfARunLoggedByHand() throws {
    func words(
      date: String? = nil, distance: String? = "5", time: String? = "30:00", kind: String? = nil, race: Bool = false
    ) -> LoggedRunWords {
      LoggedRunWords(
        date: date, distance: distance, time: time, kind: kind, race: race, rpe: nil, heartRate: nil, note: nil)
    }
    // A bare number is the runner's unit.
    let miles = try words().completion(today: testStart, units: .mi)
    #expect(abs(miles.distanceKm - 5 * Distance.kilometersPerMile) < 1e-9 && miles.date == testStart)
    #expect(try words(distance: "half", time: "2:00:00").completion(today: testStart, units: .km).distanceKm == 21.0975)
    #expect(try words(date: "yesterday").completion(today: testStart, units: .km).date == testStart.adding(days: -1))
    #expect(try words(race: true).completion(today: testStart, units: .km).kind == .race)

    #expect(throws: RequiredSettingError(field: .distance, allowed: "a distance such as 8.2km or 5mi")) {
      try words(distance: nil).completion(today: testStart, units: .km)
    }
    for (bad, option) in [
      (words(date: "tomorrow"), FieldName.given("DATE")), (words(time: "1:00"), .field(.time)),
      (words(distance: "300km"), .field(.distance)), (words(kind: "tempo", race: true), .field(.kind)),
      (words(distance: "10km", time: "20:00", race: true), .field(.time)),
    ] {
      do {
        _ = try bad.completion(today: testStart, units: .km)
        Issue.record("\(option) accepted")
      } catch let error as SettingError {
        #expect(error.option == option, "\(error)")
      }
    }
  }

  @Test func logListSaysEachRunsPlaceInThePlan() throws {
    try withStore { store, _ in
      let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
      _ = try store.savePlan(plan, name: "spring", activate: true, schedule: nil, replacing: true)
      let first = try #require(plan.weeks.first?.workouts.first { $0.kind.isRun })
      _ = try store.addRuns(
        [
          Completion(date: first.date, distanceKm: first.distanceKm * 0.6, durationSeconds: first.distanceKm * 216),
          Completion(date: first.date.adding(days: -3), distanceKm: 4, durationSeconds: 1500),
        ], plan: nil)
      let view = try store.logbookView()
      #expect(view.rows.map(\.activity.date) == [first.date.adding(days: -3), first.date])
      #expect(view.rows.map(\.place) == [.unplanned, .planned(id: first.id, partial: true)])
    }
  }

  // MARK: replan --apply, move, skip

  @Test func replanAndMoveSaveThroughTheirUseCasesAsOfTheirNow() throws {
    try withStore { store, _ in
      let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
      _ = try store.savePlan(plan, name: "spring", activate: true, schedule: nil, replacing: true)
      func state() throws -> TrainingState {
        try TrainingState.read(try store.plan(named: nil), db: store, profile: nil, systemZone: "UTC")
      }
      let savedFirst = try store.plan(named: nil).savedAt
      let (monday, later) = (Date(timeIntervalSince1970: 1_799_000_000), Date(timeIntervalSince1970: 1_799_500_000))

      // On the plan's first day nothing is missed yet: nothing to save, the plan stays as it was saved.
      let first = try state()
      let calm = try first.proposeReplan(
        completions: [], today: testStart, pause: nil, rules: repositoryRules, db: store, now: monday)
      #expect(calm.replan.workoutChanges.isEmpty, "\(calm.replan.workoutChanges)")
      #expect(try !first.applyReplan(calm, db: store, now: monday))
      #expect(try store.plan(named: nil).savedAt == savedFirst)

      // A sick week from the second Monday: saved as of the replan's now, its pause in the settings kept.
      let sick = testStart.adding(days: 7)...testStart.adding(days: 13)
      let ill = try first.proposeReplan(
        completions: [], today: sick.lowerBound, pause: sick, rules: repositoryRules, db: store, now: monday)
      #expect(try first.applyReplan(ill, db: store, now: monday))
      let replanned = try store.plan(named: nil)
      #expect(replanned.savedAt == monday && replanned.name == "spring" && replanned.active)
      #expect(try store.scheduleSettings(ofPlan: replanned.id)?.pauses?.isEmpty == false)
      let pausedDays = try store.scheduledWorkouts(of: replanned).filter { sick.contains($0.date) && $0.kind.isRun }
      #expect(pausedDays.isEmpty, "\(pausedDays)")

      // A move is saved with the plan's dated workouts as of its own now.
      let afterPause = try state()
      let workout = try #require(
        afterPause.workouts.first { $0.date > sick.upperBound && $0.kind.isRun && $0.kind != .race })
      let free = try #require(
        (1...6).map { workout.date.adding(days: $0) }.first { day in !afterPause.workouts.contains { $0.date == day } })
      let moved = try afterPause.makeChange(
        .move(from: workout.date, to: free), today: sick.upperBound.adding(days: 1), db: store, now: later)
      #expect(moved.affected.map(\.workoutID) == [workout.workoutID])
      #expect(try store.plan(named: nil).savedAt == later)
      let stored = try store.scheduledWorkouts(of: try store.plan(named: nil))
      #expect(stored.first { $0.workoutID == workout.workoutID }?.date == free)
    }
  }

  // MARK: health

  @Test func theHealthCommandsDayIsInTheZoneGivenElseTheProfilesElseTheSystems() throws {
    try withStore { store, _ in
      #expect(try store.healthRunner(profile: nil, zone: nil, systemZone: "Asia/Tokyo").zone.identifier == "Asia/Tokyo")
      var ana = Profile(name: "ana")
      ana.timeZone = "Europe/Berlin"
      ana.units = .mi
      _ = try store.createProfile(ana)
      let runner = try store.healthRunner(profile: nil, zone: nil, systemZone: "Asia/Tokyo")
      #expect(runner.name == "ana" && runner.zone.identifier == "Europe/Berlin" && runner.units == .mi)
      let given = try store.healthRunner(profile: "ana", zone: "America/New_York", systemZone: "UTC")
      #expect(given.zone.identifier == "America/New_York")
      #expect(throws: TimeZoneError.self) {
        _ = try store.healthRunner(profile: nil, zone: "Europe/Berln", systemZone: "UTC")
      }

      let empty = try store.healthOverview(of: runner, today: testStart)
      #expect(!empty.hasData && empty.today == testStart)
      let days = (0..<3).map {
        HealthDay(
          date: testStart.adding(days: -$0), steps: Double(4000 * ($0 + 1)), distanceKm: 3, activeEnergyKcal: 200)
      }
      _ = try store.saveHealth(days: days, measures: [], runs: [], profile: "ana")
      let view = try store.healthOverview(of: runner, today: testStart)
      #expect(view.hasData && view.units == .mi)
      // The bars: each day's share of the week's most steps (12,000, two days ago); days without data are empty.
      let lastThree: [Double] = view.lastSevenDays.suffix(3).map { ($0.share * 3).rounded() }
      #expect(lastThree == [3, 2, 1])
      #expect(view.lastSevenDays.prefix(4).allSatisfy { $0.share == 0 })
    }
  }

  // MARK: import

  @Test func anImportOpensTheStoreOnlyWithSomethingToAddAndFailsOnlyWhenEverythingWasRefused() throws {
    var found = ActivityFiles()
    found.refused = ["a.gpx: not an activity file"]
    #expect(found.nothingImported == "a.gpx: not an activity file")
    found.refused.append("b.fit: damaged")
    #expect(found.nothingImported == "nothing imported: 2 files refused (listed above)")
    var opened = false
    #expect(
      try found.add(
        to: {
          opened = true
          throw LogbookError.noActivePlan
        }, plan: nil) == nil)
    #expect(!opened)
    found.runs = [Completion(date: testStart, distanceKm: 5, durationSeconds: 1800)]
    #expect(found.nothingImported == nil)
    try withStore { store, _ in
      let added = try #require(try found.add(to: { store }, plan: nil))
      #expect(added.result.added.count == 1 && added.plan == nil)
    }
  }

  // MARK: templates

  @Test func theTemplateTableHasARowPerDistanceWithRulesOfItsOwnAndLevel() {
    let table = templateRows(repositoryRules)
    let families = ["5k", "10k", "15k", "half", "marathon"]
    #expect(table.rows.map(\.distance) == families.flatMap { Array(repeating: $0, count: Level.allCases.count) })
    #expect(table.tenMilesUses == "15k")
    #expect(table.workouts == repositoryRules.workouts.keys.sorted())
    #expect(table.rows.allSatisfy { $0.minimumWeeks <= $0.recommendedWeeks && $0.startWeeklyKm < $0.peakWeeklyKm })
  }

  // MARK: export

  @Test func anExportIsRecordedOnlyOnceItsCalendarIsWritten() throws {
    try withStore { store, directory in
      let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
      _ = try store.savePlan(plan, name: "spring", activate: true, schedule: nil, replacing: true)
      let resolved = try scheduleSavedPlan(
        named: nil, request: ScheduleRequest(), profile: nil, store: store, today: testStart, systemZone: "UTC")
      let export = try exportCalendar(
        resolved.plan, schedule: resolved.schedule, settings: resolved.settings, previousFile: nil, store: store,
        now: Date(timeIntervalSince1970: 0))
      let path = directory.appendingPathComponent("plan.ics").path

      struct DiskFull: Error {}
      #expect(throws: DiskFull.self) {
        _ = try resolved.deliver(export, to: path, store: store, open: { store }) { _ in throw DiskFull() }
      }
      #expect(try lastExport(of: plan, in: store) == nil)

      var written: String?
      let delivered = try resolved.deliver(export, to: path, store: store, open: { store }) { written = $0 }
      #expect(written == export.text && delivered.kept == true)
      #expect(try lastExport(of: plan, in: store)?.path == path)
    }
  }

  // MARK: lint

  @Test func lintReadsAPlanFileOrNamesWhatIsWrongWithIt() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let notAPlan = directory.appendingPathComponent("notes.json")
    try Data("{\"hello\": 1}".utf8).write(to: notAPlan)
    #expect(throws: LintFileProblem.self) { try lintPlanFile(notAPlan.path, distance: nil, rules: repositoryRules) }
    #expect(throws: PlanFileError.missing(path: directory.appendingPathComponent("gone.json").path)) {
      try lintPlanFile(directory.appendingPathComponent("gone.json").path, distance: nil, rules: repositoryRules)
    }
  }
}
