import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain
import TrainingProgress

/// SplitMix64: a small seeded generator, so every randomised log is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Properties of `replan` over distances × levels × days into the plan, with seeded random logs (missed weeks,
/// short weeks, extra runs and twice-logged runs).
@Suite struct ReplanPropertyTests {
  /// Plan lengths a runner would pick: the recommended minimum of the hardest level, and more.
  static let cases: [(RaceDistance, Int)] = [(.fiveK, 10), (.tenK, 10), (.fifteenK, 12), (.half, 14), (.marathon, 20)]

  enum WeekKind: CaseIterable { case asPlanned, missed, short, extra }

  /// Logs up to (not including) `day`: each week of the plan is run as planned, missed, run at half, or run with an
  /// extra 5 km run and one run logged twice (a hand-logged run and its import).
  func randomLogs(_ plan: Plan, until day: CivilDate, rng: inout SeededGenerator) -> [Completion] {
    var logs: [Completion] = []
    for week in plan.weeks where week.start < day {
      let kind = WeekKind.allCases.randomElement(using: &rng) ?? .asPlanned
      for workout in week.workouts where workout.date < day {
        let share: Double = kind == .missed ? 0 : kind == .short ? 0.5 : Double.random(in: 0.9...1.1, using: &rng)
        guard share > 0 else { continue }
        let km = (workout.distanceKm * share * 10).rounded() / 10
        let run = Completion(
          date: workout.date, distanceKm: km, durationSeconds: km * 360, planID: plan.id,
          workoutID: workout.id)
        logs.append(run)
        if kind == .extra && workout.kind == .long {
          logs.append(Completion(date: workout.date, distanceKm: km, durationSeconds: km * 360, source: .health))
        }
      }
      if kind == .extra, week.start.adding(days: 2) < day {
        logs.append(Completion(date: week.start.adding(days: 2), distanceKm: 5, durationSeconds: 1800))
      }
    }
    return logs
  }

  @Test(arguments: cases)
  func replanKeepsThePastTheNumbersAndTheIDs(distance: RaceDistance, weeks: Int) throws {
    for level in Level.allCases {
      let plan = try makePlan(goal: goal(distance, level, weeks: weeks), rules: repositoryRules)
      var rng = SeededGenerator(state: UInt64(weeks * 31 + level.rawValue.count))
      // Days into the plan: before it starts, a Monday, mid-week days, the taper and race week.
      let offsets = [-3, 7, 10, 7 * (weeks / 2) + 3, 7 * (weeks - 2) + 5, 7 * weeks - 3]
      for offset in offsets {
        let today = plan.goal.start.adding(days: offset)
        let logs = randomLogs(plan, until: today, rng: &rng)
        let label = "\(distance.rawValue) \(level.rawValue) on day \(offset)"
        let result: Replan
        do {
          result = try replan(plan, completions: logs, today: today, pause: nil, rules: repositoryRules)
        } catch {
          Issue.record("\(label): an ordinary state must replan, got: \(error)")
          continue
        }
        let new = result.plan
        // Only today and later change.
        #expect(new.workouts.filter { $0.date < today } == plan.workouts.filter { $0.date < today }, "\(label)")
        #expect(
          Array(new.weeks.prefix { $0.start.adding(days: 6) < today })
            == Array(plan.weeks.prefix { $0.start.adding(days: 6) < today }), "\(label)")
        // Week numbers, phases and dates are the original plan's; the race date and the goal are fixed.
        #expect(new.weeks.map(\.number) == plan.weeks.map(\.number), "\(label)")
        #expect(new.weeks.map(\.start) == plan.weeks.map(\.start), "\(label)")
        #expect(new.weeks.map(\.phase) == plan.weeks.map(\.phase), "\(label)")
        #expect(new.goal == plan.goal && new.id == plan.id, "\(label)")
        #expect(new.workouts.last?.kind == .race && new.workouts.last?.date == plan.goal.raceDate, "\(label)")
        // Every id is plan id, week, slot (what the calendar UID is built from, with the unchanged plan length), and
        // a slot the old week had keeps the old id.
        for week in new.weeks {
          for workout in week.workouts {
            let expected = "\(plan.id)-w\(week.number < 10 ? "0" : "")\(week.number)-\(workout.slot)"
            #expect(workout.id == expected, "\(label)")
            let old = plan.weeks[week.number - 1].workouts.first { $0.slot == workout.slot }
            if let old { #expect(old.id == workout.id, "\(label)") }
            #expect(week.start <= workout.date && workout.date <= week.start.adding(days: 6), "\(label)")
          }
        }
        #expect(Set(new.workouts.map(\.id)).count == new.workouts.count, "\(label)")
        // The change list only names today and later, in the export's words.
        for change in result.workoutChanges {
          #expect((change.newDate ?? today) >= today && (change.oldDate ?? today) >= today, "\(label): \(change)")
          switch change.kind {
          case .moved: #expect(change.oldDate != change.newDate && change.oldDate != nil && change.newDate != nil)
          case .changed: #expect(change.oldDate == change.newDate)
          case .added: #expect(change.oldDate == nil && plan.workouts.allSatisfy { $0.id != change.workoutID })
          case .cancelled: #expect(change.newDate == nil && new.workouts.allSatisfy { $0.id != change.workoutID })
          }
        }
        #expect(result.basis.contains("weighted 4:3:2:1"), "\(label)")
        // Every week's volume line states the final numbers: its own volume, and the week it is compared with as
        // the table shows it (a week partly kept and partly rebuilt has another volume than the rebuild's).
        for problem in volumeLineProblems(new) { Issue.record("\(label): \(problem)") }
      }
    }
  }

