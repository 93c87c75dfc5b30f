import PlanEngine
import RunningCore
import TrainingDomain

/// A value the runner must give and did not (`log` without `--distance`): the field and what it takes.
public struct RequiredSettingError: FieldError, Sendable, Equatable {
  /// The field (`.distance`), or the name a front door gave.
  public let option: FieldName
  /// What it takes, in words.
  public let allowed: FieldText

  /// Creates the error for `option`, which takes `allowed`.
  public init(option: FieldName, allowed: FieldText) {
    self.option = option
    self.allowed = allowed
  }

  /// Creates the error for the field `field`, which takes `allowed`.
  public init(field: InputField, allowed: FieldText) { self.init(option: .field(field), allowed: allowed) }

  /// A missing value is a bad input.
  public var kind: FailureKind { .badInput }
  /// `--distance is required (a distance such as 8.2km or 5mi)`, the field named by `name`.
  public func message(naming name: (InputField) -> String) -> String {
    "\(option.named(by: name)) is required (\(allowed.worded(by: name)))"
  }
}

/// A run as the runner gives it to `log`: the day, the distance and the time in their words, and what they add.
public struct LoggedRunWords: Sendable {
  /// The day: `YYYY-MM-DD` or words (`yesterday`); nil for today.
  public var date: String?
  /// `8.2km`, `5mi`, a race's name (`half`, `mile`), or a bare number in the runner's unit.
  public var distance: String?
  /// `h:mm:ss` or `mm:ss`.
  public var time: String?
  /// A workout kind's name.
  public var kind: String?
  /// A race (the same as the kind `race`).
  public var race: Bool
  /// Perceived effort, 1 to 10.
  public var rpe: Int?
  /// Average heart rate.
  public var heartRate: Int?
  /// A note.
  public var note: String?

  /// Creates the words of a run.
  public init(
    date: String?, distance: String?, time: String?, kind: String?, race: Bool, rpe: Int?, heartRate: Int?,
    note: String?
  ) {
    (self.date, self.distance, self.time, self.kind, self.race) = (date, distance, time, kind, race)
    (self.rpe, self.heartRate, self.note) = (rpe, heartRate, note)
  }

  /// The run these words give, by the rules of a run logged by hand: on `today` (the runner's) or earlier, 0.1 to
  /// 250 km (a bare number in `units`), a pace of 2:00 to 20:00 a kilometre, a race time a human can run, an effort
  /// of 1 to 10 and a heart rate of 30 to 230.
  /// - Throws: ``RequiredSettingError`` without a distance or a time, ``SettingError`` for a value not allowed.
  public func completion(today: CivilDate, units: DistanceUnit) throws -> Completion {
    let day = try date.map { try SettingValues.spokenDate($0, option: "DATE", today: today) } ?? today
    guard day <= today else {
      throw SettingError(
        option: "DATE", value: day.description,
        allowed: "today (\(today)) or earlier: runs are logged after they happen")
    }
    guard let distanceText = distance else {
      throw RequiredSettingError(option: .field(.distance), allowed: "a distance such as 8.2km or 5mi")
    }
    // A race's name (`half`, `mile`), else a distance such as 3mi or 5km; a bare number is the runner's unit.
    let race =
      RaceDistance(parsing: distanceText)?.kilometers
      ?? (distanceText.lowercased() == "mile" ? Distance.kilometersPerMile : nil)
    let km =
      try race ?? SettingValues.distance(distanceText, option: .field(.distance), range: 0.1...250, bare: units)
    guard let timeText = time else { throw RequiredSettingError(option: .field(.time), allowed: "h:mm:ss or mm:ss") }
    guard let seconds = parseRaceTime(timeText), seconds > 0 else {
      throw SettingError(option: .field(.time), value: timeText, allowed: "h:mm:ss or mm:ss, e.g. 47:30")
    }
    let pace = seconds / km
    let paces = Plausible.handLoggedSecondsPerKm
    guard paces.contains(pace) else {
      throw SettingError(
        option: .field(.time), value: timeText,
        allowed:
          "a pace between \(units.pace(secondsPerKilometer: paces.lowerBound)) and "
          + "\(units.pace(secondsPerKilometer: paces.upperBound)) "
          + "for \(units.format(km)) (this is \(units.pace(secondsPerKilometer: pace))); check \(field: .distance) and \(field: .time)"
      )
    }
    let workoutKind = try self.workoutKind()
    if workoutKind == .race, let vdot = RaceEvidence.superhumanVDOT(distanceKm: km, timeSeconds: seconds) {
      throw SettingError(
        option: .field(.time), value: timeText,
        allowed: "a race time a human can run: \(units.format(km)) in \(formatRaceTime(seconds)) gives VDOT "
          + "\(oneDecimal(vdot)), above the world records (about 85); check \(field: .distance) and \(field: .time)")
    }
    if let rpe, !(1...10).contains(rpe) {
      throw SettingError(option: .field(.rpe), value: String(rpe), allowed: "1 to 10")
    }
    if let heartRate, !(30...230).contains(heartRate) {
      throw SettingError(option: .field(.heartRate), value: String(heartRate), allowed: "30 to 230 beats per minute")
    }
    return Completion(
      date: day, distanceKm: km, durationSeconds: seconds, kind: workoutKind, rpe: rpe,
      averageHeartRate: heartRate, note: note, source: .manual)
  }

  /// The kind given, `race` with ``race`` (which allows no other kind).
  func workoutKind() throws(SettingError) -> WorkoutKind? {
    let given = try kind.map { (text) throws(SettingError) in try SettingValues.workoutKind(text) }
    guard race else { return given }
    guard given == nil || given == .race else {
      throw SettingError(
        option: .field(.kind), value: kind ?? "", allowed: "race with \(field: .race) (or leave \(field: .kind) out)")
    }
    return .race
  }
}
