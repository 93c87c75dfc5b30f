import Foundation
import Ingest
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// A run as the rules see it: hand-logged (no start time) or from a device.
struct Run: IngestibleRun, Hashable {
  var date: CivilDate
  var startedAt: Date?
  var distanceKm: Double
  var durationSeconds: Double
  var isHandLogged: Bool
  var kind: WorkoutKind?
  var rpe: Int?
  var averageHeartRate: Int?
  var note: String?
  var workoutID: String?
  var source: String
}

func day(_ text: String) throws -> CivilDate { try #require(CivilDate(iso: text)) }

func hand(
  _ date: String, _ km: Double, minutes: Double, rpe: Int? = nil, note: String? = nil,
  kind: WorkoutKind? = nil
) throws -> Run {
  Run(
    date: try day(date), distanceKm: km, durationSeconds: minutes * 60, isHandLogged: true, kind: kind, rpe: rpe,
    note: note, source: "manual")
}

func device(
  _ date: String, _ time: String, _ km: Double, minutes: Double, hr: Int? = 150,
  source: String = "health"
) throws -> Run {
  let start = try #require(ISO8601DateFormatter().date(from: "\(date)T\(time)Z"))
  return Run(
    date: try day(date), startedAt: start, distanceKm: km, durationSeconds: minutes * 60,
    isHandLogged: false, averageHeartRate: hr, source: source)
}

/// A week of slots: Tue easy 8, Thu tempo 8, Sat easy 6, Sun long 16 (2027-01-04 is a Monday).
func week(_ number: Int = 1, start: String = "2027-01-04") throws -> [PlannedSlot] {
  let monday = try day(start)
  return [(1, WorkoutKind.easy, 8.0), (3, .tempo, 8), (5, .easy, 6), (6, .long, 16)].map { offset, kind, km in
    PlannedSlot(
      workoutID: "w\(number)-d\(offset)", date: monday.adding(days: offset), kind: kind, distanceKm: km,
      weekStart: monday)
  }
}

@Suite struct TwinTests {
  @Test func aHandLoggedRunAndItsDeviceRecordAreOneRun() throws {
    let typed = try hand("2027-01-05", 8.0, minutes: 47.5)
    #expect(areTwins(typed, try device("2027-01-05", "06:40:00", 8.2, minutes: 46)))  // 2.4 %, 3.2 %
    #expect(areTwins(try device("2027-01-05", "18:00:00", 7.7, minutes: 50), typed))  // 3.8 %, 5 %
    // Too far apart in distance, in time, or another day: two runs.
    #expect(!areTwins(typed, try device("2027-01-05", "06:40:00", 8.5, minutes: 47.5)))  // 5.9 %
    #expect(!areTwins(typed, try device("2027-01-05", "06:40:00", 8.0, minutes: 42)))  // 11.6 %
    #expect(!areTwins(typed, try device("2027-01-06", "06:40:00", 8.0, minutes: 47.5)))
    // Two runs typed in are never one: the runner typed both.
    #expect(!areTwins(typed, typed))
  }

  @Test func twoDeviceRecordsAreOneRunWhenTheyStartTogether() throws {
    let gpx = try device("2027-01-05", "06:40:00", 8.0, minutes: 47, source: "gpx")
    #expect(areTwins(gpx, try device("2027-01-05", "06:41:30", 8.2, minutes: 47)))
    #expect(!areTwins(gpx, try device("2027-01-05", "06:43:00", 8.0, minutes: 47)))  // 3 minutes apart
    #expect(!areTwins(gpx, try device("2027-01-05", "06:40:00", 8.4, minutes: 47)))  // 5 % longer
  }

  /// The device rule at its edges, in both orders: starts at most 2 minutes apart and distances within 3 % of the
  /// longer (the GPX and the TCX of one activity are 2 s and a few metres apart). Just inside and just outside.
  @Test(arguments: [
    ("06:42:00", 10.0, true), ("06:42:01", 10.0, false), ("06:38:00", 10.0, true), ("06:37:59", 10.0, false),
    ("06:40:00", 9.71, true), ("06:40:00", 9.69, false), ("06:40:00", 10.30, true), ("06:40:00", 10.32, false),
    ("06:41:59", 10.29, true),
  ])
  func deviceRecordsAtTheEdgesOfTheRule(time: String, km: Double, twins: Bool) throws {
    let base = try device("2027-01-05", "06:40:00", 10.0, minutes: 50, source: "gpx")
    let other = try device("2027-01-05", time, km, minutes: 50, source: "tcx")
    #expect(areTwins(base, other) == twins)
    #expect(areTwins(other, base) == twins)
  }

  /// A device run the next day at the same time is another run, however alike.
  @Test func theSameDeviceRunADayLaterIsAnotherRun() throws {
    let run = try device("2027-01-05", "06:40:00", 8.0, minutes: 47)
    #expect(areTwins(run, run))
    #expect(!areTwins(run, try device("2027-01-06", "06:40:00", 8.0, minutes: 47)))
  }

  @Test func theDeviceRecordIsKeptWithTheRunnersNoteAndEffort() throws {
    let typed = try hand("2027-01-05", 8.0, minutes: 47.5, rpe: 6, note: "windy", kind: .easy)
    let watch = try device("2027-01-05", "06:40:00", 8.2, minutes: 46, hr: 151)
    for merged in [
      try #require(mergedTwin(stored: typed, candidate: watch)),
      try #require(mergedTwin(stored: watch, candidate: typed)),
    ] {
      #expect(merged.startedAt == watch.startedAt && merged.distanceKm == 8.2 && merged.durationSeconds == 46 * 60)
      #expect(merged.averageHeartRate == 151 && merged.source == "health")
      #expect(merged.rpe == 6 && merged.note == "windy" && merged.kind == .easy)
    }
    // Nothing to add: the stored device record stays as it is; the same device run twice changes nothing.
    #expect(mergedTwin(stored: watch, candidate: try hand("2027-01-05", 8.0, minutes: 47.5)) == nil)
    #expect(mergedTwin(stored: watch, candidate: watch) == nil)
  }
}

@Suite struct MatchingTests {
  @Test func theSameDayFirstThenKindAndDistance() throws {
    let slots = try week()
    let tuesday = try #require(matchSlot(date: try day("2027-01-05"), distanceKm: 8, kind: nil, in: slots, taken: []))
    #expect(tuesday.slot.workoutID == "w1-d1" && tuesday.status == .done && tuesday.day == .sameDay)
    // The long run on Sunday, not the easy run of Saturday a day before.
    let long = try #require(matchSlot(date: try day("2027-01-10"), distanceKm: 16, kind: nil, in: slots, taken: []))
    #expect(long.slot.workoutID == "w1-d6")
    // Far from any workout: an extra run.
    #expect(matchSlot(date: try day("2026-10-01"), distanceKm: 5, kind: nil, in: slots, taken: []) == nil)
  }

  @Test func aMissedPastWorkoutIsTakenNeverTomorrows() throws {
    // Friday, a rest day: Thursday's tempo (missed, 8 km) is a day before; a 7 km run covers it (88 %).
    let slots = try week()
    let friday = try day("2027-01-08")
    let match = try #require(matchSlot(date: friday, distanceKm: 7, kind: nil, in: slots, taken: []))
    #expect(match.slot.workoutID == "w1-d3" && match.day == .late)
    // Tuesday and Thursday done: Saturday's easy run is a later day's, left to be run on Saturday: an extra run.
    #expect(matchSlot(date: friday, distanceKm: 6, kind: nil, in: slots, taken: ["w1-d1", "w1-d3"]) == nil)
  }

  @Test func aRunMuchShorterThanPlannedIsPartial() throws {
    // The compliance bands: done from 80 % of the plan, partial below (TrainingPeaks' yellow and orange).
    let slots = try week()
    let sunday = try day("2027-01-10")
    let short = try #require(matchSlot(date: sunday, distanceKm: 12.7, kind: nil, in: slots, taken: []))
    #expect(short.slot.workoutID == "w1-d6" && short.status == .partial)  // 79 % of 16 km
    let enough = try #require(matchSlot(date: sunday, distanceKm: 12.8, kind: nil, in: slots, taken: []))
    #expect(enough.status == .done)  // 80 %
    #expect(Compliance(done: 12.7, planned: 16) == .short && Compliance(done: 7.9, planned: 16) == .farShort)
    #expect(Compliance(done: 24, planned: 16) == .done)  // more than planned is done
  }

  /// Issue 23's cases, as the runner met them.
  @Test func theIssuesCasesMatchAsTheRunnerMeantThem() throws {
    // Mon 2027-01-04: Wed tempo 6.4, Fri easy 3.2, Sun long 8.6; Tue, Thu and Sat rest.
    let monday = try day("2027-01-04")
    let slots = [(2, WorkoutKind.tempo, 6.4), (4, .easy, 3.2), (6, .long, 8.6)].map { offset, kind, km in
      PlannedSlot(
        workoutID: "d\(offset)", date: monday.adding(days: offset), kind: kind, distanceKm: km, weekStart: monday)
    }
    let thursday = monday.adding(days: 3)
    // A Health run on Thursday (no kind) is not Friday's easy run: that one is still to run on Friday.
    let health = matchSlot(date: thursday, distanceKm: 3.4, kind: nil, in: slots, taken: [])
    #expect(health == nil)
    // An easy 3.4 km on Thursday does not tick off Wednesday's 6.4 km tempo, named easy or not named at all.
    #expect(matchSlot(date: thursday, distanceKm: 3.4, kind: .easy, in: slots, taken: []) == nil)
    // A run that covers the tempo (unnamed, 6 km: 94 %) is the tempo moved a day; one called easy never is.
    #expect(matchSlot(date: thursday, distanceKm: 6, kind: nil, in: slots, taken: [])?.slot.workoutID == "d2")
    #expect(matchSlot(date: thursday, distanceKm: 8, kind: .easy, in: slots, taken: []) == nil)
    // On Friday the run is Friday's.
    let friday = try #require(matchSlot(date: monday.adding(days: 4), distanceKm: 3.3, kind: nil, in: slots, taken: []))
    #expect(friday.slot.workoutID == "d4" && friday.status == .done)
    // 3.7 km against the 8.6 km long run: partial, not done.
    let long = try #require(matchSlot(date: monday.adding(days: 6), distanceKm: 3.7, kind: nil, in: slots, taken: []))
    #expect(long.slot.workoutID == "d6" && long.status == .partial)
  }

  @Test func aRunMovedToARestDayOfTheSameWeekMatchesTheMissedWorkout() throws {
    // Tuesday's easy run moved to Wednesday (rest): a day late.
    let slots = try week()
    let wednesday = try #require(
      matchSlot(
        date: try day("2027-01-06"), distanceKm: 8, kind: nil, in: slots,
        taken: []))
    #expect(wednesday.slot.workoutID == "w1-d1" && wednesday.day == .late)
    // Tuesday missed, Thursday and Saturday done: a run on Friday (rest), 3 days late, is Tuesday's.
    let friday = try #require(
      matchSlot(
        date: try day("2027-01-08"), distanceKm: 8, kind: nil, in: slots,
        taken: ["w1-d3", "w1-d5"]))
    #expect(friday.slot.workoutID == "w1-d1" && friday.day == .late)
    // Not across weeks: Monday of week 2 does not take week 1's missed Saturday.
    let two = try slots + week(2, start: "2027-01-11")
    #expect(
      matchSlot(
        date: try day("2027-01-11"), distanceKm: 6, kind: nil, in: two,
        taken: ["w1-d6", "w2-d1"]) == nil)
    // Not on a day with a workout of its own: a second run on Thursday, Thursday's done, is an extra run.
    #expect(matchSlot(date: try day("2027-01-07"), distanceKm: 8, kind: nil, in: slots, taken: ["w1-d3"]) == nil)
  }

  @Test func theRaceMatchesOnlyOnRaceDay() throws {
    let race = PlannedSlot(workoutID: "race", date: try day("2027-03-07"), kind: .race, distanceKm: 10)
    #expect(matchSlot(date: try day("2027-03-06"), distanceKm: 10, kind: nil, in: [race], taken: []) == nil)
    #expect(matchSlot(date: try day("2027-03-07"), distanceKm: 10, kind: nil, in: [race], taken: [])?.status == .done)
  }
}

