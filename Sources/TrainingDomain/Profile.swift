import Foundation
import PlanEngine
import RunningCore

/// A runner (or a coach): who they are and how they like to train. Plans and exports take their defaults from it.
public struct Profile: Sendable, Hashable, Codable {
  /// The database id.
  public var id: Int64?
  /// Unique name, used with `--profile`.
  public var name: String
  /// A coach has athletes.
  public var isCoach: Bool = false
  /// The profile commands use without `--profile`.
  public var isDefault: Bool = false
  /// Experience level.
  public var level: Level?
  /// Birth year.
  public var birthYear: Int?
  /// Sex, optional and free text (`female`, `male`, …).
  public var sex: String?
  /// Height in centimetres.
  public var heightCm: Double?
  /// Weight in kilograms.
  public var weightKg: Double?
  /// Resting heart rate.
  public var restingHeartRate: Int?
  /// Maximum heart rate.
  public var maxHeartRate: Int?
  /// Lactate-threshold heart rate (about the average of a hard 30-minute solo run's last 20 minutes, per Friel).
  public var lactateThresholdHeartRate: Int?
  /// The heart-rate zone model (nil: Karvonen when max and resting are known, else %LTHR).
  public var heartRateZoneModel: HeartRateZoneModel?
  /// How workouts are prescribed (nil: by pace).
  public var workoutTargets: WorkoutTargets?
  /// Display units.
  public var units: DistanceUnit?
  /// IANA time zone.
  public var timeZone: String?
  /// Preferred run days (`mon,wed,fri,sun`).
  public var runDays: [Weekday]?
  /// Preferred long-run day.
  public var longRunDay: Weekday?
  /// Reminders (`30m`, `20:00-1d`).
  public var reminders: [String]?
  /// The usual race start time (`09:00`): race events are timed from it instead of all-day.
  public var raceStart: String?
  /// Coach: specialty.
  public var specialty: String?
  /// Coach: certifications.
  public var certifications: [String]?
  /// Coach: a short bio.
  public var bio: String?
  /// WhatsApp number, digits with country code.
  public var whatsapp: String?
  /// Telegram username.
  public var telegram: String?
  /// E-mail address.
  public var email: String?

  /// Creates a profile.
  public init(name: String) { self.name = name }
}

/// What is wrong with a profile field, in words.
public enum ProfileError: RunnerFacingError, Sendable, Equatable, CustomStringConvertible {
  /// A value outside what is allowed.
  case invalid(field: String, value: String, allowed: String)

  /// The message for a runner: one line naming what is wrong and what is allowed.
  public var description: String {
    switch self {
    case .invalid(let field, let value, let allowed):
      return "--\(field): '\(value)' is not valid, allowed is \(allowed)"
    }
  }
}

