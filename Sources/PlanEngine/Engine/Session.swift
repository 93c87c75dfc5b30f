import Foundation

/// A quality session from the library, sized for one week: repetitions and bout lengths after the
/// progression and Daniels' per-session caps.
struct Session: Sendable, Hashable {
  let templateID: String
  let template: WorkoutTemplate
  var reps: Int
  var workKm: Double
  var workSeconds: Double
  var recoveryKm: Double
  var recoverySeconds: Double
  /// For strides: the easy run the strides ride on (set by the easy-fill rule).
  var easyKm: Double = 0
  /// Set when the session had to be made smaller than its template's smallest form.
  var shortened = false

  var warmupKm: Double { template.warmupKm }
  var cooldownKm: Double { template.cooldownKm }
  var zone: Intensity { template.zone }
  var isStrides: Bool { template.kind == .strides }
  var workTotalKm: Double { Double(reps) * workKm }
  var totalKm: Double {
    warmupKm + easyKm + Double(reps) * workKm + Double(max(0, reps - 1)) * recoveryKm + cooldownKm
  }

  /// Sizes `template` for a week.
  ///
  /// - Parameters:
  ///   - progress: 0 at the start of the build, 1 at peak; picks reps and bout length within the template ranges.
  ///   - volumeKm: the week's volume, for the per-session caps.
  ///   - maxKm: the longest the whole session may be (the long run must stay a third longer).
  /// - Returns: the session, or nil when even its smallest form breaks a cap.
  static func sized(
    id: String, template: WorkoutTemplate, progress: Double, volumeKm: Double, maxKm: Double,
    context: PlanContext
  ) -> Session? {
    let pace = context.paces.pace(template.zone)
    func bout(at fraction: Double) -> (km: Double, seconds: Double) {
      if let km = template.work.km {
        let value = km.value(at: fraction)
        return (value, value * pace.secondsPerKilometer)
      }
      let seconds =
        template.work.minutes.map { $0.value(at: fraction) * 60 } ?? template.work.seconds?.value(at: fraction) ?? 60
      return (pace.kilometers(inMinutes: seconds / 60), seconds)
    }
    func recovery(forWorkSeconds work: Double) -> (km: Double, seconds: Double) {
      guard let amount = template.recovery else { return (0, 0) }
      let jog = context.paces.recoveryJog
      var seconds =
        amount.km.map { $0.lower * jog.secondsPerKilometer }
        ?? amount.ofWork.map { $0 * work } ?? amount.minutes.map { $0.lower * 60 } ?? amount.seconds?.lower ?? 0
      // Daniels: recoveries between intervals are no longer than the work bouts (also after shrinking a bout).
      if template.zone == .interval { seconds = min(seconds, work) }
      return (jog.kilometers(inMinutes: seconds / 60), seconds)
    }
    let work = bout(at: progress)
    let rest = recovery(forWorkSeconds: work.seconds)
    var session = Session(
      templateID: id, template: template,
      reps: Int(template.reps.value(at: progress).rounded()),
      workKm: work.km, workSeconds: work.seconds, recoveryKm: rest.km, recoverySeconds: rest.seconds)
    let cap = context.workCap(zone: template.zone, volumeKm: volumeKm)
    let lowestReps = Int(template.reps.lower.rounded())
    // 0.05 km of margin so that rounding the session to tenths keeps it inside the limit.
    func fits(_ s: Session) -> Bool { s.workTotalKm <= cap - 0.05 && (s.isStrides || s.totalKm <= maxKm - 0.05) }
    while session.reps > lowestReps && !fits(session) { session.reps -= 1 }
    if fits(session) { return session }
    // Shrink the bouts themselves, down to half of the template's smallest bout, in whole units.
    let smallest = bout(at: 0)
    let byCap = (cap - 0.05) / Double(session.reps)
    let bySession =
      session.isStrides
      ? Double.infinity
      : (maxKm - 0.05 - session.warmupKm - session.cooldownKm - Double(session.reps - 1) * session.recoveryKm)
        / Double(session.reps)
    var km = min(byCap, bySession)
    if template.work.km != nil {
      km = (km * 10).rounded(.down) / 10
    } else {
      let seconds = pace.minutes(forKilometers: km) * 60
      let step: Double = seconds >= 120 ? 60 : 5
      km = pace.kilometers(inMinutes: ((seconds / step).rounded(.down) * step) / 60)
    }
    guard km >= smallest.km * 0.5, km > 0 else { return nil }
    session.workKm = km
    session.workSeconds = km * pace.secondsPerKilometer
    let shrunkRest = recovery(forWorkSeconds: session.workSeconds)
    session.recoveryKm = shrunkRest.km
    session.recoverySeconds = shrunkRest.seconds
    session.shortened = true
    return fits(session) ? session : nil
  }
}
