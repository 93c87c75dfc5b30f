import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain
import TrainingProgress

/// Load without alarms (issue 24): each run's stress from its pace against threshold pace (rTSS), and fitness,
/// fatigue and form as the 42- and 7-day exponentially weighted loads, checked against the formulas written here
/// independently (the closed-form weighted sums, not the engine's day-by-day recursion).
@Suite struct LoadTests {
  let start = CivilDate(year: 2027, month: 1, day: 4) ?? CivilDate(dayNumber: 0)

  /// A run of `minutes` at `secondsPerKm`.
  func run(_ day: Int, minutes: Double, secondsPerKm: Double, rpe: Int? = nil) -> Completion {
    var run = Completion(
      date: start.adding(days: day), distanceKm: minutes * 60 / secondsPerKm, durationSeconds: minutes * 60,
      kind: .easy)
    run.rpe = rpe
    return run
  }

  @Test func anHourAtThresholdIsAHundredPoints() {
    let threshold = 270.0
    let hour = runLoad(run(0, minutes: 60, secondsPerKm: threshold), thresholdSecondsPerKm: threshold)
    #expect(abs(hour.points - 100) < 1e-9 && hour.source == .pace)
    // Easy at 75 % of threshold speed: 0.75² × 100 a hour; half an hour of it half that.
    let easy = runLoad(run(0, minutes: 30, secondsPerKm: threshold / 0.75), thresholdSecondsPerKm: threshold)
    #expect(abs(easy.points - 0.5 * 56.25) < 1e-9)
    // Faster than threshold counts more, capped at 1.5 intensity (a hand-typed 1-minute 10 km gives no absurd load).
    let absurd = runLoad(run(0, minutes: 1, secondsPerKm: 6), thresholdSecondsPerKm: threshold)
    #expect(abs(absurd.points - 1.0 / 60 * 2.25 * 100) < 1e-9)
    // Without a threshold pace: session RPE, an hour at RPE 7 is 100; else time at 0.75.
    #expect(
      abs(runLoad(run(0, minutes: 60, secondsPerKm: 300, rpe: 7), thresholdSecondsPerKm: nil).points - 100) < 1e-9)
    #expect(runLoad(run(0, minutes: 60, secondsPerKm: 300), thresholdSecondsPerKm: nil).source == .time)
  }

  @Test func fitnessFatigueAndFormFollowTheWeightedSums() throws {
    let threshold = 280.0
    // Eight weeks: easy runs on Tuesday, Thursday and Saturday, a long run on Sunday growing week by week, a rest
    // week in week 4, then ten days off.
    var runs: [Completion] = []
    for week in 0..<8 where week != 3 {
      for day in [1, 3, 5] { runs.append(run(7 * week + day, minutes: 40, secondsPerKm: 360)) }
      runs.append(run(7 * week + 6, minutes: 70 + 8 * Double(week), secondsPerKm: 380))
    }
    func stress(_ run: Completion) -> Double {
      let hours: Double = run.durationSeconds / 3600
      let intensity: Double = threshold / (run.durationSeconds / run.distanceKm)
      return hours * intensity * intensity * 100
    }
    var loads: [Int: Double] = [:]
    for run in runs { loads[run.date.dayNumber, default: 0] += stress(run) }
    // CTL on day T = seed × (41/42)^(T − begin + 1) + Σ_d load_d × (1/42) × (41/42)^(T − d), ATL the same with 7;
    // form on T = CTL(T−1) − ATL(T−1). The seed: 30 points a day from the day before `start` (begin = start).
    let seed = 30.0
    let begin = start.dayNumber
    func weighted(_ days: Double, through day: Int) -> Double {
      var sum = seed * pow((days - 1) / days, Double(day - begin + 1))
      for (loadDay, load) in loads where loadDay <= day {
        sum += load / days * pow((days - 1) / days, Double(day - loadDay))
      }
      return sum
    }
    for offset in [6, 20, 41, 55, 66] {
      let today = start.adding(days: offset)
      let state = try #require(
        loadState(runs, today: today, thresholdSecondsPerKm: threshold, start: start, seed: seed))
      let ctl = weighted(42, through: today.dayNumber)
      let atl = weighted(7, through: today.dayNumber)
      let form = weighted(42, through: today.dayNumber - 1) - weighted(7, through: today.dayNumber - 1)
      let ramp = ctl - weighted(42, through: today.dayNumber - 7)
      #expect(abs(state.fitness - ctl) < 1e-6, "day \(offset): fitness \(state.fitness), expected \(ctl)")
      #expect(abs(state.fatigue - atl) < 1e-6, "day \(offset): fatigue \(state.fatigue), expected \(atl)")
      #expect(abs(state.form - form) < 1e-6, "day \(offset): form \(state.form), expected \(form)")
      #expect(abs(state.rampPerWeek - ramp) < 1e-6, "day \(offset): ramp \(state.rampPerWeek), expected \(ramp)")
    }
    // After ten days off, fatigue has fallen far below fitness: the runner is fresh (form positive).
    let rested = try #require(loadState(runs, today: start.adding(days: 66), thresholdSecondsPerKm: threshold))
    #expect(rested.form > 0 && rested.fatigue < rested.fitness)
    // Today's run raises fatigue today but not today's form (yesterday's balance).
    let day = start.adding(days: 20)
    let before = try #require(loadState(runs, today: day, thresholdSecondsPerKm: threshold))
    let after = try #require(
      loadState(runs + [run(20, minutes: 60, secondsPerKm: 300)], today: day, thresholdSecondsPerKm: threshold))
    #expect(after.fatigue > before.fatigue && after.form == before.form)
    #expect(loadState([], today: day, thresholdSecondsPerKm: threshold) == nil)
  }

  /// `progress` carries the load from the plan's own threshold pace; no verdict from a ratio.
  @Test func progressCarriesFitnessFatigueAndForm() throws {
    let plan = try makePlan(
      goal: goal(.half, .intermediate, weeks: 12, recentRace: RecentRace(distanceKm: 10, timeSeconds: 2_700)),
      rules: repositoryRules)
    let threshold = try #require(plan.goal.vdot)
    let log = plan.weeks[0].workouts.filter(\.kind.isRun).map {
      Completion(date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 330, kind: $0.kind)
    }
    let today = plan.weeks[1].start
    let report = makeProgress(plan: plan, completions: log, today: today)
    // Seeded with the runner's weekly volume a day at easy pace: hours × (threshold / easy)² × 100.
    let vdot = VDOT(value: threshold)
    let easy = vdot.pace(for: .easy).secondsPerKilometer
    let thresholdPace = vdot.threshold.secondsPerKilometer
    let seed = plan.goal.currentWeeklyKm / 7 * easy / 3600 * pow(thresholdPace / easy, 2) * 100
    let expected = loadState(
      log, today: today, thresholdSecondsPerKm: thresholdPace, start: plan.goal.start, seed: seed)
    let state = try #require(expected)
    let tenths = { (value: Double) in (value * 10).rounded() / 10 }
    #expect(
      report.fitness == tenths(state.fitness) && report.fatigue == tenths(state.fatigue)
        && report.form == tenths(state.form) && report.fitnessRampPerWeek == tenths(state.rampPerWeek)
        && report.loadSource == .pace)
    let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
    for field in [
      "\"fitness\":", "\"fatigue\":", "\"form\":", "\"fitness_ramp_per_week\":", "\"load_source\":\"pace\"",
    ] {
      #expect(json.contains(field), "\(field) in \(json.prefix(300))")
    }
  }

  /// TRIMP (Banister 1991) written out here: minutes × HRr × 0.64 e^(1.92 HRr), HRr = (HR − rest) / (max − rest).
  static func banister(minutes: Double, bpm: Double, rest: Double, max: Double) -> Double {
    let reserve = (bpm - rest) / (max - rest)
    return minutes * reserve * 0.64 * exp(1.92 * reserve)
  }

  @Test func heartRateLoadIsTRIMPScaledToAThresholdHour() throws {
    let heart = try #require(HeartRates(resting: 50, maximum: 190))
    // No threshold given: 88 % of the reserve above rest, 50 + 0.88 × 140 = 173.2 bpm.
    #expect(abs(heart.threshold - 173.2) < 1e-9)
    var easy = run(0, minutes: 45, secondsPerKm: 330)
    easy.averageHeartRate = 140
    let load = runLoad(easy, thresholdSecondsPerKm: 270, heart: heart)
    let expected =
      Self.banister(minutes: 45, bpm: 140, rest: 50, max: 190)
      / Self.banister(minutes: 60, bpm: 173.2, rest: 50, max: 190) * 100
    #expect(load.source == .heartRate)
    #expect(abs(load.points - expected) < 1e-9, "\(load.points) vs \(expected)")
    // An hour at threshold heart rate is 100, whatever the pace; a harder heart rate at the same pace counts more.
    var hour = run(0, minutes: 60, secondsPerKm: 400)
    hour.averageHeartRate = 173
    #expect(abs(runLoad(hour, thresholdSecondsPerKm: 270, heart: heart).points - 100) < 2)
    var hot = easy
    hot.averageHeartRate = 160
    #expect(runLoad(hot, thresholdSecondsPerKm: 270, heart: heart).points > load.points)
    // Without the runner's heart rates, or without one on the run: pace, as before.
    #expect(runLoad(easy, thresholdSecondsPerKm: 270).source == .pace)
    #expect(runLoad(run(0, minutes: 45, secondsPerKm: 330), thresholdSecondsPerKm: 270, heart: heart).source == .pace)
    // Rates too close together (or one missing) are not used.
    #expect(HeartRates(resting: 120, maximum: 130) == nil && HeartRates(resting: nil, maximum: 190) == nil)
  }

  @Test func progressLoadsRunsWithAHeartRateByTRIMP() throws {
    let plan = try makePlan(
      goal: goal(.half, .intermediate, weeks: 12, recentRace: RecentRace(distanceKm: 10, timeSeconds: 2_700)),
      rules: repositoryRules)
    let log = plan.weeks[0].workouts.filter(\.kind.isRun).map {
      var run = Completion(
        date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 330, kind: $0.kind)
      run.averageHeartRate = 150
      return run
    }
    let today = plan.weeks[1].start
    let heart = try #require(HeartRates(resting: 50, maximum: 190))
    let byPace = makeProgress(plan: plan, completions: log, today: today)
    let byHeart = makeProgress(plan: plan, completions: log, today: today, heart: heart)
    #expect(byPace.loadSource == .pace && byHeart.loadSource == .heartRate)
    #expect(byPace.fitness != byHeart.fitness)
    let json = String(decoding: try JSONEncoder().encode(byHeart), as: UTF8.self)
    #expect(json.contains("\"load_source\":\"heart-rate\""), "\(json.prefix(300))")
  }
}