extension Profile {
  /// Checks every field; the first problem is thrown.
  public func validated() throws(ProfileError) -> Profile {
    func check(_ ok: Bool, _ field: String, _ value: String, _ allowed: String) throws(ProfileError) {
      if !ok { throw .invalid(field: field, value: value, allowed: allowed) }
    }
    try check(!name.isEmpty && name.count <= 60 && !name.contains("/"), "name", name, "1 to 60 characters, no '/'")
    if let birthYear { try check((1900...2025).contains(birthYear), "birth-year", String(birthYear), "1900 to 2025") }
    if let heightCm { try check((100...250).contains(heightCm), "height", "\(heightCm)", "100 to 250 cm") }
    if let weightKg { try check((25...300).contains(weightKg), "weight", "\(weightKg)", "25 to 300 kg") }
    if let restingHeartRate {
      try check((25...120).contains(restingHeartRate), "resting-hr", "\(restingHeartRate)", "25 to 120")
    }
    if let maxHeartRate { try check((120...230).contains(maxHeartRate), "max-hr", "\(maxHeartRate)", "120 to 230") }
    if let restingHeartRate, let maxHeartRate {
      try check(
        maxHeartRate - restingHeartRate >= 20, "resting-hr", "\(restingHeartRate)",
        "at least 20 beats under the max HR (\(maxHeartRate))")
    }
    try validateHeartRates()
    if let timeZone {
      try check(TimeZone(identifier: timeZone) != nil, "tz", timeZone, "an IANA name such as Europe/Berlin")
    }
    if let raceStart {
      let parts = raceStart.split(separator: ":", omittingEmptySubsequences: false)
      let valid =
        parts.count == 2 && parts[1].count == 2 && (1...2).contains(parts[0].count)
        && parts.allSatisfy { $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        && (0...23).contains(Int(parts[0]) ?? -1) && (0...59).contains(Int(parts[1]) ?? -1)
      try check(valid, "race-start", raceStart, "HH:MM (09:00)")
    }
    if let whatsapp {
      try check(
        Profile.whatsappLink(whatsapp) != nil, "whatsapp", whatsapp,
        "8 to 15 digits with the country code, no '+' or spaces (e.g. 4915112345678)")
    }
    if let telegram {
      try check(
        Profile.telegramLink(telegram) != nil, "telegram", telegram,
        "a username of 5 to 32 letters, digits or _, starting with a letter")
    }
    if let email {
      try check(
        Profile.mailtoLink(email) != nil, "email", email,
        "an address like name@example.com (no spaces, quotes, brackets or colons; a domain name after the @)")
    }
    return self
  }

  /// The runner's heart-rate zones by the chosen model (or the default one), nil when the profile lacks the rates.
  public var heartRateZones: HeartRateZones? {
    HeartRateZones(
      model: heartRateZoneModel, resting: restingHeartRate, maximum: maxHeartRate, threshold: lactateThresholdHeartRate)
  }

  /// The lactate-threshold rate between rest and max, and a zone model and targets the rates support.
  private func validateHeartRates() throws(ProfileError) {
    func check(_ ok: Bool, _ field: String, _ value: String, _ allowed: String) throws(ProfileError) {
      if !ok { throw .invalid(field: field, value: value, allowed: allowed) }
    }
    if let threshold = lactateThresholdHeartRate {
      try check((100...220).contains(threshold), "lthr", "\(threshold)", "100 to 220")
      if let maxHeartRate {
        try check(threshold < maxHeartRate, "lthr", "\(threshold)", "under the max HR (\(maxHeartRate))")
      }
      if let restingHeartRate {
        try check(threshold > restingHeartRate + 20, "lthr", "\(threshold)", "over 20 beats above the resting HR")
      }
    }
    if let model = heartRateZoneModel,
      let lacking = HeartRateZones.missing(
        model: model, resting: restingHeartRate, maximum: maxHeartRate, threshold: lactateThresholdHeartRate)
    {
      try check(false, "hr-zones", model.rawValue, "a model whose heart rates the profile holds: give the \(lacking)")
    }
    if let targets = workoutTargets, targets != .pace, heartRateZones == nil {
      let lacking =
        HeartRateZones.missing(
          model: heartRateZoneModel, resting: restingHeartRate, maximum: maxHeartRate,
          threshold: lactateThresholdHeartRate) ?? "heart rates"
      try check(false, "targets", targets.rawValue, "pace until the profile holds the \(lacking)")
    }
  }

  /// Contact links: `https://wa.me/<digits>`, `https://t.me/<username>`, `mailto:<address>`. Each is built only
  /// from a value that passes its check (a database written by hand or by an older version may hold others,
  /// which are left out): no link carries text that was not validated.
  public var contactLinks: [String] {
    [whatsapp.flatMap(Profile.whatsappLink), telegram.flatMap(Profile.telegramLink), email.flatMap(Profile.mailtoLink)]
      .compactMap { $0 }
  }

  /// `https://wa.me/<number>` for 8 to 15 ASCII digits (the country code first), else nil.
  public static func whatsappLink(_ number: String) -> String? {
    guard (8...15).contains(number.utf8.count), number.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return nil
    }
    return "https://wa.me/\(number)"
  }

  /// `https://t.me/<username>` for a Telegram username: 5 to 32 ASCII letters, digits or `_`, starting with a
  /// letter; else nil.
  public static func telegramLink(_ username: String) -> String? {
    let bytes = Array(username.utf8)
    func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    guard (5...32).contains(bytes.count), let first = bytes.first, isLetter(first),
      bytes.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x5F })
    else { return nil }
    return "https://t.me/\(username)"
  }

  /// `mailto:<address>` for an e-mail address (RFC 5322 `addr-spec` in its dot-atom form, ASCII: no quoted local
  /// parts, comments or address literals), with the characters RFC 6068 reserves in a `mailto:` URI
  /// percent-encoded; else nil.
  public static func mailtoLink(_ address: String) -> String? {
    let bytes = Array(address.utf8)
    guard bytes.count <= 254, let at = bytes.firstIndex(of: 0x40) else { return nil }
    let local = bytes[..<at]
    let domain = bytes[(at + 1)...]
    func isAlphanumeric(_ byte: UInt8) -> Bool {
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    // atext (RFC 5322 §3.2.3) and dots between atoms.
    let atext = Set("!#$%&'*+-/=?^_`{|}~".utf8)
    let localAtoms = local.split(separator: 0x2E, omittingEmptySubsequences: false)
    guard (1...64).contains(local.count),
      localAtoms.allSatisfy({ atom in
        !atom.isEmpty && atom.allSatisfy { isAlphanumeric($0) || atext.contains($0) }
      })
    else { return nil }
    // A domain name: two or more labels of letters, digits and inner hyphens, the last one letters only.
    let labels = domain.split(separator: 0x2E, omittingEmptySubsequences: false)
    guard labels.count >= 2, domain.count <= 253,
      labels.allSatisfy({ label in
        (1...63).contains(label.count) && label.first != 0x2D && label.last != 0x2D
          && label.allSatisfy { isAlphanumeric($0) || $0 == 0x2D }
      }), let top = labels.last, top.count >= 2, top.allSatisfy({ !(0x30...0x39).contains($0) && $0 != 0x2D })
    else { return nil }
    // RFC 6068 §2: outside unreserved characters and `!$'*+`, percent-encode.
    let plain = Set("-._~!$'*+".utf8)
    var link = "mailto:"
    for byte in local {
      if isAlphanumeric(byte) || plain.contains(byte) {
        link.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        link += "%" + String(byte, radix: 16, uppercase: true)
      }
    }
    return link + "@" + String(decoding: domain, as: UTF8.self)
  }
}

extension ProfileError {
  /// Every profile error is a value not allowed.
  public var kind: FailureKind { .badInput }
}