  /// `replan --update-paces` over distances × levels × days into the plan, with seeded random logs: the past is
  /// kept, the goal records the new VDOT and the race day that set it, no workout from today on keeps the old
  /// threshold pace, and a runner on track (every week run as planned) keeps the same days, hard days and weekly
  /// volumes (within 5 %).
  @Test(arguments: cases)
  func newPacesKeepThePastTheDaysAndTheVolume(distance: RaceDistance, weeks: Int) throws {
    for level in Level.allCases {
      let race = RecentRace(distanceKm: 10, timeSeconds: 50 * 60)  // VDOT 39.9
      let plan = try makePlan(goal: goal(distance, level, weeks: weeks, recentRace: race), rules: repositoryRules)
      let oldVDOT = try #require(plan.goal.vdot)
      var rng = SeededGenerator(state: UInt64(weeks * 17 + level.rawValue.count))
      for offset in [7 * (weeks / 2) + 1, 7 * (weeks - 3)] {
        let today = plan.goal.start.adding(days: offset)
        let paces = PaceUpdate(vdot: oldVDOT + 2, asOf: today.adding(days: -1))
        for onTrack in [true, false] {
          let logs =
            onTrack
            ? plan.workouts.filter { $0.date < today }.map {
              Completion(
                date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360, planID: plan.id,
                workoutID: $0.id)
            } : randomLogs(plan, until: today, rng: &rng)
          let label = "\(distance.rawValue) \(level.rawValue) on day \(offset)\(onTrack ? " on track" : "")"
          let result = try replan(
            plan, completions: logs, today: today, pause: nil, rules: repositoryRules, paces: paces)
          let new = result.plan
          #expect(new.workouts.filter { $0.date < today } == plan.workouts.filter { $0.date < today }, "\(label)")
          #expect(new.goal.vdotSource == .races && new.goal.vdotAsOf == paces.asOf, "\(label)")
          #expect(abs((new.goal.vdot ?? 0) - paces.vdot) < 0.05, "\(label): \(new.goal.vdot ?? 0)")
          #expect(new.workouts.last?.kind == .race && new.workouts.last?.date == plan.goal.raceDate, "\(label)")
          #expect(new.weeks.map(\.phase) == plan.weeks.map(\.phase), "\(label)")
          // The threshold pace at the old VDOT appears in no workout from today on.
          let oldThreshold = VDOT(value: oldVDOT).threshold.formatted(in: .km)
          let newThreshold = VDOT(value: paces.vdot).threshold.formatted(in: .km)
          for workout in new.workouts where workout.date >= today {
            #expect(!workout.description.contains(oldThreshold), "\(label) \(workout.date): \(workout.description)")
          }
          let future = new.workouts.filter { $0.date >= today && $0.description.contains(newThreshold) }
          #expect(
            !future.isEmpty || !plan.workouts.contains { $0.date >= today && $0.description.contains(oldThreshold) })
          guard onTrack else { continue }
          // On track: the same days, the same hard days, and each week's volume within 5 % (the engine sizes runs
          // set by time, such as a 3-hour long run or 25 minutes of tempo, at the new paces, and the week around them).
          let old = plan.workouts.filter { $0.date >= today }
          let now = new.workouts.filter { $0.date >= today }
          #expect(old.map(\.date) == now.map(\.date) && old.map(\.hard) == now.map(\.hard), "\(label)")
          for (was, is_) in zip(plan.weeks, new.weeks) where was.start.adding(days: 6) >= today {
            #expect(
              abs(was.plannedKm - is_.plannedKm) <= max(1.5, 0.05 * was.plannedKm),
              "\(label) week \(was.number): \(was.plannedKm) → \(is_.plannedKm) km")
          }
        }
      }
    }
  }

  /// The volume lines of `plan` whose numbers are not the plan's: `Volume X km` against the week's volume,
  /// `+D km over week N (R km)` against week N's volume and the difference, and a split `A … as planned, B … as
  /// replanned` against the week's volume.
  func volumeLineProblems(_ plan: Plan) -> [String] {
    func number(_ text: Substring) -> Double? { Double(text.replacingOccurrences(of: "+", with: "")) }
    var problems: [String] = []
    let volume = /^Volume (\d+(?:\.\d)?) km/
    let over = /(\+?\d+(?:\.\d)?) km (over|under) week (\d+) \((\d+(?:\.\d)?) km\)/
    let same = /the same as week (\d+) \((\d+(?:\.\d)?) km\)/
    let split = /: (\d+(?:\.\d)?) km on the days before .* as planned, (\d+(?:\.\d)?) km from then on as replanned/
    for week in plan.weeks {
      for line in week.rules where line.hasPrefix("Volume ") {
        if let m = line.firstMatch(of: volume), number(m.1) != week.plannedKm {
          problems.append("week \(week.number) has \(week.plannedKm) km: “\(line)”")
        }
        var compared: (week: Int, stated: Double, delta: Double)?
        if let m = line.firstMatch(of: over), let n = Int(m.3), let stated = number(m.4), let delta = number(m.1) {
          compared = (n, stated, m.2 == "under" ? -delta : delta)
        } else if let m = line.firstMatch(of: same), let n = Int(m.1), let stated = number(m.2) {
          compared = (n, stated, 0)
        }
        if let compared {
          let n = compared.week
          let reference = n >= 1 && n < week.number ? plan.weeks[n - 1].plannedKm : -1
          if compared.stated != reference || abs(week.plannedKm - reference - compared.delta) > 0.101 {
            problems.append("week \(week.number) against week \(n) of \(reference) km: “\(line)”")
          }
        }
        if let m = line.firstMatch(of: split), let a = number(m.1), let b = number(m.2),
          abs(a + b - week.plannedKm) > 0.101
        {
          problems.append("week \(week.number): \(a) + \(b) is not \(week.plannedKm): “\(line)”")
        }
      }
    }
    return problems
  }

  /// One missed week (everything else run as planned) is followed by return weeks, then a week back at the volume
  /// before the break, then the ramp (training-rules guide): the rebuilt weeks ramp from the last full week run,
  /// with the same rules toward the same peak, so they can lose at most two weeks of ramp (the return weeks' and the
  /// week back at the old volume, 10 % each) and a cut-back the engine places again: 70 % of the original peak is the
  /// stated bound (a 10-week 10K loses 23 %, said in the replan's basis). Halving (the bug: 51.9 → 35.5 km) fails.
  @Test(arguments: cases)
  func oneMissedWeekNeverHalvesThePeak(distance: RaceDistance, weeks: Int) throws {
    func peak(_ plan: Plan) -> Double {
      plan.weeks.filter { $0.phase != .taper && $0.phase != .race }.map(\.plannedKm).max() ?? 0
    }
    for level in Level.allCases {
      let plan = try makePlan(goal: goal(distance, level, weeks: weeks), rules: repositoryRules)
      let fullWeeks = plan.weeks.filter { $0.phase != .taper && $0.phase != .race }
      for missed in fullWeeks.dropLast() {
        let today = missed.start.adding(days: 7)
        let logs = plan.workouts.filter { $0.date < today && !(missed.start...today).contains($0.date) }.map {
          Completion(
            date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360, planID: plan.id,
            workoutID: $0.id)
        }
        let result = try replan(plan, completions: logs, today: today, pause: nil, rules: repositoryRules)
        let label = "\(distance.rawValue) \(level.rawValue), week \(missed.number) missed"
        #expect(peak(result.plan) >= 0.7 * peak(plan), "\(label): \(peak(result.plan)) vs \(peak(plan))")
        // The first rebuilt week ramps from no less than the week before the missed one, if it was full.
        let before = missed.number >= 2 ? plan.weeks[missed.number - 2] : nil
        if let before, !before.cutback {
          #expect(result.weeklyKm >= before.plannedKm - 0.05, "\(label)")
        } else if before == nil {
          #expect(result.weeklyKm >= plan.goal.currentWeeklyKm - 0.05, "\(label)")
        }
      }
    }
  }
}
