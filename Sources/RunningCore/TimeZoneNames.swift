import Foundation

/// A list of time zone names and the one did-you-mean over them, whichever list it is: libical's builtin zones
/// (ICalendar: the zones a calendar can be written in) or Foundation's (Scheduling).
///
/// A suggestion is, in order: the same name in other case; the zone of a city given alone, case-blind
/// (`london`, `new york` → America/New_York); the nearest name by edit distance (at most 2 edits, or a fifth of
/// the name: `europe/berln`); else the zone of the nearest city (`berln`). Ties go to the name that sorts first, so a
/// message is the same whatever order the list came in.
///
/// ```swift
/// let zones = TimeZoneNames(["Europe/Berlin", "Europe/London", "America/New_York"])
/// zones.suggestion(for: "london")  // "Europe/London"
/// zones.suggestion(for: "Mars/Olympus")  // nil
/// ```
public struct TimeZoneNames: Sendable {
  /// Every name, sorted, with its lowercased form.
  private let names: [(name: String, lowercased: String)]
  /// The first zone by name of each lowercased city (the name's last part).
  private let cities: [String: String]
  /// The cities, sorted.
  private let cityNames: [String]

  /// The index of `names` (any order).
  public init(_ names: some Sequence<String>) {
    self.names = names.sorted().map { ($0, $0.lowercased()) }
    var cities: [String: String] = [:]
    for (name, lowercased) in self.names {
      let city = lowercased.split(separator: "/").last.map(String.init) ?? ""
      if cities[city] == nil { cities[city] = name }
    }
    self.cities = cities
    cityNames = cities.keys.sorted()
  }

  /// A name close to `text`, or nil (see the type's description). Text over 64 characters gets none: no zone name
  /// is that long, and edit distances would cost its length squared.
  public func suggestion(for text: String) -> String? {
    guard text.count <= 64 else { return nil }
    let wanted = text.lowercased()
    if let exact = names.first(where: { $0.lowercased == wanted }) { return exact.name }
    let wantedCity = (wanted.split(separator: "/").last.map(String.init) ?? wanted).replacingOccurrences(
      of: " ", with: "_")
    if let city = cities[wantedCity] { return city }
    if let zone = closest(to: wanted, among: names, within: max(2, wanted.count / 5), by: { $0.lowercased }) {
      return zone.name
    }
    // A typo of the city alone (`berln`): the zone of the closest city, the first zone of that city by name.
    return closestName(to: wantedCity, among: cityNames).flatMap { cities[$0] }
  }
}
