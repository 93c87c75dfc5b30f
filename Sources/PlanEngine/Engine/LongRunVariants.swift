/// The race-specific part of a long run: its last `km` at `zone` pace, the rest easy before it.
struct LongRunVariant: Sendable, Hashable {
  /// Marathon-pace segment or fast finish.
  var kind: LongRunVariantKind
  /// `M` or `race` (goal race pace).
  var zone: Intensity
  /// The kilometres at pace, at the end of the long run.
  var km: Double
}

extension WorkoutFactory {
  /// A long run with a marathon-pace segment or a fast finish: two steps (easy, then the segment at pace) and a
  /// description naming both with their paces, e.g. "Long run 24 km: 14 km easy (5:40-6:10/km, …), then the last
  /// 10 km at marathon pace (5:05/km, …)".
  func variantLongRun(id: String, slot: DaySlot, km: Double, variant: LongRunVariant, purpose: WeekPurpose) -> Workout {
    let easyPace = context.paces.pace(.easy).secondsPerKilometer
    let pace = context.paces.pace(variant.zone).secondsPerKilometer
    let easyKm = max(0, km - variant.km)
    func step(_ km: Double, _ zone: Intensity, _ seconds: Double) -> WorkoutStep {
      WorkoutStep(
        kind: .work, distanceKm: (km * 100).rounded() / 100, durationMin: Int((seconds / 60).rounded()),
        durationSeconds: Int(seconds.rounded()), pace: context.paces.label(zone, perMile: false),
        effort: context.effort(zone), zone: zone, repeat: 1)
    }
    let paceName = variant.zone == .marathon ? "marathon pace" : "goal race pace"
    let seconds = easyKm * easyPace + variant.km * pace
    return Workout(
      id: id, slot: slot.id, date: slot.date, kind: .long, distanceKm: round1(km),
      durationMin: Int((seconds / 60).rounded()), hard: WorkoutKind.long.isHard,
      title: DeferredText { [self] in
        "Long run \(context.units.format(km)): last \(context.units.format(variant.km)) at \(paceName)"
      },
      description: DeferredText { [self] in
        let units = context.units
        let (name, why): (String, String) =
          switch variant.kind {
          case .marathonPace:
            ("Marathon-pace long run", "rehearse marathon pace, fuelling and drinks on tired legs")
          case .fastFinish, .easy:
            (
              "Fast-finish long run",
              "finish strong at \(paceName) on tired legs, as in the last kilometres of the race"
            )
          }
        return "\(units.format(km)): \(units.format(easyKm)) easy (\(target(.easy))), then the last "
          + "\(units.format(variant.km)) at \(paceName) (\(target(variant.zone))). \(name): \(why). \(purpose.text)"
      },
      steps: [step(easyKm, .easy, easyKm * easyPace), step(variant.km, variant.zone, variant.km * pace)])
  }
}
