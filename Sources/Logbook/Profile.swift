import Foundation
import PlanEngine

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
public enum ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A value outside what is allowed.
  case invalid(field: String, value: String, allowed: String)

  public var description: String {
    switch self {
    case let .invalid(field, value, allowed): return "--\(field): '\(value)' is not valid, allowed is \(allowed)"
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
    if let restingHeartRate { try check((25...120).contains(restingHeartRate), "resting-hr", "\(restingHeartRate)", "25 to 120") }
    if let maxHeartRate { try check((120...230).contains(maxHeartRate), "max-hr", "\(maxHeartRate)", "120 to 230") }
    if let timeZone { try check(TimeZone(identifier: timeZone) != nil, "tz", timeZone, "an IANA name such as Europe/Berlin") }
    if let whatsapp {
      try check(whatsapp.count >= 8 && whatsapp.count <= 15 && whatsapp.allSatisfy(\.isASCII) && whatsapp.allSatisfy(\.isNumber),
                "whatsapp", whatsapp, "8 to 15 digits with the country code, no '+' or spaces (e.g. 4915112345678)")
    }
    if let telegram {
      let valid = (5...32).contains(telegram.count) && telegram.first?.isLetter == true
        && telegram.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      try check(valid, "telegram", telegram, "a username of 5 to 32 letters, digits or _, starting with a letter")
    }
    if let email {
      let parts = email.split(separator: "@", omittingEmptySubsequences: false)
      let valid = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".")
        && !parts[1].hasSuffix(".") && !email.contains(" ")
      try check(valid, "email", email, "an address like name@example.com")
    }
    return self
  }

  /// Contact links: `https://wa.me/<digits>`, `https://t.me/<username>`, `mailto:`.
  public var contactLinks: [String] {
    [whatsapp.map { "https://wa.me/\($0)" }, telegram.map { "https://t.me/\($0)" }, email.map { "mailto:\($0)" }]
      .compactMap { $0 }
  }
}
