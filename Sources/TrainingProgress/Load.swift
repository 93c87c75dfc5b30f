import Foundation
import Ingest
import PlanEngine
import RunningCore
import TrainingDomain

/// How a run's training load was worked out.
public enum LoadSource: String, Sendable, Hashable, Codable {
  /// Running stress from pace against threshold pace (rTSS): hours × intensity² × 100.
  case pace
  /// Session RPE (Foster): minutes × RPE, scaled so that an hour at RPE 7 (about threshold) is 100 points.
  case rpe
  /// Neither pace nor RPE is usable: minutes at an assumed easy intensity (0.75).
  case time
  /// Heart rate (Banister's TRIMP against the runner's resting and maximum heart rates), scaled so that an hour at
  /// threshold heart rate is 100 points, as TrainingPeaks' hrTSS.
  case heartRate = "heart-rate"
}

/// The runner's heart rates for TRIMP: resting, maximum, and the threshold an hour at which is 100 points.
public struct HeartRates: Sendable, Hashable {
  /// The share of the heart-rate reserve at lactate threshold when the runner gives none: about 88 % (Karvonen
  /// reserve at threshold is 85–92 % in trained runners; Friel's LTHR is about 88 % of the reserve above rest).
  public static let thresholdReserveShare = 0.88

  /// Beats a minute at rest.
  public var resting: Double
  /// Beats a minute at most.
  public var maximum: Double
  /// Beats a minute at lactate threshold.
  public var threshold: Double

  /// The runner's rates, nil unless both resting and maximum are known and at least 20 beats apart; threshold
  /// `thresholdReserveShare` of the reserve above rest when not given.
  public init?(resting: Int?, maximum: Int?, threshold: Int? = nil) {
    guard let resting, let maximum, maximum - resting >= 20 else { return nil }
    self.resting = Double(resting)
    self.maximum = Double(maximum)
    self.threshold =
      threshold.map(Double.init) ?? Double(resting) + HeartRates.thresholdReserveShare * Double(maximum - resting)
  }

  /// Banister's TRIMP for `minutes` at `bpm`: minutes × HRr × 0.64 e^(1.92 HRr), HRr the share of the reserve
  /// (clamped to 0…1). The 1.92 weighting (Banister 1991, men's lactate curve) is used for everyone: profiles do not
  /// ask for sex for this, and the scale is relative to the runner's own threshold hour anyway.
  public func trimp(minutes: Double, bpm: Double) -> Double {
    let reserve = min(1, max(0, (bpm - resting) / (maximum - resting)))
    return minutes * reserve * 0.64 * exp(1.92 * reserve)
  }

  /// Stress points for `minutes` at `bpm`: 100 for an hour at ``threshold``.
  public func points(minutes: Double, bpm: Double) -> Double {
    let hour = trimp(minutes: 60, bpm: threshold)
    return hour > 0 ? trimp(minutes: minutes, bpm: bpm) / hour * 100 : 0
  }
}

/// The training load of one run, in stress points (100 = an hour at threshold pace, as TrainingPeaks' TSS).
///
/// - Pace (rTSS, Skiba / TrainingPeaks): intensity = threshold pace ÷ the run's average pace (moving time), capped at
///   1.5; load = hours × intensity² × 100. An easy hour at 0.75 is 56 points; an hour at threshold 100.
/// - With no threshold pace (a plan saved before VDOTs were kept), session RPE when the run has one (minutes × RPE ×
///   100 / 420), else minutes at 0.75.
/// - Heart rate first, when the run has an average heart rate and the runner's resting and maximum heart rates are
///   known (`heart`): ``HeartRates/points(minutes:bpm:)`` (it tells hills, heat and fatigue that pace does not).
public func runLoad(_ run: Completion, thresholdSecondsPerKm: Double?, heart: HeartRates? = nil)
  -> (points: Double, source: LoadSource)
{
  let seconds = run.movingSeconds ?? run.durationSeconds
  guard seconds.isFinite, seconds > 0, run.distanceKm.isFinite, run.distanceKm > 0 else { return (0, .time) }
  let hours = min(seconds, 48 * 3600) / 3600
  if let heart, let bpm = run.averageHeartRate, (30...230).contains(bpm) {
    return (heart.points(minutes: hours * 60, bpm: Double(bpm)), .heartRate)
  }
  if let threshold = thresholdSecondsPerKm, threshold > 0 {
    let intensity = min(1.5, threshold / (seconds / run.distanceKm))
    return (hours * intensity * intensity * 100, .pace)
  }
  if let rpe = run.rpe, (1...10).contains(rpe) {
    return (hours * 60 * Double(rpe) * 100 / 420, .rpe)
  }
  return (hours * 0.75 * 0.75 * 100, .time)
}

/// Fitness, fatigue and form on a day: the Banister impulse-response model as TrainingPeaks' Performance Management
/// Chart draws it. Fitness (CTL) and fatigue (ATL) are the 42- and 7-day exponentially weighted averages of the daily
/// load (each day: yesterday's value + (today's load − yesterday's value) / days); form (TSB) is yesterday's fitness
/// minus yesterday's fatigue, so today's run does not change today's form.
public struct LoadState: Sendable, Hashable, Codable {
  /// Chronic training load: the 42-day weighted average of daily stress points.
  public var fitness: Double
  /// Acute training load: the 7-day weighted average.
  public var fatigue: Double
  /// Training stress balance: yesterday's fitness minus yesterday's fatigue (negative: tired).
  public var form: Double
  /// Fitness now against 7 days ago: how fast it is building (TrainingPeaks' ramp rate), points a week.
  public var rampPerWeek: Double
}

/// The ``LoadState`` on `today` from every run on or before it, with `thresholdSecondsPerKm` for
/// ``runLoad(_:thresholdSecondsPerKm:)``; nil without a run. Fitness and fatigue start, on the day before `start`
/// (or before the first run, when that is earlier), at `seed` points a day: the runner's training before the log (a
/// plan seeds it with the weekly volume the runner gave, at easy pace), so a runner is not unfit on day one.
public func loadState(
  _ runs: [Completion], today: CivilDate, thresholdSecondsPerKm: Double?, heart: HeartRates? = nil,
  start: CivilDate? = nil, seed: Double = 0, fitnessDays: Double = 42, fatigueDays: Double = 7
) -> LoadState? {
  let past = runs.filter { $0.isRun && $0.date <= today }
  guard let firstRun = past.map(\.date).min() else { return nil }
  let first = min(start ?? firstRun, firstRun)
  var daily: [Int: Double] = [:]
  for run in past {
    daily[run.date.dayNumber, default: 0] +=
      runLoad(run, thresholdSecondsPerKm: thresholdSecondsPerKm, heart: heart).points
  }
  var fitness = seed.isFinite ? max(0, seed) : 0
  var fatigue = fitness
  var form = 0.0
  var weekAgo = fitness
  for day in first.dayNumber...today.dayNumber {
    form = fitness - fatigue
    let load = daily[day] ?? 0
    fitness += (load - fitness) / fitnessDays
    fatigue += (load - fatigue) / fatigueDays
    if day == today.dayNumber - 7 { weekAgo = fitness }
  }
  return LoadState(fitness: fitness, fatigue: fatigue, form: form, rampPerWeek: fitness - weekAgo)
}