@Suite struct IngestOutcomeTests {
  @Test func aHandLoggedRunAndItsHealthAndGPXTwinsAreOneRun() throws {
    let slots = try week()
    let typed = try hand("2027-01-05", 8.0, minutes: 47.5, rpe: 6, note: "windy")
    var stored = typed
    stored.workoutID = "w1-d1"
    let health = try device("2027-01-05", "06:40:00", 8.2, minutes: 46)
    let gpx = try device("2027-01-05", "06:40:20", 8.15, minutes: 46, source: "gpx")
    let outcome = ingest([health, gpx], stored: [stored], slots: slots, taken: ["w1-d1"])
    #expect(outcome.added.isEmpty)
    #expect(outcome.duplicates.count == 2)
    #expect(outcome.duplicates.allSatisfy { $0.twin == .stored(0) })
    let merged = try #require(outcome.duplicates[0].merged)
    #expect(merged.source == "health" && merged.note == "windy" && merged.rpe == 6)
    #expect(outcome.duplicates[0].status == .done)
    // The GPX record is the Health record's twin, which holds the note already: nothing more to change.
    #expect(outcome.duplicates[1].merged == nil)
  }

  @Test func noSlotIsMatchedTwiceNotEvenInOneBatch() throws {
    let slots = try week()
    let runs = try [
      device("2027-01-05", "06:00:00", 8, minutes: 48), device("2027-01-05", "18:00:00", 8, minutes: 48),
      device("2027-01-05", "20:00:00", 8, minutes: 48),
    ]
    let outcome = ingest(runs, stored: [], slots: slots, taken: [])
    let ids = outcome.added.compactMap { $0.match?.slot.workoutID }
    #expect(outcome.added.count == 3)
    #expect(ids.count == Set(ids).count)
    #expect(ids.first == "w1-d1")
    // Already taken by a stored run: not matched again.
    let again = ingest([runs[0]], stored: [], slots: slots, taken: Set(ids))
    #expect(again.added.first.map { $0.match.map(\.slot.workoutID).map(ids.contains) ?? false } == false)
  }

  @Test func emptyRunsAreSkippedWithAReason() throws {
    let empty = try device("2027-01-05", "06:00:00", 0, minutes: 10)
    let outcome = ingest([empty], stored: [], slots: [], taken: [])
    #expect(outcome.added.isEmpty && outcome.skipped.map(\.reason) == [.empty])
  }

  @Test func aHandLoggedRunAfterItsDeviceTwinInOneBatchIsMerged() throws {
    let watch = try device("2027-01-10", "08:00:00", 15.9, minutes: 95)
    let typed = try hand("2027-01-10", 16, minutes: 96, rpe: 7)
    let outcome = ingest([watch, typed], stored: [], slots: try week(), taken: [])
    #expect(outcome.added.count == 1 && outcome.added[0].run.rpe == 7 && outcome.added[0].run.startedAt != nil)
    #expect(outcome.duplicates.first?.twin == .added(0))
  }
}
