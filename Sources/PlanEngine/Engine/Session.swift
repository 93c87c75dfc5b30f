import Foundation

/// A quality session from the library, sized for one week: repetitions and bout lengths after the
/// progression and Daniels' per-session caps.
struct Session: Sendable, Hashable {
  let templateID: String
  /// The template, shared: the rules copy sessions often (a week's map, its ordered list), and a copy of a boxed
  /// template is one reference, not every string and range of it.
  let box: TemplateBox
  var template: WorkoutTemplate { box.value }
  var reps: Int
  var workKm: Double
  var workSeconds: Double
  var recoveryKm: Double
  var recoverySeconds: Double
  /// For strides: the easy run the strides ride on (set by the easy-fill rule).
  var easyKm: Double = 0
  /// Set when the session had to be made smaller than its template's smallest form.
  var shortened = false

  var warmupKm: Double { box.value.warmupKm }
  var cooldownKm: Double { box.value.cooldownKm }
  var zone: Intensity { box.value.zone }
  var isStrides: Bool { box.value.kind == .strides }
  var workTotalKm: Double { Double(reps) * workKm }
  /// The fewest reps the session may drop to: half of the template's fewest, at least 2 (1 for a single block).
  var fewestReps: Int {
    let reps = box.value.reps
    return reps.upper <= 1 ? 1 : max(2, (Int(reps.lower.rounded()) + 1) / 2)
  }
  var totalKm: Double {
    warmupKm + easyKm + Double(reps) * workKm + Double(max(0, reps - 1)) * recoveryKm + cooldownKm
  }

  /// Sizes `template` for a week, in the whole units a coach writes: reps of whole 100 m, whole minutes or whole
  /// 10 seconds; a single block of whole minutes or half kilometres; recoveries of whole 15 seconds (30 s from two
  /// minutes).
  ///
  /// A session too big for the per-session caps first drops reps down to the template's fewest, then shortens a
  /// bout that has a range down to the range's low end, then drops reps below the fewest (to half of them, at
  /// least 2). A rep is never shortened below its template: "1 km intervals" stay 1 km reps. Only a single block
  /// (reps of 1: a tempo, a race-pace run) shrinks below its range, to half of its low end at most.
  ///
  /// - Parameters:
  ///   - progress: 0 at the start of the build, 1 at peak; picks reps and bout length within the template ranges.
  ///   - volumeKm: the week's volume, for the per-session caps.
  ///   - maxKm: the longest the whole session may be (the long run must stay a third longer).
  /// - Returns: the session, or nil when even its smallest form breaks a cap.
  ///   - floor: the level's smallest session worth doing (full base, build and peak weeks): the session grows to it
  ///     within its template's range, and is nil when the caps do not allow it; nil: no floor.
  static func sized(
    id: String, box: TemplateBox, progress: Double, volumeKm: Double, maxKm: Double,
    context: PlanContext, floor: SessionFloors? = nil
  ) -> Session? {
    let template = box.value
    let pace = context.paces.pace(template.zone)
    let unit = BoutUnit(template.work)
    let single = template.reps.upper <= 1
    let range = unit.range(template.work)
    let grain = unit.grain(single: single)
    func whole(_ value: Double) -> Double { max(grain, (value / grain).rounded() * grain) }
    func bout(_ value: Double) -> (km: Double, seconds: Double) {
      switch unit {
      case .km: return (value, value * pace.secondsPerKilometer)
      case .minutes: return (pace.kilometers(inMinutes: value), value * 60)
      case .seconds: return (pace.kilometers(inMinutes: value / 60), value)
      }
    }
    func recovery(forWorkSeconds work: Double) -> (km: Double, seconds: Double) {
      guard let amount = template.recovery else { return (0, 0) }
      let jog = context.paces.recoveryJog
      if let km = amount.km { return (km.lower, km.lower * jog.secondsPerKilometer) }
      let raw = amount.ofWork.map { $0 * work } ?? amount.minutes.map { $0.lower * 60 } ?? amount.seconds?.lower ?? 0
      let step: Double = raw >= 120 ? 30 : 15
      var seconds = max(step, (raw / step).rounded() * step)
      // Daniels: recoveries between intervals are no longer than the work bouts.
      if template.zone == .interval && seconds > work { seconds = max(step, (work / step).rounded(.down) * step) }
      return (jog.kilometers(inMinutes: seconds / 60), seconds)
    }
    func session(reps: Int, value: Double) -> Session {
      let work = bout(value)
      let rest = recovery(forWorkSeconds: work.seconds)
      return Session(
        templateID: id, box: box, reps: reps, workKm: work.km, workSeconds: work.seconds,
        recoveryKm: rest.km, recoverySeconds: rest.seconds)
    }
    let cap = context.workCap(zone: template.zone, volumeKm: volumeKm)
    let strides = template.kind == .strides
    // 0.05 km of margin so that rounding the session to tenths keeps it inside the limit.
    func fits(_ s: Session) -> Bool { s.workTotalKm <= cap - 0.05 && (s.isStrides || s.totalKm <= maxKm - 0.05) }
    /// `fits(session(reps:value:))` without making the session: the same sums in the same order (``workTotalKm``,
    /// ``totalKm`` with no easy running yet).
    func fits(reps: Int, value: Double) -> Bool {
      let work = bout(value)
      guard Double(reps) * work.km <= cap - 0.05 else { return false }
      if strides { return true }
      let rest = recovery(forWorkSeconds: work.seconds)
      let total =
        template.warmupKm + 0 + Double(reps) * work.km + Double(max(0, reps - 1)) * rest.km + template.cooldownKm
      return total <= maxKm - 0.05
    }

    // A bout with a range takes whole units inside it; a bout without one is the template's, exactly.
    let low = (range.lower / grain - 1e-9).rounded(.up) * grain
    let high = (range.upper / grain + 1e-9).rounded(.down) * grain
    let ranged = range.upper > range.lower && high >= low
    var value = ranged ? min(high, max(low, whole(range.value(at: progress)))) : range.lower
    var reps = Int(template.reps.value(at: progress).rounded())
    // The week sizes threshold and interval sessions too: at least `minWorkOfCap` of the cap, within the range.
    if let share = context.base.intensity.minWorkOfCap, template.kind == .tempo || template.kind == .intervals {
      let want = share * cap
      while Double(reps) * bout(value).km < want - 1e-9 {
        if single && ranged && value + grain <= high + 1e-9 {
          value = ((value + grain) / grain).rounded() * grain
        } else if !single && Double(reps) + 1 <= template.reps.upper + 1e-9 {
          reps += 1
        } else {
          break
        }
      }
    }
    if let floor {
      // Up to the floor, within the template's range: more reps, or a longer single block.
      while !session(reps: reps, value: value).meets(floor, raceKm: context.raceKm) {
        if single && ranged && value + grain <= high + 1e-9 {
          value = ((value + grain) / grain).rounded() * grain
        } else if !single && Double(reps) + 1 <= template.reps.upper + 1e-9 {
          reps += 1
        } else {
          return nil
        }
      }
    }
    func kept(_ s: Session) -> Session? { floor.map { s.meets($0, raceKm: context.raceKm) } ?? true ? s : nil }
    let lowestReps = Int(template.reps.lower.rounded())
    while reps > lowestReps && !fits(reps: reps, value: value) { reps -= 1 }
    // A bout with a range comes down to its low end, in whole units.
    while ranged && value - grain >= low - 1e-9 && !fits(reps: reps, value: value) {
      value = ((value - grain) / grain).rounded() * grain
    }
    if fits(reps: reps, value: value) { return kept(session(reps: reps, value: value)) }
    var shortened: Session
    if single {
      // A single block shrinks, in whole units, to half of its low end.
      let floor = max(grain, (range.lower / 2 / grain - 1e-9).rounded(.up) * grain)
      while value - grain >= floor - 1e-9 && !fits(reps: reps, value: value) {
        value = ((value - grain) / grain).rounded() * grain
      }
      shortened = session(reps: reps, value: value)
    } else {
      // Reps drop, down to half of the fewest (at least 2); the rep itself stays as the template says.
      let fewest = session(reps: reps, value: value).fewestReps
      while reps > fewest && !fits(reps: reps, value: value) { reps -= 1 }
      shortened = session(reps: reps, value: value)
    }
    guard fits(shortened) else { return nil }
    shortened.shortened = true
    return kept(shortened)
  }

