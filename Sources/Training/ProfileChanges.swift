import RunningCore
import TrainingDomain

extension TrainingStore {
  /// The `profile set` use case: changes the profile `name` (the default one when nil) in one write transaction.
  /// With `fromHealth`, its height and weight first come from the latest imported measures (to a tenth); then
  /// `change` applies the fields given, and `makeDefault` makes it the default profile. `change` gets the profile as
  /// stored inside the transaction: a change made by another process meanwhile is kept, not overwritten by a copy
  /// read before it.
  ///
  /// - Throws: ``LogbookError/noSuchProfile(name:known:)`` or ``LogbookError/noDefaultProfile(known:)`` when there
  ///   is no such profile; ``SettingError`` (`--from-health`) when `fromHealth` finds neither measure; `change`'s
  ///   errors as they are.
  public func setProfile(
    named name: String?, fromHealth: Bool, makeDefault: Bool,
    change: @escaping @Sendable (Profile) throws -> Profile
  ) throws -> Profile {
    let found = try requiredProfile(named: name)
    var measured: (heightCm: Double?, weightKg: Double?) = (nil, nil)
    if fromHealth {
      let height = try latestMeasure(kind: .heightCm, profile: found.name)
      let weight = try latestMeasure(kind: .bodyMassKg, profile: found.name)
      if height == nil && weight == nil {
        throw SettingError(
          option: .field(.fromHealth), value: found.name,
          allowed:
            "a profile with imported health data (runmate health import …), or \(field: .height) and \(field: .weight) by hand"
        )
      }
      func rounded(_ measure: Double?) -> Double? { measure.map { ($0 * 10).rounded() / 10 } }
      measured = (rounded(height?.value), rounded(weight?.value))
    }
    let taken = measured
    return try updateProfile(named: found.name) { stored in
      var current = stored
      if let height = taken.heightCm { current.heightCm = height }
      if let weight = taken.weightKg { current.weightKg = weight }
      current = try change(current)
      if makeDefault { current.isDefault = true }
      return current
    }
  }
}
