import RunningCore

extension Workout {
  /// The title in `unit`: the engine writes it in the unit the plan was made in (`Easy 7 km`); a runner who reads
  /// miles sees `Easy 4.3 mi`, the distance converted from the workout's own, as every distance column shows it.
  public func title(in unit: DistanceUnit) -> String { unit.relabel(title, exact: knownDistances) }

  /// The description in `unit` (distances and paces; metres stay metres).
  public func description(in unit: DistanceUnit) -> String { unit.relabel(description, exact: knownDistances) }

  /// The distances (km) the texts round: the workout's and its steps'.
  var knownDistances: [Double] { [distanceKm] + steps.map(\.distanceKm) }
}