  /// At least the level's floor for its kind: minutes at threshold or marathon pace, kilometres at interval pace
  /// (race pace counts as interval pace up to 10 km, as threshold above), hill repeats. Fartlek and strides have none.
  func meets(_ floor: SessionFloors, raceKm: Double) -> Bool {
    switch template.kind {
    case .hills:
      return reps >= floor.hillReps
    case .tempo, .intervals:
      let effective: Intensity = zone == .race ? (raceKm <= 10 + 1e-9 ? .interval : .threshold) : zone
      switch effective {
      case .threshold, .marathon: return Double(reps) * workSeconds >= floor.thresholdMinutes * 60 - 1
      case .interval: return workTotalKm >= floor.intervalKm - 0.05
      default: return true
      }
    default:
      return true
    }
  }
}

/// A workout template behind one reference (``Session/template``); equal and hashed by its value.
final class TemplateBox: Sendable, Hashable {
  let value: WorkoutTemplate

  init(_ value: WorkoutTemplate) { self.value = value }

  static func == (lhs: TemplateBox, rhs: TemplateBox) -> Bool { lhs === rhs || lhs.value == rhs.value }
  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The unit a template's work bout is given in, and the whole steps bouts come in.
enum BoutUnit: Sendable, Hashable {
  case km, minutes, seconds

  init(_ amount: Amount) {
    if amount.km != nil {
      self = .km
    } else if amount.minutes != nil {
      self = .minutes
    } else {
      self = .seconds
    }
  }

  /// The template's range in this unit.
  func range(_ amount: Amount) -> ValueRange {
    switch self {
    case .km: amount.km ?? ValueRange(1, 1)
    case .minutes: amount.minutes ?? ValueRange(1, 1)
    case .seconds: amount.seconds ?? ValueRange(60, 60)
    }
  }

  /// The step bouts are rounded to: reps of 100 m, whole minutes or 10 s; a single block of half kilometres.
  func grain(single: Bool) -> Double {
    switch self {
    case .km: single ? 0.5 : 0.1
    case .minutes: 1
    case .seconds: 10
    }
  }
}
