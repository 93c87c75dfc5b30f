import Foundation
import RunMateTestSupport
import RunningCore
import Testing

/// The leaf vocabulary against independent references: Foundation's Gregorian calendar for day numbers, and a
/// plain recursive definition for edit distance.
struct RunningCoreTests {
  @Test func dayNumbersAgreeWithFoundationsCalendar() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    var random = SplitMix(seed: 0x5EED)
    // Every day of 1899–1901 and 1999–2001 (century rules), then random days from 1600 to year 9999 (Foundation
    // switches to the Julian calendar before October 1582).
    var numbers = Array(-25_567 ... -24_472) + Array(10_592...11_687)
    numbers += (0..<2_000).map { _ in Int(random.next() % 3_060_000) - 135_140 }
    for number in numbers {
      let date = CivilDate(dayNumber: number)
      let reference = calendar.dateComponents(
        [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(number) * 86_400))
      #expect(
        [date.year, date.month, date.day] == [reference.year, reference.month, reference.day],
        "day \(number)")
      #expect(date.dayNumber == number)
      let weekday = calendar.component(.weekday, from: Date(timeIntervalSince1970: TimeInterval(number) * 86_400))
      #expect(date.weekday.index == (weekday + 5) % 7, "weekday of \(date)")
    }
  }

  @Test func invalidFieldsAreNoDate() {
    #expect(CivilDate(year: 2027, month: 2, day: 29) == nil)
    #expect(CivilDate(year: 2028, month: 2, day: 29) != nil)
    #expect(CivilDate(year: 1900, month: 2, day: 29) == nil)
    #expect(CivilDate(year: 2000, month: 2, day: 29) != nil)
    #expect(CivilDate(iso: "2027-1-05") == nil)
    #expect(CivilDate(iso: "2027-01-05")?.description == "2027-01-05")
  }

  @Test func editDistanceMatchesItsDefinition() {
    func reference(_ a: Substring, _ b: Substring) -> Int {
      guard let x = a.first else { return b.count }
      guard let y = b.first else { return a.count }
      if x == y { return reference(a.dropFirst(), b.dropFirst()) }
      return 1
        + min(reference(a.dropFirst(), b), reference(a, b.dropFirst()), reference(a.dropFirst(), b.dropFirst()))
    }
    var random = SplitMix(seed: 42)
    let alphabet = Array("abcé")
    for _ in 0..<400 {
      let a = String((0..<Int(random.next() % 6)).map { _ in alphabet[Int(random.next() % 4)] })
      let b = String((0..<Int(random.next() % 6)).map { _ in alphabet[Int(random.next() % 4)] })
      #expect(editDistance(a, b) == reference(a[...], b[...]), "\(a) → \(b)")
    }
  }

  @Test func closestNameTakesTheNearestAndBreaksTiesByName() {
    #expect(closestName(to: "marathn", among: ["half", "marathon", "10k"]) == "marathon")
    #expect(closestName(to: "5j", among: ["5k", "5m"]) == "5k")
    #expect(closestName(to: "5j", among: ["5m", "5k"]) == "5k")
    #expect(closestName(to: "zzzzzz", among: ["marathon"]) == nil)
    #expect(closestName(to: String(repeating: "a", count: 65), among: ["a"]) == nil)
    #expect(closestName(to: "berln", among: ["Berlin"], within: 2) == "Berlin")
  }

  @Test func closestComparesEachCandidateByItsKey() {
    let places = [(id: 2, name: "Lima"), (id: 1, name: "Lime"), (id: 3, name: "Limerick")]
    // "lim" is one edit from both lowercased keys: the key that sorts first wins, whatever the order.
    #expect(closest(to: "lim", among: places, within: 1) { $0.name.lowercased() }?.id == 2)
    #expect(closest(to: "lim", among: places.reversed(), within: 1) { $0.name.lowercased() }?.id == 2)
    // Compared as written, the capital is one more edit.
    #expect(closest(to: "lim", among: places, within: 1) { $0.name } == nil)
    #expect(closest(to: "limerik", among: places, within: 1) { $0.name.lowercased() }?.id == 3)
  }

  @Test func aZoneIsSuggestedForOtherCaseACityAloneOrATypo() {
    let names = ["America/New_York", "Europe/Berlin", "Europe/London", "Europe/Zurich", "Asia/Kolkata", "UTC"]
    let zones = TimeZoneNames(names.shuffled())
    #expect(zones.suggestion(for: "europe/london") == "Europe/London")
    #expect(zones.suggestion(for: "london") == "Europe/London")
    #expect(zones.suggestion(for: "new york") == "America/New_York")
    #expect(zones.suggestion(for: "Europe/Berln") == "Europe/Berlin")
    #expect(zones.suggestion(for: "berln") == "Europe/Berlin")
    #expect(zones.suggestion(for: "zurch") == "Europe/Zurich")
    #expect(zones.suggestion(for: "Mars/Olympus") == nil)
    #expect(zones.suggestion(for: "") == nil)
    #expect(zones.suggestion(for: String(repeating: "london", count: 11)) == nil)
  }
}
