import Ingest
import PlanEngine
import RunningCore
import Testing

/// Matching is one function of a week's runs (issue 44): whatever order the runs are taken in (logged, back-filled,
/// pushed in a batch, one deleted), each holds the same workout, so a logbook and a coach's server agree.
@Suite struct CanonicalMatchTests {
  let monday = CivilDate(dayNumber: 20_822)  // Monday 4 January 2027
  var slots: [PlannedSlot] {
    [
      PlannedSlot(workoutID: "tue", date: monday.adding(days: 1), kind: .easy, distanceKm: 8, weekStart: monday),
      PlannedSlot(workoutID: "thu", date: monday.adding(days: 3), kind: .tempo, distanceKm: 10, weekStart: monday),
      PlannedSlot(workoutID: "sun", date: monday.adding(days: 6), kind: .long, distanceKm: 16, weekStart: monday),
    ]
  }

  /// A hand-logged run; its note stands for its identity.
  func run(_ day: Int, _ km: Double, id: Int, kind: WorkoutKind? = nil) -> Run {
    Run(
      date: monday.adding(days: day), distanceKm: km, durationSeconds: km * 330, isHandLogged: true, kind: kind,
      note: "run-\(id)", source: "manual")
  }

  @Test func anyOrderGivesTheSameMatches() {
    // A Wednesday run that can stand in for Tuesday's easy run, a Tuesday run back-filled, a double Sunday, a
    // Thursday run called easy (never a tempo), a Friday extra.
    let runs = [
      run(2, 8, id: 1), run(1, 7.5, id: 2), run(6, 16, id: 3), run(6, 4, id: 4), run(3, 9, id: 5, kind: .easy),
      run(4, 6, id: 6),
    ]
    let expected = canonicalMatches(runs, identity: { $0.note ?? "" }, slots: slots)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<50 {
      let shuffled = runs.shuffled(using: &generator)
      let matches = canonicalMatches(shuffled, identity: { $0.note ?? "" }, slots: slots)
      let byID = Dictionary(
        uniqueKeysWithValues: zip(shuffled.map { $0.note ?? "" }, matches.map { $0?.slot.workoutID }))
      #expect(runs.map { byID[$0.note ?? ""] ?? nil } == expected.map { $0?.slot.workoutID })
    }
    // Tuesday's run holds Tuesday's workout; the Wednesday run, logged first, is the extra; the longer Sunday run is
    // the long run.
    #expect(expected.map { $0?.slot.workoutID } == [nil, "tue", "sun", nil, nil, nil])
    #expect(expected[1]?.status == .done && expected[1]?.day == .sameDay)
  }

  @Test func aDeletedRunsWorkoutGoesToTheWeeksOtherRun() {
    let runs = [run(1, 8, id: 1), run(2, 8.2, id: 2)]
    #expect(
      canonicalMatches(runs, identity: { $0.note ?? "" }, slots: slots).map { $0?.slot.workoutID } == ["tue", nil])
    // Tuesday's run deleted: Wednesday's stands in for it.
    let after = canonicalMatches([runs[1]], identity: { $0.note ?? "" }, slots: slots)
    #expect(after.map { $0?.slot.workoutID } == ["tue"])
    #expect(after[0]?.day == .late)
  }
}
